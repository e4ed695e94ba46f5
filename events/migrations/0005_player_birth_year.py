"""A player's year of birth, kept when only the year is known (a rating list publishes only
the year) and filled from the birth date when the date is known (events.services)."""

from django.db import migrations, models
from django.db.models.functions import ExtractYear


def year_from_date(apps, schema_editor):
    Player = apps.get_model("events", "Player")
    Player.objects.exclude(birth_date=None).update(birth_year=ExtractYear("birth_date"))


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0004_formats_move_to_their_apps"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="birth_year",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(year_from_date, migrations.RunPython.noop),
    ]
