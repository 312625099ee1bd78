"""``set T FIELD VALUE``, the GM's direct edit of a combatant: ``hp`` stays
within 0..max_hp (in a batch, checked at its end, so part order does not
matter), and taking it to 0 or up from 0 says "is down" / "is back up" as
damage and healing do (RULES.md §4); CON or athletics rebuild the endurance pool (§8), LUCK the luck
points (§11)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.abilities import ABILITIES
from rules.combatant import Combatant
from rules.damage import down_or_up, set_temp_hp
from rules.durations import Duration
from rules.endurance import endurance_of
from rules.engine.grammar import SET_ALIASES, SET_FIELDS
from rules.engine.values import bounded, check_tags, clears, parse_resistances
from rules.engine.verbs_roster import _check_name, _reposition
from rules.engine.work import Work, call
from rules.errors import ActionError
from rules.luck import luck_points
from rules.text import name_key, possessive
from rules.view_settings import VISIBLE


def _int_value(field: str, value: str, low: int | None = None, high: int | None = None) -> int:
    """The number ``set`` gives *field*, within the language's bounds and
    *low*/*high*."""
    try:
        return bounded(field, value, low, high)
    except ActionError as exc:
        raise ActionError(f"set: {exc}") from None


def set_field(work: Work, a: Mapping[str, Any]) -> None:
    """``set T FIELD VALUE``: the GM edits a combatant directly."""
    name = work.resolve_one(a["targets"], a["verb"])
    field = SET_ALIASES.get(a["field"], a["field"])
    if field not in SET_FIELDS:
        raise ActionError(f"set: unknown field {a['field']!r} (fields: {', '.join(SET_FIELDS)})")
    value = str(a["value"])
    c = work.get(name)
    work.resolved["field"] = field
    if field == "name":
        _rename(work, c, value)
        return
    if field == "initiative":
        new_init = None if clears(value) else _int_value(field, value)
        _reposition(work, replace(c, initiative=new_init))
        work.log(
            name, f"{possessive(name)} initiative is now {'none' if new_init is None else new_init}"
        )
        work.initiative_said.add(name)
        return
    new, shown = _edit(c, field, value, work.batch)
    work.put(new)
    work.log(name, f"{name}: {field} set to {shown}{down_or_up(c, new)}")
    if new.player and new.visibility != VISIBLE:  # players are always shown
        work.put(replace(new, visibility=VISIBLE))
        work.log(name, f"{name} is a player character now: revealed to the players")


def _edit(c: Combatant, field: str, value: str, batch: bool = False) -> tuple[Combatant, str]:
    if field == "hp":
        n = _int_value(field, value, 0)
        if n > c.max_hp and not batch:  # in a batch: checked at its end
            raise ActionError(
                f"set hp: {n} is above max_hp {c.max_hp} (set max_hp first, or both "
                f"on one line: set {shlex.quote(c.name)} max_hp {n}; set {shlex.quote(c.name)} hp {n})"
            )
        return replace(c, hp=n), str(n)
    if field == "max_hp":
        n = _int_value(field, value)
        return replace(c, max_hp=n, hp=min(c.hp, n)), str(n)
    if field in ("al", "init_bonus"):
        changes: dict[str, Any] = {field: _int_value(field, value)}
        return replace(c, **changes), str(changes[field])
    if field == "temp":
        n = _int_value(field, value)
        new, _ = call(set_temp_hp, c, n, c.temp_hp_duration)
        return new, str(n)
    if field == "notes":
        return replace(c, notes=value), repr(value)
    if field == "player":
        flag = value.strip().lower()
        if flag not in ("true", "false", "yes", "no", "1", "0"):
            raise ActionError(f"set player: true or false, not {value!r}")
        on = flag in ("true", "yes", "1")
        return replace(c, player=on), "yes" if on else "no"
    if field == "luck_points":
        if clears(value):
            return replace(c, luck_points=None), "none"
        n = _int_value(field, value)
        return replace(c, luck_points=n), str(n)
    if field == "endurance":
        if c.endurance is None:
            raise ActionError(f"set endurance: {c.name} has no endurance (needs CON and athletics)")
        n = _int_value(field, value, 0, c.endurance.max_points)
        return replace(c, endurance=replace(c.endurance, points=n)), str(n)
    if field == "athletics":
        ath = None if clears(value) else _int_value(field, value)
        return _with_endurance(replace(c, athletics=ath)), "none" if ath is None else str(ath)
    if field in ABILITIES:
        scores = dict(c.abilities)
        if clears(value):
            scores.pop(field, None)
            shown = "none"
        else:
            scores[field] = _int_value(field, value, 1, 30)
            shown = str(scores[field])
        new = replace(c, abilities=scores)
        if field == "con":
            new = _with_endurance(new)
        if field == "luck":
            new = replace(new, luck_points=call(luck_points, scores.get("luck")))
        return new, shown
    return _edit_defenses(c, field, value)


def check_batch_end(work: Work) -> None:
    """End of a batch: no ``hp`` may be left above its ``max_hp``."""
    for c in work.enc.combatants:
        if c.hp > c.max_hp:
            raise ActionError(
                f"set hp: {possessive(c.name)} hp {c.hp} is above its max_hp {c.max_hp} "
                "at the end of the line"
            )


def _with_endurance(c: Combatant) -> Combatant:
    """A fresh endurance pool after CON or athletics changed (§8)."""
    return replace(c, endurance=call(endurance_of, c))


def _edit_defenses(c: Combatant, field: str, value: str) -> tuple[Combatant, str]:
    d = c.defenses
    if field == "resistances":
        table = {} if clears(value) else parse_resistances(value, "set resistances")
        new = replace(d, resistances=table)
        shown = ", ".join(f"{k} {v}" for k, v in table.items()) or "none"
    else:
        tags: frozenset[str] = (
            frozenset()
            if clears(value)
            else frozenset(t.strip().lower() for t in value.split(",") if t.strip())
        )
        check_tags(f"set {field}", len(tags))
        changes: dict[str, Any] = {field: tags}
        new = replace(d, **changes)
        shown = ", ".join(sorted(tags)) or "none"
    return replace(c, defenses=new), shown


def _rename(work: Work, c: Combatant, value: str) -> None:
    new_name = _check_name(value)
    old = c.name
    if new_name == old:
        raise ActionError(f"set name: {old} is already called that")
    if any(name_key(n) == name_key(new_name) and n != old for n in work.names):
        raise ActionError(f"set name: there is already a combatant called {new_name!r}")

    def fix(d: Duration | None) -> Duration | None:
        return replace(d, of=new_name) if d is not None and d.of == old else d

    out = []
    for x in work.enc.combatants:
        y = replace(
            x,
            conditions=tuple(replace(k, duration=fix(k.duration)) for k in x.conditions),
            bonuses=tuple(
                replace(
                    b, duration=fix(b.duration), source=new_name if b.source == old else b.source
                )
                for b in x.bonuses
            ),
            persistent=tuple(
                replace(p, source=new_name if p.source == old else p.source) for p in x.persistent
            ),
            temp_hp_duration=fix(x.temp_hp_duration),
        )
        if x.name == old:
            y = replace(y, name=new_name)
        out.append(y if y != x else x)
    active = work.active_name
    work.set_combatants(out, new_name if active == old else active or None)
    if old in work.enc.delayed:
        work.enc = replace(
            work.enc, delayed=tuple(new_name if n == old else n for n in work.enc.delayed)
        )
    work.log(new_name, f"{old} is now called {new_name}")
