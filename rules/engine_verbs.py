"""What each verb of the action language does to an encounter.

One function per verb, ``verb(work, action)``: it reads the canonical
record (see ``rules.actions``), changes ``work.enc`` through the rules core
(never doing rules arithmetic itself) and writes log lines.  Any problem
raises ``ActionError`` before the session commits anything.

Decisions documented here (the rules leave them to the tracker):

- Names are unique, case-insensitively, and contain no comma.  ``add Goblin``
  when ``Goblin`` or ``Goblin 1``… exist continues the numbering
  (``Goblin 2`` / ``Goblin 5``); ``count N`` always numbers.
- Placing a combatant (``add`` mid-fight, ``init``) moves only that
  combatant, to just before the first one it sorts ahead of (RULES.md §4
  ties); everyone else keeps the GM's order.  Only ``start`` sorts everyone.
  A combatant added mid-combat without an initiative rolls one, and makes
  the entering-combat Dash check (§8) if it has CON and Athletics.
- ``remove`` of the active combatant logs the removal, then ends its turn
  and passes the turn on: durations counted at the end of its turn tick now
  (a frighten "until the end of the Bard's turn" ends when the Bard leaves
  on its turn, as it would have at ``next``); the removed combatant's own
  persistent damage is not rolled (it has left the fight).  Durations still
  counted on a removed combatant's turns are then re-homed to the bearer's
  own turns (``_orphan_durations``).
- ``delay`` of the active combatant runs its end-of-turn processing first
  (persistent damage, end-of-turn durations: delaying does not dodge them)
  and passes the turn on.  ``return`` puts it right after the active
  combatant, taking the active one's initiative; its turn comes on ``next``.
- ``cinematic T adv|dis`` (§2) is an ``advantage``/``disadvantage`` bonus to
  T's attacks with source ``cinematic``, used up by T's next ``attack``.
  Other advantage/disadvantage bonuses to attacks count on every attack.
- ``attack``: the attacker is the active combatant (none before start); its
  ``attacks`` bonuses stack (§9) onto ``with +N``; the target's effective AL
  includes its AL bonuses and cover (§9); degree per §3; on a success the
  damage is rolled, doubled per the ruleset on a critical success (§5).
- ``damage``/``heal``/``temp`` roll the amount once for all targets (an area
  effect).  ``temp`` with a duration: by default it expires at the start of
  the target's own turn; ``of C`` makes it the end of C's turn (§6).
  ``cond`` and ``bonus`` durations count down at the end of the target's own
  turn unless ``at``/``of`` say otherwise (§10); ``at``/``of`` without
  ``rounds`` mean 1 round.  §10 does not say whether the round a duration
  is granted in counts: it does when the counting turn is still to come
  (a 1-round frighten given during Goblin 1's turn, counted at the end of
  Goblin 3's, ends at the end of Goblin 3's turn that same round), and the
  log line that grants it says when it ends (``… for 1 round (until the end
  of Goblin 3's turn, round 1)``; ``rules.turns.ending_round``).
- ``set`` is the GM's direct edit: ``hp`` stays within 0..max_hp, a lower
  ``max_hp`` lowers ``hp`` (in a batch, ``hp`` is checked against
  ``max_hp`` at the end, so the order of the two parts does not matter); changing CON or athletics rebuilds the
  endurance pool (§8) and changing LUCK the luck points (§11).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.actions import SET_ALIASES, SET_FIELDS, ActionError, bounded
from rules.bonuses import Bonus
from rules.combatant import Combatant
from rules.conditions import Condition
from rules.damage import Defenses
from rules.durations import Duration
from rules.engine_work import Work, call, rules_data, rules_function
from rules.limits import check_roster, check_total
from rules.text import MAX_NAME
from rules.turns import (
    advance,
    begin_turn,
    dash_check,
    end_turn,
    end_turn_leaving,
    ending_round,
    next_turn,
    start_combat,
    step_back,
)

Handler = Callable[[Work, Mapping[str, Any]], None]


# ---------------------------------------------------------------------------
# helpers


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ActionError("a combatant needs a name")
    if "," in name:
        raise ActionError(f"{name!r}: a name cannot contain a comma (commas separate targets)")
    if len(name) > MAX_NAME:
        raise ActionError(f"{name[:20]!r}…: a name is at most {MAX_NAME} characters")
    return name


def _number_suffix(name: str, base: str) -> int | None:
    head, sep, tail = name.rpartition(" ")
    if sep and head.lower() == base.lower() and tail.isascii() and tail.isdigit():
        return int(tail)
    return None


def new_names(existing: Sequence[str], base: str, count: int | None) -> list[str]:
    """The names ``add base count N`` gives beside *existing* (numbering
    continues; each checked).  Public so a prepared file's roster can be
    named, and refused, before anything is built."""
    taken = {n.lower() for n in existing}
    numbers = [k for k in (_number_suffix(n, base) for n in existing) if k is not None]
    if not count or count == 1:
        if base.lower() not in taken and not numbers:
            return [base]
        count = 1
        start = max(numbers, default=1) + 1
    else:
        start = max(numbers, default=0) + 1
        if base.lower() in taken and start == 1:
            start = 2
    names: list[str] = []
    k = start
    while len(names) < count:
        candidate = f"{base} {k}"
        if candidate.lower() not in taken:
            names.append(candidate)
        k += 1
    for n in names:
        _check_name(n)
    return names


def _sorts_before(a: Combatant, b: Combatant) -> bool:
    order = rules_function("abilities", "initiative_order")
    return bool(order((a, b))[0] is a)


def _place(work: Work, c: Combatant) -> None:
    """Insert *c* (not in the tuple) just before the first combatant it
    sorts ahead of; the active combatant stays active."""
    cs = list(work.enc.combatants)
    pos = len(cs)
    for i, other in enumerate(cs):
        if _sorts_before(c, other):
            pos = i
            break
    cs.insert(pos, c)
    work.set_combatants(cs, work.active_name or None)


def _reposition(work: Work, c: Combatant) -> None:
    """Move the combatant now called ``c.name`` to its initiative place."""
    active = work.active_name or None
    cs = [x for x in work.enc.combatants if x.name != c.name]
    work.set_combatants(cs, active if active != c.name else None)
    _place(work, c)
    if active == c.name:
        work.set_combatants(work.enc.combatants, active)


def _duration(
    work: Work, action: Mapping[str, Any], target: str, default_tick: str
) -> Duration | None:
    rounds, at, of = action.get("rounds"), action.get("at"), action.get("of")
    if rounds is None and at is None and of is None:
        return None
    of_name = target
    if of is not None:
        of_name = work.resolve(of)
        work.resolved["of"] = of_name
    tick = at or default_tick
    return Duration(int(rounds or 1), "start" if tick == "start" else "end", of_name)


def _source(work: Work) -> str:
    return work.active_name


def _roll(work: Work, label: str, expr: str) -> Any:
    roll = rules_function("dice", "roll")
    return work.roll(label, roll, expr, work.roller)


# ---------------------------------------------------------------------------
# roster


def add(work: Work, a: Mapping[str, Any]) -> None:
    """``add``: new combatants (RULES.md §4 HP and initiative, §8 endurance,
    §11 luck)."""
    base = _check_name(a["name"])
    names = new_names(work.names, base, a.get("count"))
    check_roster(len(work.enc.combatants), len(names))
    if "hp" not in a:
        raise ActionError("add: hp is needed (a number, or dice like 2d8+2)")
    hit_points = rules_function("abilities", "hit_points")
    endurance_of = rules_function("endurance", "endurance_of")
    luck_points = rules_function("luck", "luck_points")
    abilities = {str(k).lower(): int(v) for k, v in dict(a.get("abilities", {})).items()}
    defenses = Defenses(
        frozenset(a.get("immunities", ())),
        {str(k).lower(): int(v) for k, v in dict(a.get("resistances", {})).items()},
        frozenset(a.get("weaknesses", ())),
        frozenset(a.get("susceptibilities", ())),
    )
    order_key = max((c.order_key for c in work.enc.combatants), default=0)
    mode = "average" if a.get("avg") else "roll"
    roll_initiative = rules_function("abilities", "roll_initiative")
    for name in names:
        order_key += 1
        hp, hp_text = work.roll(f"{name} hit points", hit_points, a["hp"], work.roller, mode)
        c = Combatant(
            name=name,
            max_hp=hp,
            hp=hp,
            al=int(a.get("al", 10)),
            initiative=a.get("init"),
            init_bonus=int(a.get("bonus", 0)),
            abilities=dict(abilities),
            athletics=a.get("athletics"),
            player=bool(a.get("player", False)),
            defenses=defenses,
            notes=str(a.get("notes", "")),
            order_key=order_key,
        )
        c = replace(
            c,
            endurance=call(endurance_of, c),
            luck_points=call(luck_points, abilities.get("luck")),
        )
        parts = [hp_text, f"AL {c.al}"]
        if c.initiative is not None:
            parts.append(f"initiative {c.initiative}")
        if c.endurance is not None:
            parts.append(f"endurance {c.endurance.points}")
        if c.luck_points:
            parts.append(f"{c.luck_points} luck points")
        work.log(name, f"{name} joins the encounter ({', '.join(parts)})")
        if work.enc.started:
            if c.initiative is None:
                r = work.roll(f"{name} initiative (d20)", roll_initiative, c, work.roller)
                work.log(name, r.text)
                c = replace(c, initiative=r.total)
            c = dash_check(work, c, "entering-combat") or c
        _place(work, c)
    work.resolved["name"] = base


def remove(work: Work, a: Mapping[str, Any]) -> None:
    """``remove``: take combatants out of the encounter.  The removal is
    logged first; if the active one goes, its turn ends (durations counted at
    the end of its turn tick, its own persistent damage is not rolled) and
    the next combatant's turn starts."""
    names = work.resolve_all(a["targets"])
    gone = frozenset(names)
    active = work.active_name
    passing = work.enc.started and active in gone
    for name in names:
        work.log(name, f"{name} is removed")
    if passing:
        end_turn_leaving(work, active, gone)
    _orphan_durations(work, gone)
    remaining = [c for c in work.enc.combatants if c.name not in gone]
    if passing and any(c.name not in work.enc.delayed for c in remaining):
        nxt, wrapped = _following_name(work, gone)
        work.set_combatants(remaining, nxt)
        if wrapped:
            work.enc = replace(work.enc, round=work.enc.round + 1)
            work.log("", f"Round {work.enc.round}")
        _drop_delayed(work, gone)
        begin_turn(work)
        return
    if passing:
        work.set_combatants(remaining, None)
        work.enc = replace(work.enc, turn=None)
    else:
        work.set_combatants(remaining, active or None)
    _drop_delayed(work, gone)


