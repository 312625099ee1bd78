"""The verbs that change hit points, conditions and bonuses: ``damage``,
``heal``, ``temp``, ``persist``/``unpersist``, ``cond``/``uncond``,
``bonus``/``unbonus``.  Amounts roll once for all targets (an area effect);
the default duration ticks are docs/rules.md §6 and §10's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Literal

from rules.bonuses import DICE_TYPES, STACKING, Bonus
from rules.conditions import Condition, add_condition, remove_condition, unknown_condition_warning
from rules.damage import apply_damage_parts, grant_temp_hp
from rules.damage import heal as heal_hp
from rules.dice import RollResult, roll, roll_damage
from rules.durations import Duration, describe_duration
from rules.engine.damage_parts import check_subsets, judge_tags, parts_of
from rules.engine.turns import ending_rounds
from rules.engine.work import Work, call
from rules.errors import ActionError
from rules.limits import check_total
from rules.persistent import add_persistent, persistent_entry, remove_persistent
from rules.text import possessive, shorten


def _durations(
    work: Work, action: Mapping[str, Any], default_tick: str
) -> Callable[[str], Duration | None]:
    """Each target's duration of *action* (None: it has none), ``of`` its
    own turn unless the action names whose (resolved once, for every target)."""
    rounds, at, of = action.get("rounds"), action.get("at"), action.get("of")
    if rounds is None and at is None and of is None:
        return lambda target: None
    of_name = _of(work, action)
    tick: Literal["start", "end"] = "start" if (at or default_tick) == "start" else "end"
    return lambda target: Duration(int(rounds or 1), tick, of_name or target)


def _of(work: Work, action: Mapping[str, Any]) -> str | None:
    """The one combatant *action*'s ``of`` names (journaled by its full
    name), None when it names none."""
    if action.get("of") is None:
        return None
    name = work.resolved["of"] = work.resolve(action["of"], "of")
    return name


def damage(work: Work, a: Mapping[str, Any]) -> None:
    """``damage``: roll each typed part once for all targets (§5 step 1,
    crit per the ruleset), then for each target the full result, half of
    each part (rounded down) for a ``half`` target or nothing for a
    ``none`` one (a save), each part through the target's own defenses by
    its tags (§5 steps 2–5); one log entry per target."""
    names = work.resolve_all(a["targets"])
    half = work.resolve_all(a.get("half", ()), "half") if a.get("half") else []
    none = work.resolve_all(a.get("none", ()), "none") if a.get("none") else []
    check_subsets("damage", names, half, none)
    check_typed_tags(work, "damage", a, "amount", names)
    rolled = roll_parts(work, "damage", a, "amount", bool(a.get("crit")))
    for name in names:
        if name in none:
            work.log(name, f"{name} takes no damage (none: saved)")
        elif name in half:
            hurt_parts(work, name, [(v // 2, tags) for v, tags in rolled], " (half: saved)")
        else:
            hurt_parts(work, name, rolled)


def check_typed_tags(
    work: Work, verb: str, a: Mapping[str, Any], amount_key: str, names: list[str]
) -> None:
    """Judge the damage tags *a* types against its targets *names* and the
    fight (``rules.engine.damage_parts.judge_tags``: a likely typo is
    refused), logging the warnings about a tag nobody here defends against
    once, before anything is rolled (once in a batch too)."""
    targets = [work.get(n) for n in names]
    for warning in judge_tags(verb, a, amount_key, targets, work.enc.combatants):
        if warning not in work.warned:
            work.warned.add(warning)
            work.log("GM", warning)


def roll_parts(
    work: Work,
    label: str,
    a: Mapping[str, Any],
    amount_key: str,
    crit: bool,
    lead: str = "",
    actor: str = "GM",
) -> list[tuple[int, list[str]]]:
    """Roll every typed part of *a*'s damage once (crit per the ruleset)
    and log the rolls (led by *lead*, default ``Damage`` and only when
    dice were rolled); ``(total, tags)`` per part.  Its tags were judged
    before (:func:`check_typed_tags`)."""
    out: list[tuple[int, list[str]]] = []
    shown: list[tuple[list[str], str]] = []
    dice = False
    for expr, tags in parts_of(a, amount_key):
        result = roll_hit(work, f"{label} {expr}", expr, crit)
        out.append((result.total, tags))
        shown.append((tags, result.render()))
        dice = dice or bool(result.dice)
    if lead or dice or crit or len(shown) > 1:  # a plain constant: the damage line says it all
        if len(shown) == 1:
            tags = shown[0][0]
            kind = f" {' '.join(tags)}" if tags and not lead else ""
            work.log(actor, f"{lead or 'Damage'}{kind}: {shown[0][1]}")
        else:
            each = "; ".join(f"{' '.join(tags)} {text}" for tags, text in shown)
            work.log(actor, f"{lead or 'Damage'}: {each}")
    return out


def roll_hit(work: Work, label: str, expression: str, crit: bool) -> RollResult:
    """Roll a hit's damage once, doubled on a critical hit as the ruleset's
    ``critical_damage`` says (RULES.md §5 step 1): for ``damage`` and for an
    attack that hits."""
    mode = work.ruleset["critical_damage"]
    return work.roll(label, roll_damage, expression, work.roller, crit=crit, mode=mode)


def hurt_parts(work: Work, name: str, parts: list[tuple[int, list[str]]], note: str = "") -> None:
    """Apply one hit of typed *parts* to a combatant, each part through its
    defenses by its own tags, then temp HP and HP (RULES.md §5, §6); log
    one line (with *note* after it)."""
    c, res = work.roll("", apply_damage_parts, work.get(name), parts, work.ruleset)
    work.put(c)
    text, down, rest = res.text.partition(f"; {name} is down")
    work.log(name, f"{text}{note}{down}{rest}")


def _amount(work: Work, a: Mapping[str, Any], what: str, label: str) -> int:
    """Roll *a*'s amount once for every target, logged when dice were
    rolled; never below 0."""
    result = work.roll(f"{label} {a['amount']}", roll, a["amount"], work.roller)
    if result.dice:
        work.log("GM", f"{what}: {result.render()}")
    return max(0, result.total)


def heal(work: Work, a: Mapping[str, Any]) -> None:
    """``heal``: roll once, heal each target up to its maximum (§5).  When
    every target is at full HP it is refused before anything is rolled: a
    heal that restores nothing is no action."""
    names = work.resolve_all(a["targets"])
    full = [work.get(n) for n in names if work.get(n).hp >= work.get(n).max_hp]
    if len(full) == len(names):
        shown = ", ".join(f"{c.name} ({c.hp}/{c.max_hp})" for c in full[:6])
        more = f" and {len(full) - 6} more" if len(full) > 6 else ""
        who = "is" if len(full) == 1 else "are all"
        raise ActionError(f"heal: {shown}{more} {who} at full HP; nothing to heal")
    amount = _amount(work, a, "Healing", "healing")
    for name in names:
        c, res = work.roll("", heal_hp, work.get(name), amount)
        work.put(c)
        work.log(name, res.text)


def temp(work: Work, a: Mapping[str, Any]) -> None:
    """``temp``: temporary HP per the ruleset's ``temp_hp`` option (§6)."""
    names = work.resolve_all(a["targets"])
    amount = _amount(work, a, "Temp HP", "temp HP")
    duration = _durations(work, a, "end" if a.get("of") is not None else "start")
    ending = ending_rounds(work.enc)
    for name in names:
        dur = duration(name)
        c, text = work.roll(
            "", grant_temp_hp, work.get(name), amount, work.ruleset, dur, ends_round=ending(dur)
        )
        check_total(f"{possessive(name)} temp HP", c.temp_hp)  # temp_hp = add sums them (§6)
        work.put(c)
        work.log(name, text)


