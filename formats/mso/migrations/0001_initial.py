"""The MSO models move here from the ``events`` app (formats/mso).

MultiGame and MultiGameScore keep their tables (``db_table``), so they are only declared in this
app's state: no data is copied. The link from an audit entry to the table whose scores it changed
becomes this app's own (``TableAuditEntry``): the links are copied from the audit entries'
``multi_game`` column before ``events.0004`` drops it (``run_before``).
"""

import django.db.models.deletion
from django.db import migrations, models


def copy_table_links(apps, schema_editor):
    AuditEntry = apps.get_model("events", "AuditEntry")
    TableAuditEntry = apps.get_model("mso", "TableAuditEntry")
    TableAuditEntry.objects.bulk_create(
        TableAuditEntry(entry_id=entry_id, game_id=game_id)
        for entry_id, game_id in AuditEntry.objects.exclude(multi_game=None).values_list(
            "id", "multi_game_id"
        )
    )


def copy_links_back(apps, schema_editor):
    AuditEntry = apps.get_model("events", "AuditEntry")
    TableAuditEntry = apps.get_model("mso", "TableAuditEntry")
    for link in TableAuditEntry.objects.all():
        AuditEntry.objects.filter(pk=link.entry_id).update(multi_game_id=link.game_id)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("events", "0003_audit_multi_game"),
    ]
    run_before = [
        ("events", "0004_formats_move_to_their_apps"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='MultiGame',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('board', models.PositiveSmallIntegerField()),
                        ('version', models.PositiveIntegerField(default=1)),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='multi_games', to='events.round')),
                    ],
                    options={
                        'db_table': 'events_multigame',
                        'ordering': ['round', 'board'],
                    },
                ),
                migrations.CreateModel(
                    name='MultiGameScore',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField()),
                        ('score', models.DecimalField(blank=True, decimal_places=4, max_digits=14, null=True)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='mso.multigame')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.player')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.round')),
                    ],
                    options={
                        'db_table': 'events_multigamescore',
                        'ordering': ['game', 'seat'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='multigame',
                    constraint=models.UniqueConstraint(fields=('round', 'board'), name='multi_game_board_unique'),
                ),
                migrations.AddConstraint(
                    model_name='multigame',
                    constraint=models.CheckConstraint(condition=models.Q(('board__gte', 1)), name='multi_game_board_positive'),
                ),
                migrations.AddConstraint(
                    model_name='multigamescore',
                    constraint=models.UniqueConstraint(fields=('round', 'player'), name='multi_player_once_per_round'),
                ),
                migrations.AddConstraint(
                    model_name='multigamescore',
                    constraint=models.UniqueConstraint(fields=('game', 'seat'), name='multi_seat_unique'),
                ),
                migrations.AddConstraint(
                    model_name='multigamescore',
                    constraint=models.CheckConstraint(condition=models.Q(('seat__gte', 1)), name='multi_seat_positive'),
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name='TableAuditEntry',
            fields=[
                ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='mso_table', serialize=False, to='events.auditentry')),
                ('game', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='mso.multigame')),
            ],
        ),
        migrations.RunPython(copy_table_links, copy_links_back),
    ]
