""" "Play now" under concurrency, on PostgreSQL: fifty players ask at once from threads in two
processes while sweeps run beside them; nobody is seated twice, no table holds more players
than seats, and every request ends waiting at one forming table or in one started game."""

from __future__ import annotations

import multiprocessing
import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from games import services
from games.models import Game, Rating, Seat, Seek, SeekTable
from games.services import seeks

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PLAYERS = 50
PROCESSES = 2


def _ask_all(user_ids: list[int], choices: dict[int, int], errors) -> None:
    """Each user asks in a thread of its own, all released at once; two sweeps race them."""
    from django.contrib.auth import get_user_model

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    connections.close_all()
    barrier = threading.Barrier(len(user_ids) + 2)

    def ask(user_id):
        try:
            barrier.wait()
            seeks.seek_ask(
                user=users[user_id],
                mode="shuffle",
                players=choices[user_id],
                move_seconds=3600,
                rated=True,
                fill_after=None,
            )
        except services.GameError as exc:  # a refusal is an answer; anything else is a bug
            errors.append(f"refused {user_id}: {exc}")
        except Exception as exc:  # noqa: BLE001
            errors.append(f"crashed {user_id}: {exc!r}")
        finally:
            connections.close_all()

    def sweep():
        try:
            barrier.wait()
            for _ in range(3):  # windows wide open: it joins whatever it can meanwhile
                seeks.sweep(now=timezone.now() + timedelta(hours=3))
        except Exception as exc:  # noqa: BLE001
            errors.append(f"sweep crashed: {exc!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask, args=(u,)) for u in user_ids]
    threads += [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


def _process(user_ids, choices, queue) -> None:
    errors: list[str] = []
    _ask_all(user_ids, choices, errors)
    queue.put(errors)


def test_fifty_players_at_once_from_threads_and_processes(require_postgres, make_user):
    rng = random.Random(7)
    users = [make_user(f"p{i:02d}") for i in range(PLAYERS)]
    choices = {}
    for user in users:
        shown = rng.choice([1000, 1040, 1080, 1500])  # a few rating bands
        sigma = 25 / 3
        mu = (shown - 1000) / 40 + 3 * sigma
        Rating.objects.create(user=user, mode="shuffle", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma)
        choices[user.pk] = rng.choice([2, 3, 4, Seek.ANY_PLAYERS])
    ids = [u.pk for u in users]
    rng.shuffle(ids)
    connections.close_all()  # the children must not share this process's connection
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    share = len(ids) // PROCESSES
    parts = [
        ids[i * share : (i + 1) * share if i < PROCESSES - 1 else None] for i in range(PROCESSES)
    ]
    children = [context.Process(target=_process, args=(part, choices, queue)) for part in parts]
    for child in children:
        child.start()
    errors = [line for _ in children for line in queue.get(timeout=180)]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    assert not [e for e in errors if "crashed" in e], errors
    # A sweep afterwards, with every window wide open, seats whoever can still be seated.
    seeks.sweep(now=timezone.now() + timedelta(hours=3))

    # Every request was taken (nobody was refused: each player asked once).
    assert Seek.objects.count() == PLAYERS, errors
    # Nobody seated twice: at most one seat per player in all the games, one request each.
    seats = Counter(Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True))
    assert seats and max(seats.values()) == 1
    for game in Game.objects.all():
        rows = list(game.seats.all())
        assert len(rows) == game.players  # never overfilled, never short
        assert game.status == Game.Status.ACTIVE
        table = game.seek_table
        humans = {s.user_id for s in rows if s.kind == Seat.Kind.HUMAN}
        assert humans == set(table.seeks.values_list("user_id", flat=True))
        wanted = set(table.seeks.values_list("players", flat=True))
        assert wanted <= {game.players, Seek.ANY_PLAYERS}  # everyone got the size they asked
    for table in SeekTable.objects.filter(status=SeekTable.Status.FORMING):
        waiting = table.seeks.filter(status=Seek.Status.WAITING).count()
        assert 0 < waiting < table.players
    for seek in Seek.objects.select_related("table"):
        if seek.status == Seek.Status.STARTED:
            assert seek.table.game.seats.filter(user_id=seek.user_id).exists()
            assert seats[seek.user_id] == 1
        else:
            assert seek.status == Seek.Status.WAITING
            assert seek.table.status == SeekTable.Status.FORMING
            assert seats[seek.user_id] == 0
    # The wide windows of the sweeps formed games: most players are in one.
    assert sum(seats.values()) >= PLAYERS // 2


def test_one_player_asking_twice_at_once_waits_once(require_postgres, alice):
    connections.close_all()
    barrier = threading.Barrier(8)
    outcomes = []

    def ask(mode):
        try:
            barrier.wait()
            seeks.seek_ask(
                user=alice,
                mode=mode,
                players=2,
                move_seconds=3600,
                rated=False,
                fill_after=None,
            )
            outcomes.append("seated")
        except services.Conflict:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=ask, args=("shuffle" if i % 2 else "classic",)) for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["refused"] * 7 + ["seated"]
    assert Seek.objects.filter(user=alice, status=Seek.Status.WAITING).count() == 1
    assert SeekTable.objects.filter(status=SeekTable.Status.FORMING).count() == 1
