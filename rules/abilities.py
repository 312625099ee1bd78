"""Ability scores, initiative and hit points (RULES.md §4, source 003)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from rules.combatant import Combatant

#: The eight ability scores, by their short keys in ``Combatant.abilities`` (§4).
ABILITIES: tuple[str, ...] = ("dex", "per", "str", "con", "int", "wis", "cha", "luck")

#: Abilities whose modifiers add to initiative (003: Dexterous, Perceptive and
#: Instinctive Initiative).
INITIATIVE_ABILITIES: tuple[str, ...] = ("dex", "per", "wis")

HP_MODES = ("roll", "average")


def modifier(score: int) -> int:
    """The ability modifier ``floor((score - 10) / 2)`` (RULES.md §4;
    003's table: 1 → −5, 10 → 0, 30 → +10)."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise ValueError(f"an ability score must be a whole number, not {score!r}")
    return (score - 10) // 2


def check_face(face: int, what: str = "a d20 face") -> None:
    """Refuse a typed d20 *face* that is not a whole number from 1 to 20."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 20:
        raise ValueError(f"{what} is a whole number from 1 to 20, not {face!r}")


def initiative_modifier(c: Combatant) -> int:
    """DEX + PER + WIS modifiers (a missing score counts 0) plus the flat
    ``init_bonus`` (RULES.md §4)."""
    total = c.init_bonus
    for key in INITIATIVE_ABILITIES:
        score = c.abilities.get(key)
        if score is not None:
            total += modifier(score)
    return total


class InitiativeRoll(NamedTuple):
    """One initiative roll (RULES.md §4)."""

    total: int
    face: int
    modifier: int
    text: str


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"- {-n}"


def roll_initiative(c: Combatant, rng: random.Random, face: int | None = None) -> InitiativeRoll:
    """Roll ``d20 + initiative_modifier(c)`` (RULES.md §4); *face* is a d20
    rolled at the table, else *rng* rolls."""
    if face is None:
        face = rng.randint(1, 20)
    check_face(face)
    mod = initiative_modifier(c)
    total = face + mod
    text = f"{c.name} rolls initiative: d20 ({face}) {_signed(mod)} = {total}"
    return InitiativeRoll(total, face, mod, text)


def initiative_order(combatants: Iterable[Combatant]) -> tuple[Combatant, ...]:
    """Sort by initiative, highest first, none last (RULES.md §4).  Ties:
    higher modifier, higher DEX (none loses), players first, then
    ``order_key``; the sort is stable."""

    def key(c: Combatant) -> tuple[bool, int, int, bool, int, bool, int]:
        dex = c.abilities.get("dex")
        return (
            c.initiative is None,
            -(c.initiative or 0),
            -initiative_modifier(c),
            dex is None,
            -(dex or 0),
            not c.player,
            c.order_key,
        )

    return tuple(sorted(combatants, key=key))


def hit_points(
    spec: int | str,
    rng: random.Random,
    mode: str = "roll",
    faces: Sequence[int] | None = None,
    *,
    alike: bool = False,
) -> tuple[int, str]:
    """Starting hit points, at least 1 (RULES.md §4): a number (below 1
    refused), or a dice expression rolled (with optional *faces*) or, by
    *mode*, averaged rounded down.  The text says so: ``HP 12``, ``HP 2d8
    average 9``, ``HP 2d8 (3, 2) = 5``; *alike* (one of several added
    alike, the expression said once for all) leaves a roll's expression
    out, ``(3, 2) = 5``."""
    if mode not in HP_MODES:
        raise ValueError(f"hit point mode is 'roll' or 'average', not {mode!r}")
    if isinstance(spec, str) and re.fullmatch(r"\s*[+-]?\d+\s*", spec):
        spec = int(spec)
    if isinstance(spec, bool):
        raise ValueError(f"hit points are a number or a dice expression, not {spec!r}")
    if isinstance(spec, int):
        if spec < 1:
            raise ValueError(f"hit points must be at least 1, not {spec}")
        return spec, f"HP {spec}"
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"hit points are a number or a dice expression, not {spec!r}")

    from rules.dice import average, roll

    if mode == "average":
        value = max(1, int(average(spec)))
        return value, f"HP {spec} average {value}"
    result = roll(spec, rng, faces=faces)
    value = max(1, result.total)
    floor_note = "" if value == result.total else " → at least 1"
    return value, f"{'' if alike else 'HP '}{result.render(not alike)}{floor_note}"
