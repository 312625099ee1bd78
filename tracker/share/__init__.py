"""The players' view, served from inside the app: a read-only page of the
fight for the phones, tablets or TV at the table (issue 12).  Nothing here
imports aiohttp or segno at import time; they load when sharing starts."""

from __future__ import annotations

from collections.abc import Mapping

#: the encounter's UI state entry (``LiveEncounter.set_ui_state``)
UI_KEY = "players_view"


def kept_on(value: object) -> bool:
    """Whether the kept state (the encounter's *UI_KEY* entry) says sharing
    was on; read here, so resuming a fight that was never shared imports
    nothing of the players' view."""
    return isinstance(value, Mapping) and value.get("on") is True
