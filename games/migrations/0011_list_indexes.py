"""The lists' indexes: a player's history and current games through their seats,
the profile's sums, the games finished since a time."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_seat_level_master"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("status", "finished")),
                fields=["finished_at"],
                name="game_finished_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "game"], name="seat_history_idx"),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("final_place__isnull", True)),
                fields=["user", "game"],
                name="seat_unsettled_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("final_place__isnull", False)),
                fields=["user"],
                include=("kind", "final_place", "final_score"),
                name="seat_results_idx",
            ),
        ),
        # The user's own index last: seat_history_idx (user, game) serves its look-ups.
        migrations.AlterField(
            model_name="seat",
            name="user",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
