"""Damage, healing and temporary hit points (RULES.md §5, §6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Defenses:
    """What a combatant is immune, resistant (tag → value), weak (×2) or
    susceptible (×1.5) to; the tag ``all`` matches any damage (RULES.md §5)."""

    immunities: frozenset[str] = frozenset()
    resistances: Mapping[str, int] = field(default_factory=dict)
    weaknesses: frozenset[str] = frozenset()
    susceptibilities: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        return {
            "immunities": sorted(self.immunities),
            "resistances": dict(self.resistances),
            "weaknesses": sorted(self.weaknesses),
            "susceptibilities": sorted(self.susceptibilities),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Defenses:
        data = data or {}
        return cls(
            frozenset(str(t).lower() for t in data.get("immunities", ())),
            {str(k).lower(): int(v) for k, v in dict(data.get("resistances", {})).items()},
            frozenset(str(t).lower() for t in data.get("weaknesses", ())),
            frozenset(str(t).lower() for t in data.get("susceptibilities", ())),
        )