def persist(work: Work, a: Mapping[str, Any]) -> None:
    """``persist``: persistent damage (§7) from the combatant ``of`` names
    (resolved as ``cond``'s ``of``: the goblin whose blade caused it while
    another acts), else from the active one.  A DC above 20 is accepted
    (the GM may mean it), with a warning in the log; so is an unknown tag,
    judged as ``damage`` judges it (§5): every tick is typed by these
    tags, so a typo would bypass defenses."""
    names = work.resolve_all(a["targets"])
    source = _of(work, a) or work.active_name
    check_typed_tags(work, "persist", a, "dice", names)
    entry = call(
        persistent_entry, a["dice"], list(a.get("tags", ())), work.ruleset, a.get("dc"), source
    )
    for name in names:
        c, text = call(add_persistent, work.get(name), entry)
        if entry.dc > 20 and entry in c.persistent:
            text += f" — a flat check (d20) never reaches DC {entry.dc}: it can only be ended by unpersist"
        work.put(c)
        work.log(name, text)


def unpersist(work: Work, a: Mapping[str, Any]) -> None:
    """``unpersist``: the GM ends persistent damage (§7)."""
    _each_target(work, a, remove_persistent, a["tag"])


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
    warning = unknown_condition_warning(a["name"], work.enc.combatants)
    duration, ending = _durations(work, a, "end"), ending_rounds(work.enc)
    for name in names:
        condition = Condition(a["name"], a.get("value"), duration(name))
        ends = ending(condition.duration)
        c, text = call(add_condition, work.get(name), condition, ends_round=ends)
        work.put(c)
        work.log(name, text)
    if warning:
        work.log("GM", warning)


def uncond(work: Work, a: Mapping[str, Any]) -> None:
    """``uncond``: end a condition (§10)."""
    _each_target(work, a, remove_condition, a["name"])


def bonus(work: Work, a: Mapping[str, Any]) -> None:
    """``bonus``: a typed bonus (§9), stacked by type when it is used."""
    names = work.resolve_all(a["targets"])
    types = (*STACKING, *DICE_TYPES)
    kind = a["type"]
    if kind not in types:
        raise ActionError(f"bonus: unknown type {kind!r} (types: {', '.join(types)})")
    applies = a.get("to", "al")
    if kind in STACKING and STACKING[kind].al_only and applies != "al":
        raise ActionError(f"bonus: {kind} applies to AL only")
    duration, ending = _durations(work, a, "end"), ending_rounds(work.enc)
    for name in names:
        b = Bonus(kind, int(a["value"]), applies, duration(name), work.active_name)
        c = work.get(name)
        work.put(replace(c, bonuses=(*c.bonuses, b)))
        source = f" from {b.source}" if b.source else ""
        until = describe_duration(b.duration, ending(b.duration))
        work.log(name, f"{name} gets {b.value:+d} {kind} to {applies}{source}{until}")


def unbonus(work: Work, a: Mapping[str, Any]) -> None:
    """``unbonus``: remove every bonus of a type (§9)."""
    names = work.resolve_all(a["targets"])
    for name in names:
        c = work.get(name)
        kept = tuple(b for b in c.bonuses if b.type != a["type"])
        if len(kept) == len(c.bonuses):
            have = ", ".join(sorted({b.type for b in c.bonuses})) or "none"
            kind = shorten(a["type"])
            raise ActionError(f"unbonus: {name} has no {kind} bonus (has: {shorten(have, 200)})")
        work.put(replace(c, bonuses=kept))
        work.log(name, f"{name} loses its {a['type']} bonus")
