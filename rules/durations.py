"""Durations in rounds that tick at the start or end of a named combatant's
turn (RULES.md §6 temp HP, §9 bonuses, §10 conditions)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Tick = Literal["start", "end"]


@dataclass(frozen=True)
class Duration:
    """``rounds_left`` rounds, counted down at the *tick* (``"start"`` or
    ``"end"``) of the turn of combatant *of* (RULES.md §10)."""

    rounds_left: int
    tick: Tick = "end"
    of: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"rounds_left": self.rounds_left, "tick": self.tick, "of": self.of}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Duration | None:
        if data is None:
            return None
        tick = data.get("tick", "end")
        return cls(int(data["rounds_left"]), "start" if tick == "start" else "end", str(data.get("of", "")))
