"""The Cohen Chess and MSO models move to their format apps (formats/cohen, formats/mso).

Their tables stay where they are (the models keep ``db_table``), so this migration only forgets
them from the ``events`` state, and ``cohen.0001`` / ``mso.0001`` declare them again: no data
is copied. The audit entry's link to a multi-player table becomes the MSO app's own
(``mso.TableAuditEntry``): ``mso.0001`` copies the links and runs before this migration, which
then drops the column.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0003_audit_multi_game"),
    ]

    operations = [
        migrations.RemoveField(model_name="auditentry", name="multi_game"),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="multigamescore", name="game"),
                migrations.RemoveField(model_name="multigamescore", name="player"),
                migrations.RemoveField(model_name="multigamescore", name="round"),
                migrations.RemoveField(model_name="multigame", name="round"),
                migrations.DeleteModel(name="CohenStage"),
                migrations.DeleteModel(name="MultiGame"),
                migrations.DeleteModel(name="MultiGameScore"),
            ],
            database_operations=[],
        ),
    ]
