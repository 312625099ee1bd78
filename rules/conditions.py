"""Conditions with an optional value and duration (RULES.md §10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.durations import Duration, describe_duration
from rules.text import closest, shorten

if TYPE_CHECKING:
    from rules.combatant import Combatant


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


def condition_label(cond: Condition) -> str:
    """``poisoned 2`` — the name and, if any, its value (RULES.md §10)."""
    return cond.name if cond.value is None else f"{cond.name} {cond.value}"


def add_condition(
    c: Combatant, cond: Condition, *, ends_round: int | None = None
) -> tuple[Combatant, str]:
    """Give *c* a condition; one of the same name (any case) is replaced
    (RULES.md §10).  *ends_round*, when known, goes in the text."""
    name = cond.name.strip()
    if not name:
        raise ValueError("a condition needs a name")
    if cond.duration is not None and cond.duration.rounds_left < 1:
        raise ValueError(f"a condition lasts at least 1 round, not {cond.duration.rounds_left}")
    cond = replace(cond, name=name)
    old = next((x for x in c.conditions if x.name.lower() == name.lower()), None)
    text = f"{c.name} is {condition_label(cond)}{describe_duration(cond.duration, ends_round)}"
    if old is None:
        conditions = (*c.conditions, cond)
    else:
        conditions = tuple(cond if x is old else x for x in c.conditions)
        text += f" (replaces {condition_label(old)})"
    return replace(c, conditions=conditions), text


def remove_condition(c: Combatant, name: str) -> tuple[Combatant, str]:
    """End the condition *name* (any case) on *c* (RULES.md §10); raises
    ``ValueError`` when it is not there."""
    key = name.strip().lower()
    kept = tuple(x for x in c.conditions if x.name.lower() != key)
    if len(kept) == len(c.conditions):
        have = ", ".join(x.name for x in c.conditions) or "none"
        raise ValueError(
            f"{c.name} is not {shorten(name.strip())} (conditions: {shorten(have, 200)})"
        )
    gone = next(x for x in c.conditions if x.name.lower() == key)
    return replace(c, conditions=kept), f"{c.name} is no longer {gone.name}"


#: Condition names a GM commonly gives, offered by completion; any other
#: name is as good (a condition is only a name, RULES.md §10).
KNOWN_CONDITIONS: tuple[str, ...] = (
    "blinded", "charmed", "concentrating", "confused", "dazed", "deafened", "exhausted",
    "frightened", "grabbed", "hidden", "incapacitated", "invisible", "paralyzed", "petrified",
    "poisoned", "prone", "restrained", "sickened", "slowed", "stunned", "unconscious",
)  # fmt: skip


def unknown_condition_warning(name: str, combatants: Iterable[Combatant]) -> str | None:
    """A warning when *name* looks like a misspelled condition: neither a
    common one nor one already in the fight, but close to one of those
    (§10 takes any name, so a GM's own condition such as ``marked`` passes
    quietly; ``frightend`` would otherwise never be found by ``uncond``)."""
    key = name.strip().lower()
    present = {x.name.lower() for c in combatants for x in c.conditions}
    if key in KNOWN_CONDITIONS or key in present:
        return None
    close = closest(key, sorted(present | set(KNOWN_CONDITIONS)), cutoff=0.85)
    return f"{name.strip()!r} is not a common condition; did you mean {close}?" if close else None