def _orphan_durations(work: Work, gone: frozenset[str]) -> None:
    """Durations counted on a removed combatant's turns now count on the
    bearer's own turns (same start/end), so they still run out (§10)."""

    def fix(d: Duration | None, bearer: str) -> Duration | None:
        return replace(d, of=bearer) if d is not None and d.of in gone else d

    changed = False
    out = []
    for x in work.enc.combatants:
        if x.name in gone:
            out.append(x)
            continue
        y = replace(
            x,
            conditions=tuple(replace(k, duration=fix(k.duration, x.name)) for k in x.conditions),
            bonuses=tuple(replace(b, duration=fix(b.duration, x.name)) for b in x.bonuses),
            temp_hp_duration=fix(x.temp_hp_duration, x.name),
        )
        changed = changed or y != x
        out.append(y if y != x else x)
    if changed:
        work.set_combatants(out, work.active_name or None)


def _following_name(work: Work, exclude: frozenset[str]) -> tuple[str, bool]:
    from rules.turns import following

    idx, wrapped = following(work, work.enc.turn, exclude)
    assert idx is not None
    return work.enc.combatants[idx].name, wrapped


def _drop_delayed(work: Work, names: frozenset[str]) -> None:
    if any(n in names for n in work.enc.delayed):
        work.enc = replace(work.enc, delayed=tuple(n for n in work.enc.delayed if n not in names))


