"""The Celery app. Settings come from Django's, under the CELERY_ prefix."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("blokus_shuffle")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_up_the_ai(**kwargs):
    """Compile the AI's search in the main process before the pool forks its children."""
    from games.ai import mcts

    mcts.warm_up()
