"""manage.py password_reset_link USERNAME

Prints a one-time link at which USERNAME sets a new password (valid for three days, until
used), built from SITE_URL; also lifts the account's login lock-out. For a site that sends no
e-mail: the administrator gives the link to the person, by hand. ``manage.py changepassword
USERNAME`` sets a password directly instead."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.links import password_reset_link
from events.errors import UserError


class Command(BaseCommand):
    help = __doc__.split("\n\n")[1]

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            link = password_reset_link(username=options["username"])
        except UserError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(link)