def init(work: Work, a: Mapping[str, Any]) -> None:
    """``init T N``: set the initiative and move T to its place (§4); the
    active combatant stays active."""
    (name,) = work.resolve_all(a["targets"])
    c = replace(work.get(name), initiative=int(a["value"]))
    _reposition(work, c)
    work.log(name, f"{name}'s initiative is now {a['value']}")


def order(work: Work, a: Mapping[str, Any]) -> None:
    """``order T up|down``: the GM's manual order (§4 last tie-break): swap
    with the neighbour, adjusting ``order_key``."""
    (name,) = work.resolve_all(a["targets"])
    cs = list(work.enc.combatants)
    i = work.index(name)
    j = i - 1 if a["direction"] == "up" else i + 1
    if not 0 <= j < len(cs):
        where = "first" if a["direction"] == "up" else "last"
        raise ActionError(f"order: {name} is already {where}")
    me, other = cs[i], cs[j]
    if me.order_key != other.order_key:
        mk, ok = other.order_key, me.order_key
    else:
        mk, ok = (
            (other.order_key - 1, other.order_key)
            if j < i
            else (other.order_key + 1, other.order_key)
        )
    cs[i], cs[j] = replace(other, order_key=ok), replace(me, order_key=mk)
    work.set_combatants(cs, work.active_name or None)
    rel = "before" if j < i else "after"
    work.log(name, f"{name} moves {a['direction']}, {rel} {other.name}")


