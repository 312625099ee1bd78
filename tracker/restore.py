"""Restore a named save point as a new encounter, the original untouched,
for ``restore`` and the resume picker's ``r``: its steps up to the save
point are copied, so undo reaches as far back as it did."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from saves.store import Store


def default_name(name: str, label: str) -> str:
    """``Goblin ambush (before the ogre)``."""
    return f"{name} ({label})"


def restore_save_point(
    store: Store,
    name: str,
    label: str,
    new_name: str | None = None,
    rng: random.Random | None = None,
) -> str:
    """Create *new_name* (default ``NAME (LABEL)``) from save point *label*
    of *name* and return it; ``EncounterExists``, ``EncounterNotFound`` or
    ``SaveError`` create nothing."""
    from rules.engine import Session
    from rules.errors import ActionError
    from saves.errors import EncounterExists, SaveError
    from saves.live import LiveEncounter, summary_of

    new_name = (new_name or default_name(name, label)).strip()
    if store.exists(new_name):
        raise EncounterExists(new_name, new_name)

    point = store.load_save_point(name, label)
    try:
        session = Session.from_dict(point["session"], rng=rng)
        if session.seq != point["seq"]:
            raise ActionError(f"it is at action {session.seq}, its file says {point['seq']}")
    except ActionError as exc:
        raise SaveError(f"The save point {label!r} of {name!r} is damaged ({exc}).") from None
    session.encounter = replace(session.encounter, name=new_name)
    live = LiveEncounter(new_name, session, store, point.get("ui"))
    origin = store.origin(name)
    store.create(
        new_name, origin, live.snapshot(), summary_of(session), history_of=(name, point["seq"])
    )
    return new_name
