"""The name keys become confusable skeletons without default-ignorable code points
(accounts.names.name_key), longer than the names they come from: every stored key is recomputed."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import name_key

    User = apps.get_model("accounts", "User")
    for user in User.objects.all().iterator():
        User.objects.filter(pk=user.pk).update(
            username_key=name_key(user.username),
            display_key=name_key(user.display_name) if user.display_name else "",
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_user_language"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="display_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=255),
        ),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=255),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
