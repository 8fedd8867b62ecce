"""The tests' SQLite database (tests/settings.py, when no DATABASE_URL is set): a file of this
test process's own, opened with `make run`'s options (WAL). Threads of one test (the live
server's, a player's event stream beside a move) each have their own connection to it. The
in-memory database it replaced was in SQLite's shared-cache mode, where a reader's table lock
made another thread's write fail at once with "database table is locked", whatever the busy
timeout; in WAL a write goes on while another connection reads. With PostgreSQL (`.ci/run`)
there is nothing to test here."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection, connections

from accounts.models import User

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite test database only"),
]


def test_the_test_database_is_a_file_in_wal_mode():
    name = str(connection.settings_dict["NAME"])
    assert "memory" not in name and os.path.isfile(name)  # pytest-xdist appends "_gw0"
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_write_goes_on_while_another_thread_holds_a_read_of_the_same_table():
    User.objects.create_user("before", password="pw-before-1")
    reading, written = threading.Event(), threading.Event()
    seen = []

    def reader():
        try:
            with connection.cursor() as cursor:
                cursor.execute("BEGIN")  # a read transaction, held open across the write
                seen.append(cursor.execute("SELECT COUNT(*) FROM accounts_user").fetchone()[0])
                reading.set()
                written.wait(30)
                cursor.execute("COMMIT")
        finally:
            reading.set()
            connections.close_all()

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        assert reading.wait(30) and seen == [1]
        User.objects.create_user("writer", password="pw-writer-1")  # no OperationalError
    finally:
        written.set()
        thread.join(30)
    assert not thread.is_alive()
    assert User.objects.filter(username="writer").exists()
