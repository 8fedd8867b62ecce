"""Ratings: one per player and mode (classic, Shuffle), for 2-, 3- and 4-player games alike.

openskill's Bradley-Terry model (all pairs compared: a game has at most four seats) rates a game
from its places (R8: place 1 wins, ties share a place and count as draws between them; openskill's
Plackett-Luce model was tried and gave a tied winner the same ``mu`` as the next place); each seat
is one team (a 2-player game's player controls two colours
and is rated once). A rating is ``mu`` (the estimate) and ``sigma`` (its uncertainty); players see
``1000 + 40 * (mu - 3 sigma)``: a newcomer shows 1000 and climbs as the site grows sure of them.

A game is rated once, when it finishes, inside the transaction that finishes it
(``record_results``, called by the write path): nothing is re-scored on a page view, and a
``RatingChange`` per player and game (unique) is the history the profile draws.

Computer seats play at a fixed rating per level and are never updated: their ``mu`` is calibrated
from the arena's head-to-head results (bench/AI_RESULTS.md) so that openskill predicts the win
rates measured there, with Casual anchored at a newcomer's 25 (see ``COMPUTER_WIN_RATES``).
A seat the computer took over after timeouts is still rated as its player's (the player left
it). Casual (unrated) games and aborted games change nothing.

Farming: winning over and over against a weak computer, or against a second account that
always loses, raised a player above Expert. So a player is left out of a game's rating (no change,
no count) when either holds: a computer seat of the game plays at a rating that is not above the
player's own by more than ``COMPUTER_MARGIN`` (the weakest computer seat counts: at 1420 and
over, games with a Beginner no longer count), or the player already had ``PAIR_GAMES_PER_DAY``
rated games with one of the game's other players in the last 24 hours. The others at the table
are rated as usual, with everyone's places (the help page's Ratings section says so).

The pair limit alone let a player farm fresh accounts: twelve wins over four new second accounts
(three each, every one resigning after a move) lifted a rating from 1000 to 1859, since a new
player's rating moves fast and so does their opponent's. As lichess discounts games against
provisional players, a game with a player who has fewer than PROVISIONAL_GAMES rated games in the
mode moves everyone else's shown rating by at most NEW_OPPONENT_STEP points, up or down (the
update is taken part of the way, ``_part``): a fresh account is worth a few dozen points at most,
whoever plays it, and two newcomers still rate each other, slowly.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from itertools import combinations

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext
from openskill.models import BradleyTerryFull

from games import engine
from games.models import Game, Rating, RatingChange, Seat, shown_rating
from games.selectors.access import visible_to

MODEL = BradleyTerryFull()
User = get_user_model()
COMPUTER_SIGMA = 2.0
# Head-to-head win rates from the arena (bench/AI_RESULTS.md, 2-player, classic and Shuffle
# pooled), each the lower end of its 95 % Wilson interval: Casual won 80 of 80 games against
# Beginner, Expert 39 of 40 against Casual. The lower bound keeps a perfect score finite. The AI's
# table of levels holds them (games/ai/levels.py, ``beats_below``); the services do not import the
# AI package, so they are repeated here and tests/ai/test_level_table.py checks that they agree.
# A level not measured (Master) is rated as the level below it (``computer_rating``).
COMPUTER_WIN_RATES = {("casual", "beginner"): 0.954, ("expert", "casual"): 0.871}
ANCHOR = ("casual", MODEL.mu)  # Casual rates as a newcomer does
# Games against the computer count while the player is below the weakest computer seat's
# rating plus this many (shown) points: about one Beginner game's gain at that level, so a win
# over Beginner lifts nobody far past 1419 (a player there still gains from Casual and Expert).
COMPUTER_MARGIN = 100
# Rated games per pair of players in any 24 hours; more games between them are played but
# leave both out of the rating.
PAIR_GAMES_PER_DAY = 3
PAIR_WINDOW = timedelta(hours=24)
# A player with fewer rated games than this in a mode is provisional: the leaderboard marks them,
# and a game with them moves each other player's shown rating by at most NEW_OPPONENT_STEP.
PROVISIONAL_GAMES = 5
NEW_OPPONENT_STEP = 10


def _gap(win_rate: float) -> float:
    """The ``mu`` difference at which openskill predicts ``win_rate`` for the stronger side."""
    low, high = 0.0, 60.0
    for _ in range(50):
        mid = (low + high) / 2
        stronger = MODEL.rating(mu=ANCHOR[1] + mid, sigma=COMPUTER_SIGMA)
        weaker = MODEL.rating(mu=ANCHOR[1], sigma=COMPUTER_SIGMA)
        if MODEL.predict_win([[stronger], [weaker]])[0] < win_rate:
            low = mid
        else:
            high = mid
    return low


@cache
def computer_mu() -> dict[str, float]:
    mu = {ANCHOR[0]: ANCHOR[1]}
    mu["beginner"] = mu["casual"] - _gap(COMPUTER_WIN_RATES[("casual", "beginner")])
    mu["expert"] = mu["casual"] + _gap(COMPUTER_WIN_RATES[("expert", "casual")])
    return mu


def shown(mu: float, sigma: float) -> int:
    """The rating players see (``models.shown_rating``, which the selectors read too)."""
    return shown_rating(mu, sigma)


def computer_rating(level: str) -> int:
    """The fixed rating a computer level plays at (a level not yet measured: Expert's)."""
    return shown(computer_mu().get(level, computer_mu()["expert"]), COMPUTER_SIGMA)


def record_results(game: Game, state, *, seats=None) -> None:
    """Write every seat's place and score and, for a rated game, rate its players.

    Call inside the transaction that finishes the game, with the game row locked. ``seats``
    (every Seat of the game, read under that lock) spare a query; in index order or not.
    """
    final = {p["seat"]: p for p in engine.score(state)["players"]}
    if seats is None:
        seats = game.seats.select_related("user")
    seats = sorted(seats, key=lambda s: s.index)
    placed = []
    for seat in seats:
        mine = final.get(seat.index)
        if mine is not None:
            seat.final_place, seat.final_score = mine["place"], mine["score"]
            placed.append(seat)
    Seat.objects.bulk_update(placed, ["final_place", "final_score"])  # one query
    if game.rated:
        _rate(game, [s for s in seats if s.final_place is not None])


def _rate(game: Game, seats: list[Seat]) -> None:
    humans = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]
    if not humans or len(seats) < 2:
        return
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(
            mode=game.mode, user_id__in=[s.user_id for s in humans]
        )
    }
    teams = []
    for seat in seats:
        if seat in humans:
            row = ratings.get(seat.user_id)
            mu, sigma = (row.mu, row.sigma) if row else (MODEL.mu, MODEL.sigma)
        else:
            mu, sigma = computer_mu().get(seat.ai_level, computer_mu()["expert"]), COMPUTER_SIGMA
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[s.final_place for s in seats])
    left_out = _left_out(game, seats, humans, teams)
    provisional = {
        s.user_id
        for s in humans
        if (ratings[s.user_id].games if s.user_id in ratings else 0) < PROVISIONAL_GAMES
    }
    # Inside the transaction that finishes the game (record_results): no savepoint of its own.
    # The new rows go in one INSERT each table, the existing ratings in one UPDATE.
    new_rows, old_rows, changes = [], [], []
    for seat, before, (after,) in zip(seats, teams, rated, strict=True):
        if seat not in humans or seat.user_id in left_out:
            continue
        row = ratings.get(seat.user_id)
        if row is None:
            row = Rating(user_id=seat.user_id, mode=game.mode)
            new_rows.append(row)
        else:
            old_rows.append(row)
        if provisional - {seat.user_id}:
            after = _part(before[0], after, NEW_OPPONENT_STEP)
        row.mu, row.sigma = after.mu, after.sigma
        row.ordinal = after.mu - 3 * after.sigma
        row.games += 1
        changes.append(
            RatingChange(
                game=game,
                user_id=seat.user_id,
                mode=game.mode,
                before=shown(before[0].mu, before[0].sigma),
                after=shown(after.mu, after.sigma),
            )
        )
    if new_rows:
        Rating.objects.bulk_create(new_rows)
    if old_rows:
        now = timezone.now()
        for row in old_rows:
            row.updated_at = now
        Rating.objects.bulk_update(old_rows, ["mu", "sigma", "ordinal", "games", "updated_at"])
    if changes:
        RatingChange.objects.bulk_create(changes)


