"""Rating lists and their players (ratings/models.py).

The search indexes are made by hand, per database (ratings/selectors.py says which query uses
which): on PostgreSQL B-trees in the "C" collation, which Django's index declarations cannot
say in a way SQLite accepts, and the pg_trgm extension with the trigram GIN index on the name
key; on SQLite (``make run``) the same B-trees in its own binary order, and no trigram index.
A PostgreSQL without the pg_trgm extension (the contrib package not installed, as in the
pgserver wheel's server) gets no trigram index either: the word search then reads the list's
rows in turn, slower on a national list, but it answers the same.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


TABLE = "ratings_ratingentry"
PREFIX_INDEXES = {
    "rating_entry_name_prefix": "name_key",
    "rating_entry_fide_id_prefix": "fide_id",
    "rating_entry_national_prefix": "national_id",
}
TRIGRAM_INDEX = "rating_entry_name_trigram"


def _trigrams_available(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'")
        return cursor.fetchone() is not None


def search_indexes_create(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    collation = ' COLLATE "C"' if postgres else ""
    for name, column in PREFIX_INDEXES.items():
        schema_editor.execute(
            f"CREATE INDEX {name} ON {TABLE} (rating_list_id, {column}{collation})"
        )
    if postgres and _trigrams_available(schema_editor):
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE INDEX {TRIGRAM_INDEX} ON {TABLE} USING gin (name_key gin_trgm_ops)"
        )


def search_indexes_drop(apps, schema_editor):
    postgres = schema_editor.connection.vendor == "postgresql"
    for name in [*PREFIX_INDEXES, *([TRIGRAM_INDEX] if postgres else [])]:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='RatingList',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, unique=True)),
                ('published', models.DateField(blank=True, null=True)),
                ('layout', models.CharField(max_length=16)),
                ('standard', models.BooleanField(default=False)),
                ('rapid', models.BooleanField(default=False)),
                ('blitz', models.BooleanField(default=False)),
                ('players', models.PositiveIntegerField(default=0)),
                ('source', models.CharField(blank=True, max_length=200)),
                ('imported_at', models.DateTimeField()),
                ('imported_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['name'],
                'permissions': [('manage_rating_lists', 'Import, replace and delete rating lists')],
            },
        ),
        migrations.CreateModel(
            name='RatingEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('fide_id', models.CharField(blank=True, max_length=15)),
                ('national_id', models.CharField(blank=True, max_length=15)),
                ('name', models.CharField(max_length=200)),
                ('name_key', models.TextField()),
                ('federation', models.CharField(blank=True, max_length=3)),
                ('sex', models.CharField(blank=True, max_length=1)),
                ('title', models.CharField(blank=True, max_length=3)),
                ('birth_year', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('standard', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('rapid', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('blitz', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('inactive', models.BooleanField(default=False)),
                ('rating_list', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='ratings.ratinglist')),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('sex__in', ['', 'm', 'w'])), name='rating_entry_sex'), models.CheckConstraint(condition=models.Q(('standard__lte', 4000)), name='rating_entry_standard_range'), models.CheckConstraint(condition=models.Q(('rapid__lte', 4000)), name='rating_entry_rapid_range'), models.CheckConstraint(condition=models.Q(('blitz__lte', 4000)), name='rating_entry_blitz_range')],
            },
        ),
        migrations.RunPython(search_indexes_create, search_indexes_drop),
    ]
