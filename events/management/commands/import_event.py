"""``manage.py import_event PATH [--slug SLUG]``: create an event from the JSON exchange format."""

from __future__ import annotations

from events.exchange import event_import_document
from events.management.commands.import_trf import ImportCommand


class Command(ImportCommand):
    help = "Create an event from a JSON exchange document; prints the slug last."
    importer = staticmethod(event_import_document)
