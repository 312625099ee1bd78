"""Persistence of encounters: a TinyDB catalogue, and per encounter an
append-only steps file and a TinyDB state file.  See ``saves.store``."""

from saves.errors import (
    DatabaseLocked,
    DatabaseReadOnly,
    EncounterExists,
    EncounterNotFound,
    SaveError,
    SavePointExists,
    SavePointNotFound,
)
from saves.listing import Summary
from saves.store import Loaded, Store, default_db_path

__all__ = [
    "DatabaseLocked",
    "DatabaseReadOnly",
    "EncounterExists",
    "EncounterNotFound",
    "Loaded",
    "SaveError",
    "SavePointExists",
    "SavePointNotFound",
    "Store",
    "Summary",
    "default_db_path",
]