def _part(before, after, step: float):
    """``after`` taken only part of the way from ``before`` (mu and sigma alike), so that the
    shown rating moves by at most ``step`` points."""
    moved = 40 * ((after.mu - 3 * after.sigma) - (before.mu - 3 * before.sigma))
    if abs(moved) <= step:
        return after
    share = step / abs(moved)
    return MODEL.rating(
        mu=before.mu + share * (after.mu - before.mu),
        sigma=before.sigma + share * (after.sigma - before.sigma),
    )


def _left_out(game: Game, seats: list[Seat], humans: list[Seat], teams: list) -> set[int]:
    """The players of ``game`` whose rating it does not change (the farming limits: see the
    module's notes)."""
    computers = [computer_rating(s.ai_level) for s in seats if s not in humans]
    left_out = set()
    if computers:
        floor = min(computers) + COMPUTER_MARGIN
        left_out = {
            seat.user_id
            for seat, team in zip(seats, teams, strict=True)
            if seat in humans and shown(team[0].mu, team[0].sigma) >= floor
        }
    since = timezone.now() - PAIR_WINDOW
    for seat, other in combinations(humans, 2):
        together = RatingChange.objects.filter(
            user_id=seat.user_id,
            created_at__gte=since,
            game__rating_changes__user_id=other.user_id,
        ).count()
        if together >= PAIR_GAMES_PER_DAY:
            left_out.update((seat.user_id, other.user_id))
    return left_out


