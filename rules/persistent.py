"""Persistent damage entries (RULES.md §7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PersistentDamage:
    """Damage that repeats at the end of the affected combatant's turn until a
    flat check against *dc* ends it (RULES.md §7)."""

    dice: str
    tags: tuple[str, ...] = ()
    dc: int = 20
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.dice, "tags": list(self.tags), "dc": self.dc, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PersistentDamage:
        return cls(
            str(data["dice"]),
            tuple(str(t) for t in data.get("tags", ())),
            int(data.get("dc", 20)),
            str(data.get("source", "")),
        )
