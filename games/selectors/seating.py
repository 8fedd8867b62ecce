"""Who may take which seat of a game that has not started: the one definition of the rule, read
by the write path (``services.game_join``, under the game's lock) and by the page that offers
"Take a seat" (``presenters.game.joining``), so that the page never offers what the service
would refuse.

Blocks are silent: a player who invites someone who blocked them is not told so. The
invitation is made as any other and shows as pending to its sender, but the invitee hears nothing
of it (``silenced``), is not shown it (``visible_invitations``) and is not offered its seat. Only
the blocker's own block is said to them (``invitation_refusal``): they can lift it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import Block, blocked_ids, blocks_between
from games.models import Game, Seat


def invitation_refusal(creator, invitee) -> str:
    """Why ``creator`` may not invite ``invitee`` ("" if they may): only the creator's own block.
    That the invitee blocked the creator is never said: that invitation is made, and silenced."""
    if Block.objects.filter(blocker=creator, blocked=invitee).exists():
        return _("you have blocked %(name)s: unblock them to invite them") % {"name": invitee}
    return ""


def silenced(creator, invitee_ids: list[int]) -> set[int]:
    """The invitees of ``creator`` who blocked them: no email and no notice goes to those."""
    return set(
        Block.objects.filter(blocked=creator, blocker_id__in=invitee_ids).values_list(
            "blocker_id", flat=True
        )
    )


def visible_invitations(user, games: list[Game]) -> list[Game]:
    """``games`` (where ``user`` holds an invitation) without those from players they blocked."""
    if not games:
        return games  # nothing to filter: no query for the blocks
    hidden = blocked_ids(user)
    return [game for game in games if game.created_by_id not in hidden]


def seat_for_joiner(game: Game, seats: list[Seat], user, token: str = "") -> Seat | None:
    """The seat ``user`` would take: their invitation; else, with the game's invite link, a link
    seat; else, in a public game or with the link, an open seat. None if there is none for them:
    the game is not taking players, they sit here already, or someone at the table blocked them.

    At the table means seated or invited: a player invited here who blocked ``user`` would
    otherwise accept after ``user`` took an open seat, and the two would sit at one table. The
    same holds for an invitation: the invitee does not sit down with someone who blocked them
    (the creator's own block was refused when inviting, services._seat_from_spec)."""
    if game.status != Game.Status.OPEN or not user.is_authenticated:
        return None
    if any(s.user_id == user.pk and s.kind == Seat.Kind.HUMAN for s in seats):
        return None
    seat = next((s for s in seats if s.kind == Seat.Kind.INVITED and s.user_id == user.pk), None)
    if seat is not None and game.created_by_id in blocked_ids(user):
        return None  # a silenced invitation (see above): not offered
    if seat is None:
        with_link = bool(token) and token == game.invite_token
        if with_link:
            seat = next((s for s in seats if s.kind == Seat.Kind.LINK), None)
        if seat is None and (with_link or game.visibility == Game.Visibility.PUBLIC):
            seat = next((s for s in seats if s.kind == Seat.Kind.OPEN), None)
    at_table = [
        s.user_id
        for s in seats
        if s.kind in (Seat.Kind.HUMAN, Seat.Kind.INVITED) and s.user_id not in (None, user.pk)
    ]
    if seat is not None and blocks_between(user, at_table):
        return None
    return seat


def blocked_pairs(user_ids) -> set[frozenset[int]]:
    """Every pair among ``user_ids`` (a list, or a query of ids) where one blocked the other,
    in one query: "Play now" and tournaments never seat such a pair together."""
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(row) for row in rows}