# -- reading -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    place: int
    username: str
    display_name: str
    rating: int
    games: int
    provisional: bool  # fewer than PROVISIONAL_GAMES rated games: the number may move a lot


def leaderboard(mode: str, *, limit: int = 100) -> list[Standing]:
    """The best ``limit`` players of ``mode``. A player who has finished a game of the mode but
    has no rating in it yet (only unrated games, or rated games that left them out) is listed
    too, at a newcomer's rating and provisional: a newcomer finds themselves on the board
    after their first game, not only after their first rated one."""
    rated = list(
        Rating.objects.filter(mode=mode, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "user__username")[:limit]
    )
    newcomer = MODEL.rating()
    fresh = (
        User.objects.filter(
            is_active=True,
            seats__kind=Seat.Kind.HUMAN,
            seats__game__mode=mode,
            seats__game__status=Game.Status.FINISHED,
        )
        .exclude(ratings__mode=mode)
        .distinct()
        .order_by("username")[:limit]
    )
    rows = [(r.ordinal, r.user, shown(r.mu, r.sigma), r.games) for r in rated]
    rows += [
        (newcomer.mu - 3 * newcomer.sigma, u, shown(newcomer.mu, newcomer.sigma), 0) for u in fresh
    ]
    rows.sort(key=lambda row: (-row[0], row[1].username))
    return [
        Standing(
            place=i,
            username=user.username,
            display_name=str(user),
            rating=rating,
            games=games,
            provisional=games < PROVISIONAL_GAMES,
        )
        for i, (_ordinal, user, rating, games) in enumerate(rows[:limit], start=1)
    ]


# The rating chart's games: the last ones, so that the chart costs the same after 10 games or
# 100,000.
CHART_GAMES = 100


def player_ratings(user, viewer=None) -> list[dict]:
    """Each mode's rating of a player with its chart, for the profile. The chart draws the last
    CHART_GAMES rated games that ``viewer`` may see (selectors.access.visible_to: a private game's
    result is not shown to a stranger), read backwards through
    rating_history_idx."""
    out = []
    ratings = {r.mode: r for r in Rating.objects.filter(user=user)}
    for mode, label in Game.Mode.choices:
        row = ratings.get(mode)
        if row is None:
            continue
        changes = list(
            visible_to(RatingChange.objects.filter(user=user, mode=mode), viewer, via="game")
            .order_by("-created_at", "-pk")
            .values_list("before", "after")[:CHART_GAMES]
        )[::-1]
        series = [changes[0][0], *(after for _before, after in changes)] if changes else []
        out.append(
            {
                "mode": mode,
                "label": label,
                "rating": shown(row.mu, row.sigma),
                "games": row.games,
                "provisional": row.games < PROVISIONAL_GAMES,
                "chart": chart_svg(series),
            }
        )
    return out


def chart_svg(series: list[int], *, width: int = 320, height: int = 100) -> str:
    """A rating history as a small inline SVG line chart (server-drawn: no chart library).

    Only numbers and the escaped label go into the markup, so it is safe to mark safe in a
    template."""
    if len(series) < 2:
        return ""
    low, high = min(series), max(series)
    span = max(high - low, 1)
    pad = 6
    step = (width - 2 * pad) / (len(series) - 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (high - v) * (height - 2 * pad) / span:.1f}"
        for i, v in enumerate(series)
    )
    label = gettext("Rating history from %(first)d to %(last)d, between %(low)d and %(high)d") % {
        "first": series[0],
        "last": series[-1],
        "low": low,
        "high": high,
    }
    return (
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(label)}">'
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{points}"/>'
        f'<text x="{pad}" y="{height - 1}" font-size="10">{low}</text>'
        f'<text x="{pad}" y="10" font-size="10">{high}</text></svg>'
    )
