"""Reads of the post-game analysis: a game's analysis as plain data, the record
export's ``analysis`` list, a player's accuracy over their last games.

Who may read it: an analysis exists only for finished games (services.analysis), and what it
holds was judged from each deciding seat's view at that moment (games/ai/judge.py), so
it is shown to everyone who may see the finished game, players and spectators alike: the same
rows for every reader. A game not finished never has one shown (``analysis_of`` checks again).
"""

from __future__ import annotations

import math
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

    @property
    def finished(self) -> bool:
        return self.status == GameAnalysis.Status.DONE

    @property
    def in_flight(self) -> bool:
        return self.status in GameAnalysis.IN_FLIGHT


def accuracy(losses: list[float]) -> float | None:
    """100 minus the mean estimate lost per judged decision, in percent (100: every decision as
    good as the best the analysis found). None without a decision."""
    if not losses:
        return None
    return round(100.0 * (1.0 - math.fsum(losses) / len(losses)), 1)


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
        accuracy={
            s: accuracy([d["loss"] for d in decisions if d["seat"] == s and d["judged"]])
            for s in seats
        },
        requested_by_id=row.requested_by_id,
        place=queue_place(row),
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
        losses = list(
            DecisionAnalysis.objects.filter(
                analysis__game_id=seat.game_id, seat=seat.index, judged=True
            ).values_list("loss", flat=True)
        )
        value = accuracy(losses)
        if value is not None:
            last.append((seat.game_id, value))
    if not last:
        return None
    return {
        "games": len(last),
        "accuracy": round(math.fsum(v for _, v in last) / len(last), 1),
        "last": last,
    }
