"""Print a new VAPID private key for settings.VAPID_PRIVATE_KEY (games.jobs.push)."""

from django.core.management.base import BaseCommand

from games.jobs.push import new_private_key


class Command(BaseCommand):
    help = "Print a new VAPID private key (base64url) for the VAPID_PRIVATE_KEY variable."

    def handle(self, *args, **options):
        self.stdout.write(f"VAPID_PRIVATE_KEY={new_private_key()}")
