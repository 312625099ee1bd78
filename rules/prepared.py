"""Prepared encounters: a TOML file a GM writes before the session.

Format (see ``examples/goblin-ambush.toml`` and the README)::

    ruleset = "core"                 # optional: core | forge | cinematic
    [options]                        # optional single-option overrides
    resistance = "subtract"

    [[combatant]]
    name = "Goblin"
    count = 4                        # Goblin 1 … Goblin 4
    hp = "2d6"                       # a number or dice (rolled)
    al = 13
    bonus = 2                        # flat initiative modifier, or:
    abilities = { dex = 14, per = 10, wis = 8, con = 12, luck = 10 }
    athletics = 2
    immunities = ["poison"]
    resistances = { fire = 5 }
    weaknesses = ["cold"]
    susceptibilities = ["radiant"]
    notes = "Flees below 3 HP."
    player = false
    init = 15                        # a fixed initiative (not rolled)

:func:`parse_prepared` validates the text and returns plain dicts; every
mistake raises :class:`PreparedError` naming the combatant and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from rules.abilities import ABILITIES
from rules.rulesets import RULESETS, RulesetError, ruleset


class PreparedError(ValueError):
    """A prepared-encounter file that cannot be used, with the reason."""


_INT_KEYS = ("count", "al", "init", "bonus", "athletics")
_LIST_KEYS = ("immunities", "weaknesses", "susceptibilities")
_KNOWN = {
    "name",
    "count",
    "player",
    "hp",
    "al",
    "init",
    "bonus",
    "abilities",
    "athletics",
    "immunities",
    "resistances",
    "weaknesses",
    "susceptibilities",
    "notes",
}


@dataclass(frozen=True)
class Prepared:
    """A validated prepared encounter: ruleset name, option overrides and one
    dict per combatant entry (keys as in the file)."""

    ruleset: str = "core"
    options: dict[str, Any] = field(default_factory=dict)
    combatants: tuple[dict[str, Any], ...] = ()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _combatant(index: int, raw: Any) -> dict[str, Any]:
    where = f"combatant #{index}"
    if not isinstance(raw, dict):
        raise PreparedError(f"{where}: expected a table of keys")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise PreparedError(f"{where}: needs a name")
    where = f"combatant {name!r}"
    unknown = sorted(set(raw) - _KNOWN)
    if unknown:
        raise PreparedError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN))})"
        )
    out: dict[str, Any] = {"name": name.strip()}
    for key in _INT_KEYS:
        if key in raw:
            if not _is_int(raw[key]):
                raise PreparedError(f"{where}: {key} must be a whole number")
            out[key] = raw[key]
    if out.get("count", 1) < 1 or out.get("count", 1) > 100:
        raise PreparedError(f"{where}: count must be between 1 and 100")
    if "hp" not in raw:
        raise PreparedError(f'{where}: needs hp (a number, or dice like "2d8+4")')
    if "hp" in raw:
        hp = raw["hp"]
        if _is_int(hp):
            if hp < 1:
                raise PreparedError(f"{where}: hp must be at least 1")
        elif isinstance(hp, str):
            from rules.dice import DiceError, parse

            try:
                parse(hp)
            except DiceError as exc:
                raise PreparedError(f"{where}: hp {hp!r}: {exc}") from None
        else:
            raise PreparedError(f'{where}: hp must be a number or dice like "2d8+4"')
        out["hp"] = hp
    if "player" in raw:
        if not isinstance(raw["player"], bool):
            raise PreparedError(f"{where}: player must be true or false")
        out["player"] = raw["player"]
    if "notes" in raw:
        if not isinstance(raw["notes"], str):
            raise PreparedError(f"{where}: notes must be text")
        out["notes"] = raw["notes"]
    if "abilities" in raw:
        scores = raw["abilities"]
        if not isinstance(scores, dict):
            raise PreparedError(f"{where}: abilities must be a table like {{ dex = 14 }}")
        clean: dict[str, int] = {}
        for key, value in scores.items():
            if key.lower() not in ABILITIES:
                raise PreparedError(
                    f"{where}: unknown ability {key!r} (known: {', '.join(ABILITIES)})"
                )
            if not _is_int(value) or not 1 <= value <= 30:
                raise PreparedError(f"{where}: ability {key} must be a score from 1 to 30")
            clean[key.lower()] = value
        out["abilities"] = clean
    for key in _LIST_KEYS:
        if key in raw:
            tags = raw[key]
            if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
                raise PreparedError(f'{where}: {key} must be a list of tags like ["fire"]')
            out[key] = [t.lower() for t in tags]
    if "resistances" in raw:
        res = raw["resistances"]
        if not isinstance(res, dict) or not all(_is_int(v) and v >= 0 for v in res.values()):
            raise PreparedError(f"{where}: resistances must be a table like {{ fire = 5 }}")
        out["resistances"] = {k.lower(): v for k, v in res.items()}
    return out


def parse_prepared(text: str) -> Prepared:
    """Validate a prepared-encounter TOML text (format in the module doc)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PreparedError(f"not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"ruleset", "options", "combatant", "name"})
    if unknown:
        raise PreparedError(
            f"unknown top-level key {unknown[0]!r} (known: name, ruleset, options, combatant)"
        )
    name = data.get("ruleset", "core")
    if name not in RULESETS:
        raise PreparedError(f"unknown ruleset {name!r} (choose {', '.join(RULESETS)})")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise PreparedError("options must be a table of rule options")
    try:
        ruleset(name, **options)
    except RulesetError as exc:
        raise PreparedError(str(exc)) from None
    raw = data.get("combatant", [])
    if not isinstance(raw, list):
        raise PreparedError("combatants are written as [[combatant]] tables")
    return Prepared(name, dict(options), tuple(_combatant(i + 1, c) for i, c in enumerate(raw)))


def add_actions(prepared: Prepared) -> list[dict[str, Any]]:
    """One engine ``add`` action per combatant entry, so a prepared
    encounter is built through the same logged, undoable actions as a
    hand-typed one."""
    actions = []
    for entry in prepared.combatants:
        action: dict[str, Any] = {"verb": "add"}
        action.update(entry)
        actions.append(action)
    return actions
