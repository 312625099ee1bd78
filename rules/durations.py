"""Durations in rounds that tick at the start or end of a named combatant's
turn (RULES.md §6 temp HP, §9 bonuses, §10 conditions)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules.text import possessive

if TYPE_CHECKING:
    from rules.combatant import Combatant

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
        return cls(
            int(data["rounds_left"]), "start" if tick == "start" else "end", str(data.get("of", ""))
        )


def describe_duration(duration: Duration | None, ends_round: int | None = None) -> str:
    """`` for 2 rounds (counts down at the end of Ogre's turn)``, or ``""``
    (RULES.md §10).  With *ends_round* it says when it ends: `` for 1 round
    (until the end of Goblin 3's turn, round 1)``."""
    if duration is None:
        return ""
    n = duration.rounds_left
    text = f" for {n} round{'' if n == 1 else 's'}"
    if duration.of and ends_round is not None:
        text += (
            f" (until the {duration.tick} of {possessive(duration.of)} turn, round {ends_round})"
        )
    elif duration.of:
        text += f" (counts down at the {duration.tick} of {possessive(duration.of)} turn)"
    return text


def _count_down(duration: Duration | None, whose: str, when: str) -> tuple[Duration | None, bool]:
    """(new duration, ended) after one tick; untouched if it is not this tick."""
    if duration is None or duration.of != whose or duration.tick != when:
        return duration, False
    left = duration.rounds_left - 1
    if left <= 0:
        return None, True
    return replace(duration, rounds_left=left), False


def tick_durations(
    combatants: Iterable[Combatant], whose: str, when: str
) -> tuple[tuple[Combatant, ...], list[str]]:
    """Count down the conditions, bonuses and temp-HP pools tied to the *when*
    (``"start"``/``"end"``) of *whose* turn (RULES.md §6, §9, §10); at 0 they
    end and a line says so.  Combatants come back in order, the untouched
    ones identical."""
    if when not in ("start", "end"):
        raise ValueError(f"a duration ticks at the 'start' or 'end' of a turn, not {when!r}")
    out: list[Combatant] = []
    lines: list[str] = []
    for c in combatants:
        if not c.conditions and not c.bonuses and c.temp_hp_duration is None:
            out.append(c)  # nothing of it counts down
            continue
        conditions = []
        for cond in c.conditions:
            dur, ended = _count_down(cond.duration, whose, when)
            if ended:
                lines.append(f"{c.name} is no longer {cond.name}")
            else:
                conditions.append(replace(cond, duration=dur))
        bonuses = []
        for bonus in c.bonuses:
            dur, ended = _count_down(bonus.duration, whose, when)
            if ended:
                to = "AL" if bonus.applies_to == "al" else bonus.applies_to
                label = f"{bonus.value:+d} {bonus.type} to {to}"
                source = f" ({bonus.source})" if bonus.source else ""
                lines.append(f"{c.name} loses {label}{source}")
            else:
                bonuses.append(replace(bonus, duration=dur))
        temp_dur, temp_ended = _count_down(c.temp_hp_duration, whose, when)
        new = replace(c, conditions=tuple(conditions), bonuses=tuple(bonuses))
        if temp_ended:
            if c.temp_hp:
                lines.append(f"{possessive(c.name)} {c.temp_hp} temp HP expire")
            new = replace(new, temp_hp=0, temp_hp_duration=None)
        else:
            new = replace(new, temp_hp_duration=temp_dur)
        out.append(new if new != c else c)
    return tuple(out), lines
