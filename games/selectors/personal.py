"""A player's own data, as "Download my data" hands it to them (games.jobs.exports).

Everything here is about the player who asks, and nothing is anyone else's secret: their games
go through the record export of ``selectors.history`` (a finished game's full record, R9.4; a
running game's record is their own seat's view, never another hand, a pile's order or the seed,
R9), the chat lines are the ones they wrote, the blocks the ones they made (a blocked player is
never told, so the blocks received are not listed), and their devices and chat webhook are named
without the keys and addresses that would let anyone send to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from django.db.models import Prefetch

from accounts.models import Block, User, Vacation
from games.models import (
    ChatMessage,
    NoticeSettings,
    PushSubscription,
    Rating,
    RatingChange,
    Seat,
)
from games.selectors import history

# The games are read this many at a time (with their seats and players): memory stays flat
# whatever the player's number of games.
CHUNK = 200


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def account(user: User) -> dict:
    """The account and its settings."""
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "email_addresses": [
            {"email": e.email, "verified": e.verified, "primary": e.primary}
            for e in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "settings": {
            "language": user.language,
            "time_zone": user.time_zone,
            "confirm_moves": user.confirm_moves,
            "email_turns": user.email_turns,
            "email_when_open": user.email_when_open,
            "reminder_hours": user.reminder_hours,
            "digest_hour": user.digest_hour,
        },
        "vacations": [
            {"starts_at": _when(v.starts_at), "ends_at": _when(v.ends_at)}
            for v in Vacation.objects.filter(user=user).order_by("starts_at")
        ],
    }


def notifications(user: User) -> dict:
    """The Notifications page's boxes, the chat webhook and the devices, without their keys:
    a device's endpoint and a webhook's address are capabilities (whoever has them can send
    to the device or the channel), so only their host is written."""
    boxes = NoticeSettings.objects.filter(user=user).first()
    fields = ("turn", "invite", "over", "resigned", "takeback")
    return {
        "boxes": {f: getattr(boxes, f) if boxes else True for f in fields},
        "webhook": (
            {"host": urlsplit(boxes.webhook_url).hostname} if boxes and boxes.webhook_url else None
        ),
        "devices": [
            {
                "id": d.pk,
                "push_service": urlsplit(d.endpoint).hostname,
                "added": _when(d.created_at),
                "label": d.label,
                "switched_on": d.enabled,
            }
            for d in PushSubscription.objects.filter(user=user).order_by("pk")
        ],
    }


def chat_lines(user: User) -> list[dict]:
    """Every chat line the player wrote, oldest first."""
    return [
        {
            "game": public_id,
            "room": room,
            "at": _when(at),
            "text": text,
            "hidden_by_moderator": hidden,
        }
        for public_id, room, at, text, hidden in ChatMessage.objects.filter(user=user)
        .order_by("created_at", "pk")
        .values_list("game__public_id", "room", "created_at", "text", "hidden")
    ]


def ratings(user: User) -> dict:
    """The current rating per mode and every rated game's change."""
    return {
        "current": [
            {"mode": r.mode, "games": r.games, "mu": r.mu, "sigma": r.sigma}
            for r in Rating.objects.filter(user=user).order_by("mode")
        ],
        "history": [
            {"game": public_id, "mode": mode, "before": before, "after": after, "at": _when(at)}
            for public_id, mode, before, after, at in RatingChange.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values_list("game__public_id", "mode", "before", "after", "created_at")
        ],
    }


def blocks(user: User) -> list[dict]:
    """The players this player has blocked (not who blocked them: that is never told)."""
    return [
        {"player": username, "since": _when(at)}
        for username, at in Block.objects.filter(blocker=user)
        .order_by("created_at")
        .values_list("blocked__username", "created_at")
    ]


def seats_of(user: User) -> Iterator[Seat]:
    """Every seat the player holds or held (invitations included), oldest game first, each
    with its game and the game's seats and players read along, ``CHUNK`` games at a time."""
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
    return (
        Seat.objects.filter(user=user)
        .select_related("game")
        .prefetch_related(seats)
        .order_by("game__created_at", "game__pk")
        .iterator(chunk_size=CHUNK)
    )


def game_entry(seat: Seat) -> dict:
    """One line of the export's list of games: what the game was and how it went for them."""
    game = seat.game
    return {
        "game": game.public_id,
        "mode": game.mode,
        "players": game.players,
        "status": game.status,
        "rated": game.rated,
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "seat": seat.index,
        "seat_kind": seat.kind,
        "place": seat.final_place,
        "score": seat.final_score,
        "seats": [s.label for s in game.seats.all()],
    }


def game_files(seat: Seat) -> dict[str, str | dict]:
    """The game's files for the player: its record (``record``: the record export's document,
    R9 and R9.4 as ``selectors.history.record_document`` decides for their seat) and, for a
    finished classic game Pentobi can open, its ``.blksgf`` text (``blksgf``). A game that
    never started has neither; an invitation not taken is not their seat yet (no record)."""
    game = seat.game
    if game.state is None or seat.kind != Seat.Kind.HUMAN:
        return {}
    record = history.record_document(game, seat)
    files: dict[str, str | dict] = {"record": record}
    text = history.pentobi_text(game, record, list(game.seats.all()))
    if text is not None:
        files["blksgf"] = text
    return files
