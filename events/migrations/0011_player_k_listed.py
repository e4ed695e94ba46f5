"""The K the rating list gives a player (B.02 7.1.2, 8.3.3), carried when registered from it."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0010_game_colourless'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='k_listed',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('k_listed__gte', 1), ('k_listed__lte', 40)), name='player_k_listed_range'),
        ),
    ]