# ---------------------------------------------------------------------------
# set


def _int_value(field: str, value: str, low: int | None = None, high: int | None = None) -> int:
    """The number ``set`` gives *field*, within the language's bounds
    (``rules.actions.bounded``) and *low*/*high* when given."""
    try:
        return bounded(field, value, low, high)
    except ActionError as exc:
        raise ActionError(f"set: {exc}") from None


def _none(value: str) -> bool:
    return value.strip().lower() in ("none", "-", "")


_FIELD_ALIASES = SET_ALIASES


def set_field(work: Work, a: Mapping[str, Any]) -> None:
    """``set T FIELD VALUE``: the GM edits a combatant directly."""
    (name,) = work.resolve_all(a["targets"])
    field = _FIELD_ALIASES.get(a["field"], a["field"])
    if field not in SET_FIELDS:
        raise ActionError(f"set: unknown field {a['field']!r} (fields: {', '.join(SET_FIELDS)})")
    value = str(a["value"])
    c = work.get(name)
    work.resolved["field"] = field
    if field == "name":
        _rename(work, c, value)
        return
    if field == "initiative":
        new_init = None if _none(value) else _int_value(field, value)
        _reposition(work, replace(c, initiative=new_init))
        work.log(name, f"{name}'s initiative is now {'none' if new_init is None else new_init}")
        return
    new, shown = _edit(c, field, value, work.batch)
    work.put(new)
    work.log(name, f"{name}: {field} set to {shown}")


def _edit(c: Combatant, field: str, value: str, batch: bool = False) -> tuple[Combatant, str]:
    if field == "hp":
        n = _int_value(field, value, 0)
        if n > c.max_hp and not batch:  # in a batch: checked at its end
            raise ActionError(
                f"set hp: {n} is above max_hp {c.max_hp} (set max_hp first, or both "
                f"on one line: set {_quoted(c.name)} max_hp {n}; set {_quoted(c.name)} hp {n})"
            )
        return replace(c, hp=n), str(n)
    if field == "max_hp":
        n = _int_value(field, value)
        return replace(c, max_hp=n, hp=min(c.hp, n)), str(n)
    if field == "al":
        n = _int_value(field, value)
        return replace(c, al=n), str(n)
    if field == "temp":
        n = _int_value(field, value)
        set_temp = rules_function("damage", "set_temp_hp")
        new, _ = call(set_temp, c, n, c.temp_hp_duration)
        return new, str(n)
    if field == "init_bonus":
        n = _int_value(field, value)
        return replace(c, init_bonus=n), str(n)
    if field == "notes":
        return replace(c, notes=value), repr(value)
    if field == "player":
        flag = value.strip().lower()
        if flag not in ("true", "false", "yes", "no", "1", "0"):
            raise ActionError(f"set player: true or false, not {value!r}")
        on = flag in ("true", "yes", "1")
        return replace(c, player=on), "yes" if on else "no"
    if field == "luck_points":
        if _none(value):
            return replace(c, luck_points=None), "none"
        n = _int_value(field, value)
        return replace(c, luck_points=n), str(n)
    if field == "endurance":
        if c.endurance is None:
            raise ActionError(f"set endurance: {c.name} has no endurance (needs CON and athletics)")
        n = _int_value(field, value, 0, c.endurance.max_points)
        return replace(c, endurance=replace(c.endurance, points=n)), str(n)
    if field == "athletics":
        ath = None if _none(value) else _int_value(field, value)
        return _with_endurance(replace(c, athletics=ath)), "none" if ath is None else str(ath)
    if field in ("dex", "per", "str", "con", "int", "wis", "cha", "luck"):
        scores = dict(c.abilities)
        if _none(value):
            scores.pop(field, None)
            shown = "none"
        else:
            scores[field] = _int_value(field, value, 1, 30)
            shown = str(scores[field])
        new = replace(c, abilities=scores)
        if field == "con":
            new = _with_endurance(new)
        if field == "luck":
            new = replace(
                new, luck_points=call(rules_function("luck", "luck_points"), scores.get("luck"))
            )
        return new, shown
    return _edit_defenses(c, field, value)


def _quoted(name: str) -> str:
    return shlex.quote(name)


