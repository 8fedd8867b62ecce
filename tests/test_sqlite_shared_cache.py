"""The tests' SQLite database is in memory, in SQLite's shared-cache mode, where every
connection of the process shares one cache and locks whole tables: while one connection's read
transaction holds a table, a write to it from another connection fails at once with "database
table is locked" (the busy timeout does not apply to these locks). Threads of the same test
(the channel layer's consumers, a player's event stream beside a move) then failed at random.
config/settings.py opens every SQLite connection with ``PRAGMA read_uncommitted=1``: in
shared-cache mode a reader then takes no table lock, and the writer goes on. A file database
(`make run`) ignores the pragma. With PostgreSQL (`.ci/run`) there is nothing to test here."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from accounts.models import User

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's shared cache only"),
]


def write_while_another_thread_reads(read_uncommitted: int) -> Exception | None:
    """A second thread opens a transaction and reads the users' table (its connection's
    ``read_uncommitted`` set as given), and holds it open while this thread adds a user: the
    error the write met, or None."""
    reading, written = threading.Event(), threading.Event()

    def reader():
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA read_uncommitted={read_uncommitted}")
            with transaction.atomic():
                list(User.objects.values_list("pk", flat=True))
                reading.set()
                written.wait(10)
        finally:
            reading.set()
            connections.close_all()

    thread = threading.Thread(target=reader)
    thread.start()
    assert reading.wait(10)
    error = None
    try:
        User.objects.create_user(f"writer{read_uncommitted}", password="pw-writer-1")
    except OperationalError as exc:
        error = exc
    finally:
        written.set()
        thread.join(10)
    return error


def test_the_settings_open_sqlite_with_read_uncommitted():
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA read_uncommitted").fetchone()[0] == 1


def test_a_write_goes_on_while_another_thread_reads_the_same_table():
    assert write_while_another_thread_reads(1) is None
    assert User.objects.filter(username="writer1").exists()


def test_without_the_pragma_the_same_write_fails_in_shared_cache():
    """The control: the same two threads with the reader's pragma off meet the lock, so the
    test above checks the setting and not a lucky order of the threads."""
    if "cache=shared" not in str(connection.settings_dict["NAME"]):
        pytest.skip("only a shared-cache database takes table locks")
    error = write_while_another_thread_reads(0)
    assert error is not None and "table is locked" in str(error)
    assert not User.objects.filter(username="writer0").exists()
