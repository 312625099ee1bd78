"""Endurance: dash, run, sprint (RULES.md §8, source 003)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Endurance:
    """A combatant's endurance pool and movement state (RULES.md §8).

    ``points`` left of ``max_points`` (CON score + Athletics); ``passive``
    (10 + CON mod + Athletics); ``check_bonus`` (CON mod + Athletics);
    ``active`` maps a movement action (dash/run/sprint) to rounds it stays
    active; ``recovery_rounds_left`` counts down to the return of spent points
    (None when nothing is spent or a movement action was just used).
    """

    points: int
    max_points: int
    passive: int
    check_bonus: int
    active: Mapping[str, int] = field(default_factory=dict)
    recovery_rounds_left: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "max_points": self.max_points,
            "passive": self.passive,
            "check_bonus": self.check_bonus,
            "active": dict(self.active),
            "recovery_rounds_left": self.recovery_rounds_left,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Endurance | None:
        if data is None:
            return None
        rec = data.get("recovery_rounds_left")
        return cls(
            int(data["points"]),
            int(data["max_points"]),
            int(data["passive"]),
            int(data["check_bonus"]),
            {str(k): int(v) for k, v in dict(data.get("active", {})).items()},
            None if rec is None else int(rec),
        )
