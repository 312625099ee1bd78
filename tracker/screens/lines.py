"""How keys, prompts and forms become lines of the action language.

The app does no rules arithmetic: every change is one engine action line
(issue 3, "The action language"), e.g. ``d`` on Goblin 2 with the prompt
``2d6+3 fire`` sends ``damage 'Goblin 2' 2d6+3 fire``.  Several marked
targets are joined with commas inside one quoted argument.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence

from rules.combatant import Combatant

#: Add form: (key, label, placeholder); the key is the action word.
ADD_FIELDS = (
    ("name", "Name", "Goblin"),
    ("count", "Count", "1"),
    ("hp", "HP", "number or dice, e.g. 2d6+2"),
    ("al", "AL", "10"),
    ("init", "Initiative", "fixed total (empty: rolled)"),
    ("bonus", "Init bonus", "flat modifier"),
    ("dex", "DEX", "score"),
    ("per", "PER", "score"),
    ("wis", "WIS", "score"),
    ("con", "CON", "score (endurance)"),
    ("athletics", "Athletics", "bonus (endurance)"),
)

#: Edit form: (set FIELD, label).
EDIT_FIELDS = (
    ("hp", "HP"),
    ("max_hp", "Max HP"),
    ("temp", "Temp HP"),
    ("al", "AL"),
    ("init_bonus", "Init bonus"),
    ("con", "CON"),
    ("athletics", "Athletics"),
    ("notes", "Notes"),
    ("name", "Name"),
)


def targets(names: Sequence[str]) -> str:
    """One argument naming every target: ``'Goblin 1,Goblin 3'``."""
    return shlex.quote(",".join(names))


def on_targets(verb: str, names: Sequence[str], rest: str) -> str:
    """``VERB TARGETS REST`` (``damage 'Goblin 2' 2d6+3 fire``)."""
    return f"{verb} {targets(names)} {rest}".rstrip()


def add_line(values: Mapping[str, str], checks: Mapping[str, bool]) -> str:
    """The ``add`` line for the add form; ValueError names a missing name."""
    name = values.get("name", "").strip()
    if not name:
        raise ValueError("a name is needed (e.g. Goblin; count 4 makes Goblin 1–4)")
    words = ["add", shlex.quote(name)]
    for key, _, _ in ADD_FIELDS[1:]:
        value = values.get(key, "").strip()
        if value:
            words += [key, shlex.quote(value.replace(" ", ""))]
    if checks.get("avg"):
        words.append("avg")
    if checks.get("player"):
        words.append("player")
    return " ".join(words)


def edit_values(c: Combatant) -> dict[str, str]:
    """The edit form's starting values for *c*."""
    con = c.abilities.get("con")
    return {
        "hp": str(c.hp),
        "max_hp": str(c.max_hp),
        "temp": str(c.temp_hp),
        "al": str(c.al),
        "init_bonus": str(c.init_bonus),
        "con": "" if con is None else str(con),
        "athletics": "" if c.athletics is None else str(c.athletics),
        "notes": c.notes,
        "name": c.name,
    }


def edit_lines(c: Combatant, values: Mapping[str, str]) -> list[str]:
    """One ``set`` line per changed field (the rename last, so the others
    still find the combatant by its old name)."""
    before = edit_values(c)
    lines = []
    for key, _ in EDIT_FIELDS:
        value = values.get(key, "").strip()
        if value != before[key] and (value or key == "notes"):
            lines.append(f"set {shlex.quote(c.name)} {key} {shlex.quote(value)}")
    return lines


def move_line(name: str, movement: str, face: int | None, spend: bool) -> str:
    """``move T dash|run|sprint [roll N] [nospend]`` (RULES.md §8)."""
    line = f"move {shlex.quote(name)} {movement}"
    if face is not None:
        line += f" roll {face}"
    if not spend:
        line += " nospend"
    return line