def check_batch_end(work: Work) -> None:
    """End of a batch: what its parts may leave pending must hold (``set
    hp`` above the ``max_hp`` a later part raises)."""
    for c in work.enc.combatants:
        if c.hp > c.max_hp:
            raise ActionError(
                f"set hp: {c.name}'s hp {c.hp} is above its max_hp {c.max_hp} "
                "at the end of the line"
            )


def _with_endurance(c: Combatant) -> Combatant:
    """A fresh endurance pool after CON or athletics changed (§8)."""
    return replace(c, endurance=call(rules_function("endurance", "endurance_of"), c))


def _edit_defenses(c: Combatant, field: str, value: str) -> tuple[Combatant, str]:
    d = c.defenses
    if field == "resistances":
        table: dict[str, int] = {}
        if not _none(value):
            for part in value.split(","):
                tag, sep, amount = part.partition("=")
                tag = tag.strip().lower()
                if not tag:
                    raise ActionError(
                        f"set resistances: empty tag in {value!r} (write fire=5,cold=5)"
                    )
                table[tag] = _int_value(f"resist {tag}", amount) if sep else 0
        new = replace(d, resistances=table)
        shown = ", ".join(f"{k} {v}" for k, v in table.items()) or "none"
    else:
        tags: frozenset[str] = (
            frozenset()
            if _none(value)
            else frozenset(t.strip().lower() for t in value.split(",") if t.strip())
        )
        changes: dict[str, Any] = {field: tags}
        new = replace(d, **changes)
        shown = ", ".join(sorted(tags)) or "none"
    return replace(c, defenses=new), shown


def _rename(work: Work, c: Combatant, value: str) -> None:
    new_name = _check_name(value)
    old = c.name
    if new_name == old:
        raise ActionError(f"set name: {old} is already called that")
    if any(n.lower() == new_name.lower() and n != old for n in work.names):
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


# ---------------------------------------------------------------------------
# hit points


def damage(work: Work, a: Mapping[str, Any]) -> None:
    """``damage``: roll once (§5 step 1, crit per the ruleset), apply to each
    target (§5 steps 2–5)."""
    names = work.resolve_all(a["targets"])
    roll_damage = rules_function("dice", "roll_damage")
    apply_damage = rules_function("damage", "apply_damage")
    crit = bool(a.get("crit"))
    result = work.roll(
        f"damage {a['amount']}",
        roll_damage,
        a["amount"],
        work.roller,
        crit=crit,
        mode=work.ruleset["critical_damage"],
    )
    tags = list(a.get("tags", ()))
    label = f" {' '.join(tags)}" if tags else ""
    if result.dice or crit:  # a plain constant: the damage line says it all
        work.log("GM", f"Damage{label}: {result.render()}")
    for name in names:
        c, res = work.roll("", apply_damage, work.get(name), result.total, tags, work.ruleset)
        work.put(c)
        work.log(name, res.text)


def heal(work: Work, a: Mapping[str, Any]) -> None:
    """``heal``: roll once, heal each target up to its maximum (§5)."""
    names = work.resolve_all(a["targets"])
    do_heal = rules_function("damage", "heal")
    result = _roll(work, f"healing {a['amount']}", a["amount"])
    if result.dice:
        work.log("GM", f"Healing: {result.render()}")
    amount = max(0, result.total)
    for name in names:
        c, res = work.roll("", do_heal, work.get(name), amount)
        work.put(c)
        work.log(name, res.text)


def temp(work: Work, a: Mapping[str, Any]) -> None:
    """``temp``: temporary HP per the ruleset's ``temp_hp`` option (§6)."""
    names = work.resolve_all(a["targets"])
    grant = rules_function("damage", "grant_temp_hp")
    result = _roll(work, f"temp HP {a['amount']}", a["amount"])
    if result.dice:
        work.log("GM", f"Temp HP: {result.render()}")
    amount = max(0, result.total)
    default_tick = "end" if a.get("of") is not None else "start"
    for name in names:
        dur = _duration(work, a, name, default_tick)
        ends = ending_round(work.enc, dur)
        c, text = work.roll("", grant, work.get(name), amount, work.ruleset, dur, ends_round=ends)
        check_total(f"{name}'s temp HP", c.temp_hp)  # temp_hp = add sums them (§6)
        work.put(c)
        work.log(name, text)


