"""Create the local demo players alice and bob. Safe to run any number of times."""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAMES = ("alice", "bob")
DEMO_PASSWORD = "blokus-demo"


class Command(BaseCommand):
    help = f"Create (or reset) the demo accounts {', '.join(DEMO_USERNAMES)}."

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        for username in DEMO_USERNAMES:
            email = f"{username}@example.com"
            user, created = User.objects.get_or_create(
                username=username, defaults={"display_name": username.capitalize()}
            )
            # Reset the password every time so the printed one is always right.
            user.set_password(DEMO_PASSWORD)
            user.email = email
            user.save(update_fields=["password", "email"])
            # Email verification is mandatory: mark the demo address verified so they can log in.
            EmailAddress.objects.filter(user=user).exclude(email=email).delete()
            EmailAddress.objects.update_or_create(
                user=user, email=email, defaults={"verified": True, "primary": True}
            )
            self.stdout.write(f"{'created' if created else 'exists '} {username}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo accounts: {' / '.join(DEMO_USERNAMES)}, password {DEMO_PASSWORD}"
            )
        )
