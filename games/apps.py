import atexit

from django.apps import AppConfig


def close_connection_pools() -> None:
    """Close every PostgreSQL connection pool as the process exits.

    Left to the garbage collector at interpreter shutdown, psycopg_pool waits 5 s for each of its
    worker threads to stop, and every ``manage.py`` command that touched the database hung about
    15 s before exiting (gunicorn and Celery workers likewise at each restart). Closing the pool
    first stops its threads at once."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        close_pool = getattr(connection, "close_pool", None)  # PostgreSQL's backend only
        if close_pool is not None:
            close_pool()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        atexit.register(close_connection_pools)
        # Register the Celery tasks: the rest of the app queues them by name (games.jobs).
        from games import metrics
        from games.jobs import tasks  # noqa: F401

        metrics.connect()  # moves committed, emails sent (/metrics/)