def persist(work: Work, a: Mapping[str, Any]) -> None:
    """``persist``: persistent damage (§7), flat DC from the ruleset unless
    ``dc`` is given; the source is the active combatant.  A DC above 20 is
    accepted (the GM may mean it) and the log says a flat check can never
    end it: only ``unpersist`` will."""
    names = work.resolve_all(a["targets"])
    entry_for = rules_function("persistent", "persistent_entry")
    add_persistent = rules_function("persistent", "add_persistent")
    entry = call(
        entry_for, a["dice"], list(a.get("tags", ())), work.ruleset, a.get("dc"), _source(work)
    )
    for name in names:
        c, text = call(add_persistent, work.get(name), entry)
        if entry.dc > 20 and entry in c.persistent:
            text += f" — a flat check (d20) never reaches DC {entry.dc}: it can only be ended by unpersist"
        work.put(c)
        work.log(name, text)


def unpersist(work: Work, a: Mapping[str, Any]) -> None:
    """``unpersist``: the GM ends persistent damage (§7)."""
    _each_target(work, a, rules_function("persistent", "remove_persistent"), a["tag"])


# ---------------------------------------------------------------------------
# conditions and bonuses


def _each_target(work: Work, a: Mapping[str, Any], change: Any, *args: Any) -> None:
    """Apply a rules function ``change(combatant, *args) -> (combatant, text)``
    to every target of the action, logging each text."""
    for name in work.resolve_all(a["targets"]):
        c, text = call(change, work.get(name), *args)
        work.put(c)
        work.log(name, text)


def cond(work: Work, a: Mapping[str, Any]) -> None:
    """``cond``: a condition with optional value and duration (§10)."""
    names = work.resolve_all(a["targets"])
    add_condition = rules_function("conditions", "add_condition")
    for name in names:
        condition = Condition(a["name"], a.get("value"), _duration(work, a, name, "end"))
        ends = ending_round(work.enc, condition.duration)
        c, text = call(add_condition, work.get(name), condition, ends_round=ends)
        work.put(c)
        work.log(name, text)


def uncond(work: Work, a: Mapping[str, Any]) -> None:
    """``uncond``: end a condition (§10)."""
    _each_target(work, a, rules_function("conditions", "remove_condition"), a["name"])


def _bonus_types() -> tuple[str, ...]:
    stacking = rules_data("bonuses", "STACKING")
    dice_types = rules_data("bonuses", "DICE_TYPES")
    return (*stacking, *dice_types)


def bonus(work: Work, a: Mapping[str, Any]) -> None:
    """``bonus``: a typed bonus (§9), stacked by type when it is used."""
    names = work.resolve_all(a["targets"])
    types = _bonus_types()
    kind = a["type"]
    if kind not in types:
        raise ActionError(f"bonus: unknown type {kind!r} (types: {', '.join(types)})")
    applies = a.get("to", "al")
    stacking = rules_data("bonuses", "STACKING")
    if kind in stacking and stacking[kind].al_only and applies != "al":
        raise ActionError(f"bonus: {kind} applies to AL only")
    describe = rules_function("durations", "describe_duration")
    for name in names:
        b = Bonus(kind, int(a["value"]), applies, _duration(work, a, name, "end"), _source(work))
        c = work.get(name)
        work.put(replace(c, bonuses=(*c.bonuses, b)))
        source = f" from {b.source}" if b.source else ""
        until = describe(b.duration, ending_round(work.enc, b.duration))
        work.log(name, f"{name} gets {b.value:+d} {kind} to {applies}{source}{until}")


def unbonus(work: Work, a: Mapping[str, Any]) -> None:
    """``unbonus``: remove every bonus of a type (§9)."""
    names = work.resolve_all(a["targets"])
    for name in names:
        c = work.get(name)
        kept = tuple(b for b in c.bonuses if b.type != a["type"])
        if len(kept) == len(c.bonuses):
            have = ", ".join(sorted({b.type for b in c.bonuses})) or "none"
            raise ActionError(f"unbonus: {name} has no {a['type']} bonus (has: {have})")
        work.put(replace(c, bonuses=kept))
        work.log(name, f"{name} loses its {a['type']} bonus")


def cinematic(work: Work, a: Mapping[str, Any]) -> None:
    """``cinematic T adv|dis``: Cinematic Advantage (§2) for T's next attack."""
    names = work.resolve_all(a["targets"])
    kind = "advantage" if a["mode"] == "adv" else "disadvantage"
    for name in names:
        c = work.get(name)
        b = Bonus(kind, 1, "attacks", None, "cinematic")
        work.put(replace(c, bonuses=(*c.bonuses, b)))
        work.log(name, f"{name} gets cinematic {kind} on its next attack")


# ---------------------------------------------------------------------------
# movement, attacks, rolls, luck


