"""The saves package's one error hierarchy (issue 3): every problem the
store reports is a :class:`SaveError` whose ``str()`` is one sentence a GM
can act on; the CLI and the UI print it as is."""

from __future__ import annotations

from pathlib import Path


class SaveError(Exception):
    """Base class: something about saving or loading went wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class DatabaseLocked(SaveError):
    """Another process has the database open (lock file ``<db>.lock``)."""

    def __init__(self, pid: int | None, path: Path | str) -> None:
        self.pid = pid
        self.path = Path(path)
        who = f"PID {pid}" if pid is not None else "another process"
        super().__init__(
            f"The database {self.path} is in use by {who}; "
            "close the other combat-tracker first (or use --db for another file)."
        )


class DatabaseReadOnly(SaveError):
    """A write was asked of a store opened with ``read_only=True``."""

    def __init__(self, path: Path | str, doing: str) -> None:
        self.path = Path(path)
        self.doing = doing
        super().__init__(
            f"Cannot {doing}: the database {self.path} was opened read-only "
            "(to look at it while a tracker has it open)."
        )


class EncounterNotFound(SaveError):
    """No saved encounter has that name."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"No saved encounter is named {name!r}.")


class EncounterExists(SaveError):
    """An encounter with that name (ignoring case) is already saved."""

    def __init__(self, name: str, existing: str) -> None:
        self.name = name
        self.existing = existing
        super().__init__(
            f"An encounter named {existing!r} already exists; choose another name than {name!r}."
        )


class SavePointExists(SaveError):
    """A save point with that label (ignoring case) is already kept, and
    replacing it was not asked for."""

    def __init__(self, name: str, label: str, created: str) -> None:
        self.name = name
        self.label = label
        self.created = created
        super().__init__(
            f"Encounter {name!r} already has a save point labelled {label!r} "
            f"(saved {created}); replace it or choose another label."
        )


class SavePointNotFound(SaveError):
    """The encounter has no save point with that label."""

    def __init__(self, name: str, label: str) -> None:
        self.name = name
        self.label = label
        super().__init__(f"Encounter {name!r} has no save point labelled {label!r}.")


class CorruptData(SaveError):
    """Internal: a stored document failed its checksum or its shape check."""


class NewerSchema(SaveError):
    """A stored document was written by a newer version of combat-tracker."""
