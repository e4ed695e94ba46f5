"""The Cohen Chess stage model, moved here from the ``events`` app.

It keeps its table (``db_table``), so this migration only declares it in this app's state
(after ``events.0004`` forgot it): no data is copied.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('events', '0004_formats_move_to_their_apps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CohenStage',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(choices=[('first_round', 'First round (pools)'), ('elite_eight', 'Elite Eight'), ('final_four', 'Final Four'), ('consolation_first_round', 'Consolation after the first round'), ('consolation_elite_eight', 'Consolation after the Elite Eight'), ('small_field', 'Round robin (7 or fewer players)'), ('small_consolation', 'Consolation (7 or fewer players)')], max_length=32)),
                        ('pools', models.JSONField()),
                        ('first_round', models.PositiveSmallIntegerField()),
                        ('slots', models.PositiveSmallIntegerField()),
                        ('status', models.CharField(choices=[('playing', 'Playing'), ('advanced', 'Advanced')], default='playing', max_length=16)),
                        ('advanced', models.JSONField(blank=True, null=True)),
                        ('decisions', models.JSONField(blank=True, default=list)),
                        ('lot_order', models.JSONField(blank=True, null=True)),
                        ('lot_source', models.CharField(blank=True, max_length=16)),
                        ('advanced_at', models.DateTimeField(blank=True, null=True)),
                        ('advanced_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cohen_stages', to='events.event')),
                    ],
                    options={
                        'db_table': 'events_cohenstage',
                        'ordering': ['event', 'first_round', 'id'],
                        'constraints': [models.UniqueConstraint(fields=('event', 'name'), name='cohen_stage_once_per_event'), models.CheckConstraint(condition=models.Q(('name__in', ['first_round', 'elite_eight', 'final_four', 'consolation_first_round', 'consolation_elite_eight', 'small_field', 'small_consolation'])), name='cohen_stage_name_valid'), models.CheckConstraint(condition=models.Q(('status__in', ['playing', 'advanced'])), name='cohen_stage_status_valid'), models.CheckConstraint(condition=models.Q(('first_round__gte', 1)), name='cohen_stage_first_round_positive'), models.CheckConstraint(condition=models.Q(models.Q(('advanced__isnull', True), ('status', 'playing')), models.Q(('advanced__isnull', False), ('status', 'advanced')), _connector='OR'), name='cohen_stage_advanced_when_advanced')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
