"""The tracker's keys as Textual bindings and as the tables the footer, the
help screen, the palette and the keymap checks read, all from
:mod:`tracker.keys`, so they never disagree with what the keys do."""

from __future__ import annotations

from textual.binding import BindingType

from tracker.keys import Key
from tracker.keys.dialogs import (
    HELP_KEYS,
    LINE_KEYS,
    MOVEMENT_KEYS,
    PICKER_KEYS,
    SAVES_KEYS,
    SHARE_KEYS,
)
from tracker.keys.encounter import ENCOUNTER_KEYS

__all__ = [
    "ENCOUNTER_KEYS",
    "HELP_KEYS",
    "LINE_KEYS",
    "MOVEMENT_KEYS",
    "PICKER_KEYS",
    "SAVES_KEYS",
    "SHARE_KEYS",
    "Key",
    "bindings",
    "key_ids",
    "key_tables",
    "wide_ids",
]


def bindings(keys: tuple[Key, ...]) -> list[BindingType]:
    """Textual bindings for a table of keys (for a class's ``BINDINGS``)."""
    return [k.binding() for k in keys]


def wide_ids() -> set[str]:
    """Ids of keys the footer also shows when there is room."""
    return {k.id for k in ENCOUNTER_KEYS + PICKER_KEYS + MOVEMENT_KEYS if k.wide}


def key_tables() -> list[list[tuple[str, str]]]:
    """``(id, default keys)`` per screen: a key may mean one thing per screen."""
    tables = (ENCOUNTER_KEYS, PICKER_KEYS, MOVEMENT_KEYS, SAVES_KEYS, SHARE_KEYS, HELP_KEYS)
    return [[(k.id, k.key) for k in t] for t in tables]


def key_ids() -> set[str]:
    """Every rebindable id (the keymap file is checked against these)."""
    tables = (
        ENCOUNTER_KEYS,
        PICKER_KEYS,
        LINE_KEYS,
        MOVEMENT_KEYS,
        SAVES_KEYS,
        SHARE_KEYS,
        HELP_KEYS,
    )
    return {k.id for table in tables for k in table}
