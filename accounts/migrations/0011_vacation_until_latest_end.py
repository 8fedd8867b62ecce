"""``User.vacation_until`` keeps the end of the latest vacation once it is over (it was emptied):
the move clocks skip the vacation query for a turn that began after it. Filled here from the
Vacation rows for the players who came back before this migration."""

from django.db import migrations
from django.db.models import Max, OuterRef, Subquery


def latest_end(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Vacation = apps.get_model("accounts", "Vacation")
    last = (
        Vacation.objects.filter(user=OuterRef("pk"))
        .values("user")
        .annotate(end=Max("ends_at"))
        .values("end")
    )
    User.objects.filter(vacation_until__isnull=True, pk__in=Vacation.objects.values("user")).update(
        vacation_until=Subquery(last[:1])
    )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0010_email_when_open")]

    operations = [migrations.RunPython(latest_end, migrations.RunPython.noop)]
