"""Where the application's errors are written (``LOGGING`` in ``config/settings.py``;
docs/operations.md, "Logs").

Under gunicorn, a worker's standard error is not gunicorn's error log: ``--error-logfile PATH``
sends gunicorn's own messages to PATH and leaves the workers' stderr where it was (issue 29: the
500s were on the terminal or in the journal, not in the file the operator reads). So the server's
entries go to gunicorn's error logger itself, with its handlers, its format and its level: to
``--error-logfile``, to syslog with ``--log-syslog``, to stderr by default. Without gunicorn
(``runserver``, ``manage.py``, the tests) they go to the process's standard error.
"""

from __future__ import annotations

import copy
import logging

GUNICORN_ERROR_LOG = "gunicorn.error"


class ServerLog(logging.StreamHandler):  # type: ignore[type-arg]
    """gunicorn's error log when gunicorn runs the application, else standard error."""

    def emit(self, record: logging.LogRecord) -> None:
        server = logging.getLogger(GUNICORN_ERROR_LOG)
        if not server.handlers:
            super().emit(record)
            return
        if not server.isEnabledFor(record.levelno):
            return
        # gunicorn's format has no logger name: the entry says it first.
        forwarded = copy.copy(record)
        forwarded.msg, forwarded.args = f"{record.name}: {record.getMessage()}", None
        server.handle(forwarded)
