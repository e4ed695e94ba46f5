"""The GNOT models, moved here from the ``standings`` app.

They keep their tables (``db_table``), so this migration only declares them in this app's
state (after ``standings.0004`` forgot them): no data is copied.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("events", "0004_formats_move_to_their_apps"),
        ("standings", "0004_gnot_moves_to_its_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='GnotSetup',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('vp_scale', models.CharField(default='wbf-25', max_length=40)),
                        ('whist_vp_scale', models.CharField(blank=True, max_length=40)),
                        ('vp_bands', models.JSONField(blank=True, default=dict)),
                        ('whist_scale_boards', models.PositiveSmallIntegerField(default=8)),
                        ('dko_winner_swiss', models.BooleanField(default=False)),
                        ('event', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='gnot_setup', to='events.event')),
                    ],
                    options={
                        'db_table': 'standings_gnotsetup',
                    },
                ),
                migrations.CreateModel(
                    name='Team',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('team_no', models.PositiveIntegerField()),
                        ('name', models.CharField(max_length=200)),
                        ('players', models.TextField(blank=True)),
                        ('seed', models.PositiveIntegerField(blank=True, null=True)),
                        ('section', models.CharField(blank=True, choices=[('', 'Not seeded'), ('top', 'Top'), ('middle', 'Middle'), ('bottom', 'Bottom')], max_length=8)),
                        ('pool', models.CharField(blank=True, max_length=8)),
                        ('declined', models.BooleanField(default=False)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='teams', to='events.event')),
                    ],
                    options={
                        'db_table': 'standings_team',
                        'ordering': ['event', 'team_no'],
                    },
                ),
                migrations.CreateModel(
                    name='SwissEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('round', models.PositiveSmallIntegerField()),
                        ('entry_score', models.CharField(default='0', max_length=40)),
                        ('entry_rank', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('non_contending', models.BooleanField(default=False)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='swiss_entries', to='events.event')),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='gnot.team')),
                    ],
                    options={
                        'db_table': 'standings_swissentry',
                        'ordering': ['event', 'round', 'entry_rank', 'team__team_no'],
                    },
                ),
                migrations.CreateModel(
                    name='SwissBye',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('round', models.PositiveSmallIntegerField()),
                        ('vps', models.CharField(max_length=40)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='swiss_byes', to='events.event')),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='gnot.team')),
                    ],
                    options={
                        'db_table': 'standings_swissbye',
                        'ordering': ['event', 'round'],
                    },
                ),
                migrations.CreateModel(
                    name='ChoiceRecord',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('session', models.CharField(max_length=8)),
                        ('seq', models.PositiveSmallIntegerField()),
                        ('kind', models.CharField(choices=[('choice', 'Choice of opponents'), ('forfeit', 'Choice forfeited (1.10.6)'), ('appeal_swap', 'Positions swapped after an appeal (1.10.7)')], max_length=12)),
                        ('by_director', models.BooleanField(default=False)),
                        ('by_lot', models.BooleanField(default=False)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='gnot_choices', to='events.event')),
                        ('chooser', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='gnot.team')),
                        ('chosen', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='gnot.team')),
                    ],
                    options={
                        'db_table': 'standings_choicerecord',
                        'ordering': ['event', 'session', 'seq'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('session', models.CharField(max_length=8)),
                        ('round', models.PositiveSmallIntegerField(default=1)),
                        ('stage', models.CharField(blank=True, max_length=8)),
                        ('table', models.PositiveSmallIntegerField()),
                        ('kind', models.CharField(choices=[('match', 'Match'), ('playoff', 'Pool playoff (3.1.1)')], default='match', max_length=8)),
                        ('boards', models.PositiveSmallIntegerField()),
                        ('half', models.CharField(choices=[('first', 'First half'), ('second', 'Second half'), ('full', 'Whole evening')], default='full', max_length=8)),
                        ('final_spot', models.BooleanField(default=False)),
                        ('home_imps', models.IntegerField(blank=True, null=True)),
                        ('away_imps', models.IntegerField(blank=True, null=True)),
                        ('board_nets', models.JSONField(blank=True, default=list)),
                        ('playoffs', models.JSONField(blank=True, default=list)),
                        ('status', models.CharField(choices=[('scheduled', 'To play'), ('played', 'Played'), ('playoff_needed', 'Playoff needed'), ('decided', 'Decided')], default='scheduled', max_length=16)),
                        ('decided_by', models.CharField(blank=True, max_length=20)),
                        ('playoff_boards', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('playoff_clause', models.CharField(blank=True, max_length=40)),
                        ('version', models.PositiveIntegerField(default=1)),
                        ('away', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='gnot.team')),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_matches', to='events.event')),
                        ('home', models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='gnot.team')),
                        ('winner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='gnot.team')),
                    ],
                    options={
                        'db_table': 'standings_teammatch',
                        'ordering': ['event', 'session', 'round', 'table'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamMatchSlot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('session', models.CharField(max_length=8)),
                        ('round', models.PositiveSmallIntegerField()),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.event')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='slots', to='gnot.teammatch')),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='gnot.team')),
                    ],
                    options={
                        'db_table': 'standings_teammatchslot',
                    },
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.UniqueConstraint(fields=('event', 'team_no'), name='team_no_unique'),
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.UniqueConstraint(condition=models.Q(('seed__isnull', False)), fields=('event', 'seed'), name='team_seed_unique'),
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.CheckConstraint(condition=models.Q(('team_no__gte', 1)), name='team_no_positive'),
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.CheckConstraint(condition=models.Q(('seed__isnull', True), ('seed__gte', 1), _connector='OR'), name='team_seed_positive'),
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.CheckConstraint(condition=models.Q(('section__in', ['', 'top', 'middle', 'bottom'])), name='team_section_valid'),
                ),
                migrations.AddConstraint(
                    model_name='swissentry',
                    constraint=models.UniqueConstraint(fields=('event', 'team'), name='swiss_entry_once'),
                ),
                migrations.AddConstraint(
                    model_name='swissentry',
                    constraint=models.CheckConstraint(condition=models.Q(('round__gte', 1)), name='swiss_entry_round_positive'),
                ),
                migrations.AddConstraint(
                    model_name='swissbye',
                    constraint=models.UniqueConstraint(fields=('event', 'round'), name='swiss_bye_once_per_round'),
                ),
                migrations.AddConstraint(
                    model_name='choicerecord',
                    constraint=models.UniqueConstraint(fields=('event', 'session', 'seq'), name='choice_seq_unique'),
                ),
                migrations.AddConstraint(
                    model_name='choicerecord',
                    constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['choice', 'forfeit', 'appeal_swap'])), name='choice_kind_valid'),
                ),
                migrations.AddConstraint(
                    model_name='choicerecord',
                    constraint=models.CheckConstraint(condition=models.Q(('chooser', models.F('chosen')), _negated=True), name='choice_not_self'),
                ),
                migrations.AddConstraint(
                    model_name='choicerecord',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('chosen__isnull', True), ('kind', 'forfeit')), models.Q(models.Q(('kind', 'forfeit'), _negated=True), ('chosen__isnull', False)), _connector='OR'), name='choice_chosen_unless_forfeit'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('home', models.F('away')), _negated=True), name='team_match_not_self'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.UniqueConstraint(fields=('event', 'session', 'round', 'table'), name='team_match_table_unique'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('session__in', ('1', '2', '2a', '2b', '3', '3a', '3b', '4', '4a', '4b', '5', 'swiss'))), name='team_match_session_valid'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['match', 'playoff'])), name='team_match_kind_valid'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('status__in', ['scheduled', 'played', 'playoff_needed', 'decided'])), name='team_match_status_valid'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('half__in', ['first', 'second', 'full'])), name='team_match_half_valid'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('boards__gte', 1)), name='team_match_boards_positive'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('away_imps__isnull', True), ('home_imps__isnull', True)), models.Q(('away_imps__gte', 0), ('home_imps__gte', 0)), _connector='OR'), name='team_match_imps_both_or_none'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('winner__isnull', True), ('winner', models.F('home')), ('winner', models.F('away')), _connector='OR'), name='team_match_winner_played'),
                ),
                migrations.AddConstraint(
                    model_name='teammatch',
                    constraint=models.CheckConstraint(condition=models.Q(('status', 'scheduled'), ('home_imps__isnull', False), _connector='OR'), name='team_match_status_needs_imps'),
                ),
                migrations.AddConstraint(
                    model_name='teammatchslot',
                    constraint=models.UniqueConstraint(fields=('event', 'session', 'round', 'team'), name='team_once_per_session_round'),
                ),
            ],
            database_operations=[],
        ),
    ]
