"""Work for the Celery workers, queued by task name.

The services, the deadline scan and the emails queue work here instead of importing
``games.jobs.tasks``: the tasks call those modules, so importing the tasks from them would close an
import circle. The tasks are registered when the app is ready (``GamesConfig.ready`` imports
``games.jobs.tasks``); a job is then looked up in the Celery app's registry by its name, the same
object a worker runs (eager under the tests' settings)."""

from __future__ import annotations

import logging
import os
import queue as _queue
import threading

from celery import current_app

log = logging.getLogger(__name__)


def task(name: str):
    """The registered task ``games.tasks.<name>``."""
    return current_app.tasks[f"games.tasks.{name}"]


def queue(name: str, *args, **kwargs):
    """Queue ``games.tasks.<name>(*args, **kwargs)`` for a worker."""
    return task(name).delay(*args, **kwargs)


def queue_later(name: str, seconds: float, *args, **kwargs):
    """Queue ``games.tasks.<name>(*args, **kwargs)`` to run ``seconds`` from now (an eager
    Celery, as in the tests, runs it at once)."""
    return task(name).apply_async(args, kwargs, countdown=seconds)


# Notices that may wait a moment: published by one thread per process after the request has
# answered, instead of inside it (a publish is ~1 ms of round trips to the broker, on every move
# of a player who gets turn emails). Only for work whose loss is harmless: a web process killed
# in that moment loses the notice, as it loses a nudge; a move, a computer turn or a deadline is
# never queued this way.
_later: _queue.SimpleQueue | None = None
_later_lock = threading.Lock()


def _publisher(jobs: _queue.SimpleQueue) -> None:
    while True:
        name, seconds, args = jobs.get()
        try:
            queue_later(name, seconds, *args)
        except Exception:  # the broker down: logged, the move it tells of is committed anyway
            log.exception("could not queue %s", name)


def queue_later_soon(name: str, seconds: float, *args) -> None:
    """``queue_later``, published by this process's publisher thread after the caller returns
    (at once, in the caller, when Celery runs tasks eagerly: the tests' settings)."""
    global _later
    if current_app.conf.task_always_eager:
        queue_later(name, seconds, *args)
        return
    with _later_lock:
        if _later is None:
            _later = _queue.SimpleQueue()
            threading.Thread(target=_publisher, args=(_later,), name="jobs", daemon=True).start()
    _later.put((name, seconds, args))


def _forget_publisher() -> None:
    global _later
    _later = None  # a forked child has the queue but not its thread: it starts its own


os.register_at_fork(after_in_child=_forget_publisher)
