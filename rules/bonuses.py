"""Typed bonuses and their stacking rules, and cover (RULES.md §9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.durations import Duration

#: What a bonus can apply to.
APPLIES_TO = ("al", "checks", "attacks")


@dataclass(frozen=True)
class Bonus:
    """A typed bonus (deflection, dodge, insight, assist, luck, morale, item,
    untyped) of *value* to *applies_to*, with an optional duration (§9)."""

    type: str
    value: int
    applies_to: str = "al"
    duration: Duration | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "value": self.value,
            "applies_to": self.applies_to,
            "duration": None if self.duration is None else self.duration.to_dict(),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bonus:
        return cls(
            str(data["type"]),
            int(data["value"]),
            str(data.get("applies_to", "al")),
            Duration.from_dict(data.get("duration")),
            str(data.get("source", "")),
        )
