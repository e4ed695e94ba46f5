"""Each rating's K as FIDE's lists publish it (B.02 7.1.2, 8.3.3), beside the rating."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_rating_lists'),
    ]

    operations = [
        migrations.AddField(
            model_name='ratingentry',
            name='blitz_k',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='ratingentry',
            name='rapid_k',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='ratingentry',
            name='standard_k',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='ratingentry',
            constraint=models.CheckConstraint(condition=models.Q(('standard_k__gte', 1), ('standard_k__lte', 40)), name='rating_entry_standard_k_range'),
        ),
        migrations.AddConstraint(
            model_name='ratingentry',
            constraint=models.CheckConstraint(condition=models.Q(('rapid_k__gte', 1), ('rapid_k__lte', 40)), name='rating_entry_rapid_k_range'),
        ),
        migrations.AddConstraint(
            model_name='ratingentry',
            constraint=models.CheckConstraint(condition=models.Q(('blitz_k__gte', 1), ('blitz_k__lte', 40)), name='rating_entry_blitz_k_range'),
        ),
    ]
