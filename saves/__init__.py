"""Persistence of encounters: a TinyDB index plus an append-only journal per
encounter (issue 3, Saves).  See ``saves.store`` for the design."""

from saves.errors import (
    DatabaseLocked,
    DatabaseReadOnly,
    EncounterExists,
    EncounterNotFound,
    SaveError,
    SavePointExists,
    SavePointNotFound,
)
from saves.store import Loaded, Store, Summary, default_db_path

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