def move(work: Work, a: Mapping[str, Any]) -> None:
    """``move T dash|run|sprint``: an endurance check (§8); a shortfall is
    paid from endurance points unless ``nospend``."""
    names = work.resolve_all(a["targets"])
    endurance_of = rules_function("endurance", "endurance_of")
    endurance_check = rules_function("endurance", "endurance_check")
    movement = a["movement"]
    for name in names:
        c = work.get(name)
        state = c.endurance if c.endurance is not None else call(endurance_of, c)
        if state is None:
            raise ActionError(f"move: {name} has no endurance (needs CON and athletics)")
        face = None
        if state.active.get(movement, 0) <= 0:
            face = work.d20(f"{name} {movement} endurance check (d20)")
        state, check = work.roll("", endurance_check, state, movement, face, not a.get("nospend"))
        work.put(replace(c, endurance=state))
        work.log(name, f"{name} {check.text}")


def preview_move(work: Work, target: str, movement: str, face: int | None) -> Any:
    """The endurance check ``move`` would make, without changing anything."""
    name = work.resolve(target)
    c = work.get(name)
    endurance_of = rules_function("endurance", "endurance_of")
    endurance_check = rules_function("endurance", "endurance_check")
    state = c.endurance if c.endurance is not None else call(endurance_of, c)
    if state is None:
        raise ActionError(f"move: {name} has no endurance (needs CON and athletics)")
    if face is None and state.active.get(movement, 0) <= 0:
        face = work.d20(f"{name} {movement} endurance check (d20)")
    _, check = work.roll("", endurance_check, state, movement, face, False, preview=True)
    return check


def _attack_dice(
    work: Work, attacker: Combatant | None
) -> tuple[int, int, int, list[str], Combatant | None]:
    """The attacker's stacked attack bonus (§9) and advantage bonuses (§2);
    cinematic ones are used up."""
    if attacker is None:
        return 0, 0, 0, [], None
    stack = rules_function("bonuses", "stack")
    result = call(stack, attacker.bonuses, "attacks")
    adv = sum(
        b.value for b in attacker.bonuses if b.type == "advantage" and b.applies_to == "attacks"
    )
    dis = sum(
        b.value for b in attacker.bonuses if b.type == "disadvantage" and b.applies_to == "attacks"
    )
    notes = []
    if result.counted or result.ignored:
        notes.append(f"attack bonuses {result.text}")
    used = tuple(
        b
        for b in attacker.bonuses
        if b.source == "cinematic" and b.type in ("advantage", "disadvantage")
    )
    if used:
        notes.append("cinematic " + ", ".join(b.type for b in used) + " used")
        attacker = replace(attacker, bonuses=tuple(b for b in attacker.bonuses if b not in used))
    return result.total, adv, dis, notes, attacker


def attack(work: Work, a: Mapping[str, Any]) -> None:
    """``attack``: d20 with advantage (§2) vs effective AL with cover (§9),
    degree (§3), damage on a success, crit damage on a critical success (§5)."""
    names = work.resolve_all(a["targets"])
    cover = a.get("cover")
    if cover == "total":
        raise ActionError(f"attack: {', '.join(names)} cannot be targeted (total cover)")
    check = rules_function("checks", "check")
    effective_al = rules_function("bonuses", "effective_al")
    attacker = work.enc.active
    who = attacker.name if attacker is not None else "GM"
    bonus_total, adv_bonus, dis_bonus, notes, used = _attack_dice(work, attacker)
    if used is not None and attacker is not None and used is not attacker:
        work.put(used)
    modifier = int(a.get("modifier", 0)) + bonus_total
    adv = int(a.get("adv", 0)) + adv_bonus
    dis = int(a.get("dis", 0)) + dis_bonus
    for name in names:
        target = work.get(name)
        al, al_text = work.roll("", effective_al, target, work.ruleset, cover)
        result = work.roll(
            f"{who} attack on {name} (d20)",
            check,
            modifier,
            al,
            adv,
            dis,
            work.ruleset,
            work.roller,
        )
        extra = f" [{'; '.join(notes)}]" if notes else ""
        text = result.text.replace(f" vs DC {al}:", f" vs AL {al}:", 1)
        work.log(who, f"{who} attacks {name}: {text} ({al_text}){extra}")
        if a.get("damage") and result.degree.succeeded:
            crit = result.degree.name == "CRITICAL_SUCCESS"
            roll_damage = rules_function("dice", "roll_damage")
            apply_damage = rules_function("damage", "apply_damage")
            dmg = work.roll(
                f"{who} damage {a['damage']}",
                roll_damage,
                a["damage"],
                work.roller,
                crit=crit,
                mode=work.ruleset["critical_damage"],
            )
            tags = list(a.get("tags", ()))
            work.log(who, f"{'Critical hit' if crit else 'Hit'}: {dmg.render()}")
            c, res = work.roll("", apply_damage, work.get(name), dmg.total, tags, work.ruleset)
            work.put(c)
            work.log(name, res.text)


