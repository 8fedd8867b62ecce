"""games.jobs.queue_later_soon: a notice that may wait a moment is published by the process's
publisher thread after the request answers (a turn email), inline when Celery runs eagerly; a
broker error is logged and the thread goes on publishing."""

from __future__ import annotations

import threading

import pytest
from celery import current_app

from games import jobs


@pytest.fixture
def published(monkeypatch):
    calls, done = [], threading.Event()

    def queue_later(name, seconds, *args):
        calls.append((threading.current_thread().name, name, seconds, args))
        if name == "broken":
            raise ConnectionError("broker down")
        done.set()

    monkeypatch.setattr(jobs, "queue_later", queue_later)
    return calls, done


def test_eager_celery_publishes_in_the_caller(published, monkeypatch):
    calls, _ = published
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    jobs.queue_later_soon("send_turn_email", 30, 1, 2, 3, "turn")
    assert calls == [(threading.current_thread().name, "send_turn_email", 30, (1, 2, 3, "turn"))]


def test_a_worker_celery_publishes_from_the_publisher_thread(published, monkeypatch, caplog):
    calls, done = published
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    jobs.queue_later_soon("broken", 1)  # logged, and the thread lives on
    jobs.queue_later_soon("send_turn_email", 30, 1, 2, 3, "turn")
    assert done.wait(5)
    assert calls[0][:2] == ("jobs", "broken")
    assert calls[1] == ("jobs", "send_turn_email", 30, (1, 2, 3, "turn"))
    assert "could not queue broken" in caplog.text
