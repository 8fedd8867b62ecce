"""Work for the Celery workers, queued by task name.

The services, the deadline scan and the emails queue work here instead of importing
``games.jobs.tasks``: the tasks call those modules, so importing the tasks from them would close an
import circle. The tasks are registered when the app is ready (``GamesConfig.ready`` imports
``games.jobs.tasks``); a job is then looked up in the Celery app's registry by its name, the same
object a worker runs (eager under the tests' settings)."""

from __future__ import annotations

from celery import current_app


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
