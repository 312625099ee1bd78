"""Nothing the players' server does may write over the GM's screen: its log
records (aiohttp's, and asyncio's from its thread) and its loop's errors go
to ``players-view.log`` in the user state directory, or nowhere when that
cannot be written, never to Python's last-resort handler on stderr."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

#: the server's thread: asyncio's records from it are the server's
THREAD_NAME = "players-view"
LOG_FILE = "players-view.log"
#: the loggers that are the server's alone
OWN_LOGGERS = ("aiohttp", "tracker.share")


class _QuietFile(logging.handlers.RotatingFileHandler):
    """A small rotating file whose own failures (disk full) are dropped, not printed."""

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        pass


class _FromServerThread(logging.Filter):
    """On a logger the app shares (asyncio): the server thread's records go to its file."""

    def __init__(self, handler: logging.Handler) -> None:
        super().__init__()
        self.handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        if record.threadName == THREAD_NAME:
            if record.levelno >= logging.WARNING:
                self.handler.handle(record)
            return False
        return True


_handler: logging.Handler | None = None


def log_path() -> Path:
    from tracker.commands.crash import state_dir

    return state_dir() / LOG_FILE


def _make_handler() -> logging.Handler:
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = _QuietFile(
            path, maxBytes=256_000, backupCount=1, encoding="utf-8", delay=True
        )
    except OSError:
        return logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    return handler


def log_file() -> Path | None:
    """The file the server's records go to (None: nowhere)."""
    name = getattr(_handler, "baseFilename", None)
    return None if name is None else Path(name)


def quarantine() -> logging.Logger:
    """Route the server's records to its file (once); the server's logger."""
    global _handler
    if _handler is None:
        _handler = _make_handler()
        _handler.setLevel(logging.WARNING)
        for name in OWN_LOGGERS:
            logger = logging.getLogger(name)
            logger.propagate = False
            logger.addHandler(_handler)
            logger.setLevel(max(logger.level, logging.WARNING))
        logging.getLogger("asyncio").addFilter(_FromServerThread(_handler))
    return logging.getLogger("tracker.share")
