"""Conditions with an optional value and duration (RULES.md §10)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.durations import Duration


@dataclass(frozen=True)
class Condition:
    """A named condition (``poisoned``), an optional value (stage 2) and an
    optional duration (RULES.md §10)."""

    name: str
    value: int | None = None
    duration: Duration | None = None

    @property
    def rounds_left(self) -> int | None:
        return None if self.duration is None else self.duration.rounds_left

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "duration": None if self.duration is None else self.duration.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Condition:
        value = data.get("value")
        return cls(
            str(data["name"]),
            None if value is None else int(value),
            Duration.from_dict(data.get("duration")),
        )
