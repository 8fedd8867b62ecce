"""What the integration tests share besides fixtures: bounded waiting, and a player's move."""

from __future__ import annotations

import time
from contextlib import contextmanager

WAIT = 30  # seconds: the longest a test waits for any one thing to happen


def wait_for(condition, *, what: str, timeout: float = WAIT, every: float = 0.1, log=None):
    """Poll ``condition`` until it returns something true, and return that; fail after
    ``timeout`` seconds, with the worker's log (``log()``) in the message."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            details = f"\n--- worker log ---\n{log()}" if log else ""
            raise AssertionError(f"waited {timeout:g} s for {what}{details}")
        time.sleep(every)


def human_move(game, user) -> int:
    """``user`` plays the first legal action of the decision at hand, through the service (as
    the game page's POST does); returns the new ply."""
    from games import engine, services

    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    return services.action_submit(game=game, user=user, action=action, expected_ply=game.ply).ply


@contextmanager
def game_row_locked(game):
    """Hold ``game``'s row lock (SELECT ... FOR UPDATE) in a database session of its own until
    the block ends, as a slow transaction would: action_submit waits for it. Yields a function
    that tells how many sessions are waiting for it."""
    from django.db import connection, connections

    from games.models import Game

    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            table = holder.ops.quote_name(Game._meta.db_table)
            cursor.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", [game.pk])

        def waiting() -> int:
            # The first waiter waits for the holder, the next ones for the first (the row's
            # lock queue): count every session of this test database that waits for a lock.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                return cursor.fetchone()[0]

        yield waiting
    finally:
        holder.rollback()
        holder.close()
