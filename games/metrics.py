"""Metrics for the monitor, in Prometheus's text format at ``/metrics/`` (prometheus-client).

``/metrics/`` answers only a request carrying ``Authorization: Bearer <MONITOR_TOKEN>`` (404
otherwise, as ``/health/full/``). What it tells:

- ``blokus_http_request_duration_seconds{view,method}``: each request's time in Django, by URL
  name (``RequestMetricsMiddleware``; static files are answered before it, by WhiteNoise);
- ``blokus_moves_committed_total{by}``: actions appended to games, by ``player`` or ``computer``,
  counted once their transaction commits (a ``post_save`` of ``Action``: every write path appends
  one, so no service needs a hook);
- ``blokus_computer_wait_seconds``: for each computer action, the time since the game's previous
  action, whose commit queued the computer's task: the wait from queue to move;
- ``blokus_celery_queue_length``: tasks waiting in the default queue on the broker, read at each
  scrape (absent when the broker is not Redis);
- ``blokus_websockets_open{socket}``: websockets open now (``game`` pages, ``user`` channels);
- ``blokus_emails_sent_total{task}``: emails handed to the mail server (the email tasks' "sent").

Several processes (gunicorn's workers, daphne, the Celery workers) count apart. Give them all one
empty directory in ``PROMETHEUS_MULTIPROC_DIR`` (emptied before they start) and any web process
answers for all of them (prometheus-client's multiprocess mode); without it, a scrape sees the
web process that answers it only.
"""

from __future__ import annotations

import logging
import os
import time

from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)

REQUEST_SECONDS = Histogram(
    "blokus_http_request_duration_seconds",
    "Time Django took to answer a request, by URL name",
    ["view", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter("blokus_moves_committed", "Actions appended to games, once committed", ["by"])
COMPUTER_WAIT = Histogram(
    "blokus_computer_wait_seconds",
    "From the commit that queued the computer's turn to the computer's action",
    buckets=(0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300, 600),
)
WEBSOCKETS = Gauge(
    "blokus_websockets_open", "Websockets open now", ["socket"], multiprocess_mode="livesum"
)
EMAILS = Counter("blokus_emails_sent", "Emails handed to the mail server", ["task"])
EMAIL_TASKS = {"send_turn_email", "send_invite_email", "send_digest"}


# -- counting ------------------------------------------------------------------------------------


class RequestMetricsMiddleware:
    """Times each request that reaches Django's URLs (right after WhiteNoise, config.settings)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        view = (match.view_name or "unnamed") if match is not None else "unmatched"
        REQUEST_SECONDS.labels(view=view, method=request.method).observe(
            time.perf_counter() - started
        )
        return response


def action_saved(sender, instance, created, **kwargs) -> None:
    """``post_save`` of ``games.models.Action``: count it, and the computer's wait, on commit."""
    if not created:
        return
    by = "computer" if instance.by_ai else "player"
    waited = _computer_wait(instance) if instance.by_ai else None

    def count():
        MOVES.labels(by=by).inc()
        if waited is not None:
            COMPUTER_WAIT.observe(waited)

    transaction.on_commit(count, robust=True)


def _computer_wait(action) -> float | None:
    from games.models import Action

    previous = (
        Action.objects.filter(game_id=action.game_id, ply=action.ply - 1)
        .values_list("created_at", flat=True)
        .first()
    )
    if previous is None or action.created_at is None:
        return None
    return max((action.created_at - previous).total_seconds(), 0.0)


def websocket_opened(socket: str) -> None:
    WEBSOCKETS.labels(socket=socket).inc()


def websocket_closed(socket: str) -> None:
    WEBSOCKETS.labels(socket=socket).dec()


def task_succeeded(sender=None, result=None, **kwargs) -> None:
    """Celery's ``task_success``: an email task that answered "sent" sent one email."""
    name = getattr(sender, "name", "").rsplit(".", 1)[-1]
    if name in EMAIL_TASKS and result == "sent":
        EMAILS.labels(task=name).inc()


def connect() -> None:
    """Hook the counters up (games.apps.GamesConfig.ready)."""
    from celery.signals import task_success
    from django.db.models.signals import post_save

    from games.models import Action

    post_save.connect(action_saved, sender=Action, dispatch_uid="metrics-action")
    task_success.connect(task_succeeded, dispatch_uid="metrics-email", weak=False)


# -- reading -------------------------------------------------------------------------------------


class QueueLength:
    """The Celery queue's length on a Redis broker, read when scraped."""

    def collect(self):
        url = settings.CELERY_BROKER_URL
        if not url.startswith(("redis://", "rediss://", "unix://")):
            return
        import redis

        family = GaugeMetricFamily(
            "blokus_celery_queue_length", "Tasks waiting in the Celery queue", labels=["queue"]
        )
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            family.add_metric([queue], client.llen(queue))
        except redis.RedisError as exc:
            logger.warning("metrics: the broker did not answer: %s", exc)
            return
        finally:
            client.close()
        yield family


def registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
        return collected
    return REGISTRY


@never_cache
@require_GET
def metrics_view(request):
    from games.health import monitor_allowed

    if not monitor_allowed(request):
        raise Http404
    queue = CollectorRegistry()
    queue.register(QueueLength())
    body = generate_latest(registry()) + generate_latest(queue)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
