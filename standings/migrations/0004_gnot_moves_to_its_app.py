"""The GNOT models move to their format app (formats/gnot, migration ``gnot.0001``).

Their tables keep their names (``db_table``): this migration only forgets them from the
``standings`` state; no data is copied or dropped.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('standings', '0003_gnot_event_bands'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='gnotsetup',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='swissbye',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='swissbye',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='swissentry',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='swissentry',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='team',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='teammatch',
                    name='away',
                ),
                migrations.RemoveField(
                    model_name='teammatch',
                    name='home',
                ),
                migrations.RemoveField(
                    model_name='teammatchslot',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='teammatch',
                    name='winner',
                ),
                migrations.RemoveField(
                    model_name='teammatch',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='teammatchslot',
                    name='match',
                ),
                migrations.RemoveField(
                    model_name='teammatchslot',
                    name='event',
                ),
                migrations.DeleteModel(
                    name='ChoiceRecord',
                ),
                migrations.DeleteModel(
                    name='GnotSetup',
                ),
                migrations.DeleteModel(
                    name='SwissBye',
                ),
                migrations.DeleteModel(
                    name='SwissEntry',
                ),
                migrations.DeleteModel(
                    name='Team',
                ),
                migrations.DeleteModel(
                    name='TeamMatch',
                ),
                migrations.DeleteModel(
                    name='TeamMatchSlot',
                ),
            ],
            database_operations=[],
        ),
    ]
