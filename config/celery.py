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
    """Give the AI's search its threads per decision (``AI_SEARCH_THREADS``) and compile it in
    the main process before the pool forks its children. Imported here, not at the top: this
    module is loaded before Django is set up (the worker's start sets it up)."""
    from django.conf import settings

    from games.ai import mcts

    mcts.configure(threads=settings.AI_SEARCH_THREADS)
    mcts.warm_up()
