"""Reads of the post-game analysis: a game's analysis as plain data, the record
export's ``analysis`` list, a player's accuracy over their last games.

Who may read it: an analysis exists only for finished games (services.analysis), and what it
holds was judged from each deciding seat's view at that moment (games/ai/judge.py), so
it is shown to everyone who may see the finished game, players and spectators alike: the same
rows for every reader. A game not finished never has one shown (``analysis_of`` checks again).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from django.db.models import Q

from games.models import DecisionAnalysis, Game, GameAnalysis, Seat
from games.selectors.access import visible_to

# Each entry of a record's optional ``analysis`` list says its format; a new version of the
# entries' meaning gets a new name, and readers skip entries whose format they do not know.
ANALYSIS_FORMAT = "blokus-analysis/1"
RECENT_ANALYSED = 10  # the profile's accuracy: over this many of the last analysed games
EXPORT_KEYS = (
    "ply",
    "seat",
    "colour",
    "step",
    "played",
    "best",
    "before",
    "after",
    "loss",
    "sims",
    "judged",
)


@dataclass(frozen=True)
class AnalysisData:
    """A game's analysis: its progress and, as far as it went, its decisions (plain dicts with
    EXPORT_KEYS, oldest first) and each seat's accuracy (percent; None: no decision judged)."""

    status: str
    done: int
    total: int
    sims: int
    decisions: list[dict] = field(default_factory=list)
    accuracy: dict[int, float | None] = field(default_factory=dict)
    requested_by_id: int | None = None
    place: int | None = None  # waiting for the worker: its place in the queue (1: next)
    # The game's actions as (ply, seat, public events) (R9.1), for the chart's turns; read
    # once the analysis is done.
    actions: list[tuple[int, int, list]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.status == GameAnalysis.Status.DONE

    @property
    def in_flight(self) -> bool:
        return self.status in GameAnalysis.IN_FLIGHT


# Accuracy from the drops of the estimate, after lichess's (its AccuracyPercent): a decision's
# accuracy falls exponentially with its drop in points of percent (below).
MOVE_A, MOVE_K, MOVE_B = 103.1668100711649, 0.04354415386753951, -3.166924740191411
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0  # a window's weight: the spread of its estimates, clamped


def move_accuracy(before: float, after: float) -> float:
    """One decision's accuracy in percent from its estimates (0 to 1): 100 when nothing was
    lost, else ``103.17 * exp(-0.04354 * drop) - 3.17 + 1`` with the drop in points of percent
    (lichess's curve and its one point for the estimates' uncertainty), kept within 0 to 100:
    a drop of 5 points reads 81, of 10 points 65, of 20 points 41, of 40 points 16."""
    drop = 100.0 * (before - after)
    if drop <= 0:
        return 100.0
    return max(0.0, min(100.0, MOVE_A * math.exp(-MOVE_K * drop) + MOVE_B + 1.0))


def accuracy(pairs: list[tuple[float, float]]) -> float | None:
    """A player's accuracy over their judged decisions, in percent; ``pairs``: each decision's
    (``before``, ``after``) estimates (0 to 1), in the game's order. None without a decision.

    It weighs the decisions that mattered, as lichess's accuracy does: each decision's
    ``move_accuracy`` (above) gets a weight, how much the estimates swing around it: the
    standard deviation, in points of percent, of the ``before`` and ``after`` of the ``w``
    decisions up to it (``w`` a tenth of the player's decisions, but 2 to 8), kept within 0.5
    and 12, so that a calm stretch of forced or easy decisions weighs little. The accuracy is
    the mean of the weighted mean and the weighted harmonic mean of the decisions' accuracies
    (each at least 1). Lichess's second mean is not weighted; here it is, because a Shuffle turn
    holds several decisions (the card, the kept card, the colour, the piece), many of them
    forced, and unweighted they would dilute the few that decided the game. A game whose
    decisions all matched the best reads 100; a heavy loss with three drops of 35 to 40 points
    among a hundred sound decisions reads below 80, where the mean drop read above 95."""
    if not pairs:
        return None
    moves = [move_accuracy(b, a) for b, a in pairs]
    size = max(2, min(8, len(pairs) // 10))
    weights = []
    for i in range(len(pairs)):
        window = pairs[max(0, i - size + 1) : i + 1]
        values = [100.0 * v for pair in window for v in pair]
        weights.append(min(WEIGHT_MAX, max(WEIGHT_MIN, statistics.pstdev(values))))
    total = math.fsum(weights)
    weighted = math.fsum(m * w for m, w in zip(moves, weights, strict=True)) / total
    harmonic = total / math.fsum(w / max(1.0, m) for m, w in zip(moves, weights, strict=True))
    return round((weighted + harmonic) / 2, 1)


def _pairs(decisions: list[dict], seat: int) -> list[tuple[float, float]]:
    return [(d["before"], d["after"]) for d in decisions if d["seat"] == seat and d["judged"]]


def _rows(row: GameAnalysis) -> list[dict]:
    return list(DecisionAnalysis.objects.filter(analysis=row).order_by("ply").values(*EXPORT_KEYS))


def analysis_of(game: Game) -> AnalysisData | None:
    """The game's analysis, or None (none asked for, or the game is not finished)."""
    if game.status != Game.Status.FINISHED:
        return None
    row = GameAnalysis.objects.filter(game=game).first()
    if row is None:
        return None
    decisions = _rows(row)
    seats = sorted({d["seat"] for d in decisions})
    return AnalysisData(
        status=row.status,
        done=row.done,
        total=row.total,
        sims=row.sims,
        decisions=decisions,
        accuracy={s: accuracy(_pairs(decisions, s)) for s in seats},
        requested_by_id=row.requested_by_id,
        place=queue_place(row),
        actions=(
            [tuple(a) for a in game.actions.order_by("ply").values_list("ply", "seat", "events")]
            if row.status == GameAnalysis.Status.DONE
            else []
        ),
    )


def queue_place(row: GameAnalysis) -> int | None:
    """An analysis still waiting for the worker: 1 + the analyses queued before it (in the order
    they were asked for: a failed one asked again queues anew). None once it runs."""
    if row.status != GameAnalysis.Status.QUEUED:
        return None
    ahead = GameAnalysis.objects.filter(status=GameAnalysis.Status.QUEUED).filter(
        Q(updated_at__lt=row.updated_at) | Q(updated_at=row.updated_at, pk__lt=row.pk)
    )
    return ahead.count() + 1


def export_entries(game: Game) -> list[dict] | None:
    """The record export's optional ``analysis`` list: one entry per judged decision, each
    marked with its format (``blokus-analysis/1``); None while there is no finished analysis
    (the key is then left out). See games/ai/judge.py for what each value means.

    docs/RECORD.md makes an entry's ``ply`` the index of its decision in the record's
    ``actions`` (0 for the first), as a reader indexes the list; the site numbers actions from 1
    (the replay's "action 1"), so the export shifts it by one."""
    data = analysis_of(game)
    if data is None or not data.finished:
        return None
    return [{"format": ANALYSIS_FORMAT, **d, "ply": d["ply"] - 1} for d in data.decisions]


def recent_accuracy(user, reader=None, limit: int = RECENT_ANALYSED) -> dict | None:
    """The player's accuracy over their last ``limit`` analysed finished games that ``reader``
    may see (selectors.access.visible_to): {"games": n, "accuracy": mean percent, "last":
    [(game id, percent), ...] newest first}; None without one. No game's state is read."""
    seats = visible_to(
        Seat.objects.filter(
            user=user,
            kind=Seat.Kind.HUMAN,
            game__status=Game.Status.FINISHED,
            game__analysis__status=GameAnalysis.Status.DONE,
        ),
        reader,
        via="game",
    ).order_by("-game__finished_at", "-game__pk")[:limit]
    last = []
    for seat in seats:
        pairs = list(
            DecisionAnalysis.objects.filter(
                analysis__game_id=seat.game_id, seat=seat.index, judged=True
            )
            .order_by("ply")
            .values_list("before", "after")
        )
        value = accuracy(pairs)
        if value is not None:
            last.append((seat.game_id, value))
    if not last:
        return None
    return {
        "games": len(last),
        "accuracy": round(math.fsum(v for _, v in last) / len(last), 1),
        "last": last,
    }