def roll(work: Work, a: Mapping[str, Any]) -> None:
    """``roll``: a free roll into the log, with advantage (§2) and a degree
    against a DC or named DL (§3)."""
    roll_adv = rules_function("checks", "roll_expression_with_advantage")
    d20 = work.roll(
        f"roll {a['expr']}",
        roll_adv,
        a["expr"],
        int(a.get("adv", 0)),
        int(a.get("dis", 0)),
        work.ruleset,
        work.roller,
    )
    dc = a.get("dc")
    dl_text = ""
    if a.get("dl") is not None:
        dc = call(rules_function("checks", "difficulty_level"), a["dl"])
        dl_text = f" ({a['dl'].capitalize()})"
    text = f"Roll: {d20.result.render()}"
    if dc is not None:
        judge = rules_function("checks", "judge")
        result = call(judge, d20, int(dc), work.ruleset)
        text = f"Roll: {result.text}{dl_text}"
    work.log("GM", text)


def luck(work: Work, a: Mapping[str, Any]) -> None:
    """``luck``: spend a luck point and roll the extra d20 (§11)."""
    names = work.resolve_all(a["targets"])
    spend = rules_function("luck", "spend_luck")
    for name in names:
        c, text = call(spend, work.get(name))
        face = work.d20(f"{name} luck d20")
        work.put(c)
        work.log(name, f"{text}: the extra d20 shows {face}")


# ---------------------------------------------------------------------------
# the turn cycle


def delay(work: Work, a: Mapping[str, Any]) -> None:
    """``delay``: out of the order (skipped by next); the active one ends its
    turn first and the turn passes on."""
    names = work.resolve_all(a["targets"])
    for name in names:
        if name in work.enc.delayed:
            raise ActionError(f"delay: {name} is already delaying")
    active = work.active_name
    if work.enc.started and active in names:
        from rules.turns import following

        nxt, _ = following(work, work.enc.turn, frozenset(names))
        if nxt is None:
            raise ActionError("delay: nobody else could take the turn")
        end_turn(work)
        work.enc = replace(work.enc, delayed=(*work.enc.delayed, *names))
        for name in names:
            work.log(name, f"{name} delays")
        advance(work)
        return
    work.enc = replace(work.enc, delayed=(*work.enc.delayed, *names))
    for name in names:
        work.log(name, f"{name} delays")


def return_(work: Work, a: Mapping[str, Any]) -> None:
    """``return``: back into the order right after the active combatant,
    with its initiative; its turn comes on ``next``."""
    names = work.resolve_all(a["targets"])
    for name in names:
        if name not in work.enc.delayed:
            raise ActionError(f"return: {name} is not delaying")
    work.enc = replace(work.enc, delayed=tuple(n for n in work.enc.delayed if n not in names))
    active = work.enc.active
    if not work.enc.started or active is None:
        for name in names:
            work.log(name, f"{name} returns to the order")
        return
    for name in reversed(names):
        c = replace(work.get(name), initiative=active.initiative)
        cs = [x for x in work.enc.combatants if x.name != name]
        pos = next(i for i, x in enumerate(cs) if x.name == active.name) + 1
        cs.insert(pos, c)
        work.set_combatants(cs, active.name)
    for name in names:
        work.log(name, f"{name} returns after {active.name} (initiative {active.initiative})")


def start(work: Work, a: Mapping[str, Any]) -> None:
    start_combat(work)


def next_(work: Work, a: Mapping[str, Any]) -> None:
    next_turn(work)


def prev(work: Work, a: Mapping[str, Any]) -> None:
    step_back(work)


HANDLERS: dict[str, Handler] = {
    "add": add,
    "remove": remove,
    "init": init,
    "order": order,
    "set": set_field,
    "start": start,
    "next": next_,
    "prev": prev,
    "damage": damage,
    "heal": heal,
    "temp": temp,
    "persist": persist,
    "unpersist": unpersist,
    "cond": cond,
    "uncond": uncond,
    "move": move,
    "bonus": bonus,
    "unbonus": unbonus,
    "attack": attack,
    "delay": delay,
    "return": return_,
    "roll": roll,
    "luck": luck,
    "cinematic": cinematic,
}
