"""Errors a user can fix, as distinct from bugs (house style, after Tabbycat).

Services raise these with a message that can be shown where the user is (a form, a command's
stderr) and that names the line, key or field at fault. Nothing has been written when one is
raised: every service runs in one transaction.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a forbidden action; ``str(error)`` is the message for the user."""


class LinesRefused(UserError):
    """A pasted list with lines that cannot be read: every bad line at once (``lines``, each
    naming its line), and nothing registered."""

    def __init__(self, message: str, lines: list[str]) -> None:
        super().__init__(message)
        self.lines = tuple(lines)


class ImportFailed(UserError):
    """An import was refused; the database is unchanged."""


class ResultConflict(UserError):
    """Someone else changed the game since the form was loaded.

    Carries both values so the conflict screen can show them side by side.
    """

    def __init__(self, message: str, *, current: str, attempted: str, current_version: int):
        super().__init__(message)
        self.current = current
        self.attempted = attempted
        self.current_version = current_version


class RegulationLocked(UserError):
    """The regulation set is locked (round 1 has a result) and the change was not confirmed."""


class EventClosed(UserError):
    """A write to a closed ("Final") event. Raised by the one guard,
    :func:`events.services.event_require_open`, and by the access helpers for a form posted
    to a closed event; the message says how to reopen it."""

    MESSAGE = (
        "This event is closed (final). Its director can reopen it from the event page; the "
        "reopening is recorded in the audit log."
    )

    def __init__(self, message: str = MESSAGE) -> None:
        super().__init__(message)


class DuplicatesToConfirm(UserError):
    """New or edited players who may be registered already (the same name and birth data):
    nothing was written; the director may confirm and submit again (events.duplicates)."""

    def __init__(self, warnings: tuple[str, ...]) -> None:
        super().__init__(
            "Possible duplicates: "
            + "; ".join(warnings)
            + ". Tick the confirmation if they are different people."
        )
        self.warnings = warnings


class PlayerConflict(UserError):
    """Someone else changed or deleted the player since the form was loaded: nothing was
    written; the page shows the player as they are now."""
