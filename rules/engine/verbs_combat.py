"""The verbs of the fight itself: ``attack``, ``move``, ``luck``, ``roll``,
``cinematic`` (``start``, ``next``, ``prev`` and ``end`` are
``rules.engine.turns``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.bonuses import Bonus, effective_al, stack
from rules.checks import check as roll_check
from rules.checks import difficulty_level, judge, roll_expression_with_advantage
from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.endurance import Endurance, endurance_check, endurance_of
from rules.engine.grammar import MOVEMENTS
from rules.engine.groups import name_runs
from rules.engine.verbs_effects import check_typed_tags, hurt_parts, roll_parts
from rules.engine.work import Roller, Work, call
from rules.errors import ActionError
from rules.luck import spend_luck


def cinematic(work: Work, a: Mapping[str, Any]) -> None:
    """``cinematic T adv|dis``: Cinematic Advantage (§2), an advantage bonus
    with source ``cinematic`` that T's next ``attack`` uses up."""
    names = work.resolve_all(a["targets"])
    kind = "advantage" if a["mode"] == "adv" else "disadvantage"
    for name in names:
        c = work.get(name)
        b = Bonus(kind, 1, "attacks", None, "cinematic")
        work.put(replace(c, bonuses=(*c.bonuses, b)))
        work.log(name, f"{name} gets cinematic {kind} on its next attack")


def move(work: Work, a: Mapping[str, Any]) -> None:
    """``move T dash|run|sprint``: an endurance check (§8); a shortfall is
    paid from endurance points unless ``nospend``."""
    names = work.resolve_all(a["targets"])
    movement = a["movement"]
    for name in names:
        c = work.get(name)
        state = _endurance(c)
        face = None
        if state.active.get(movement, 0) <= 0:
            face = work.d20(f"{name} {movement} endurance check (d20)")
        state, check = work.roll("", endurance_check, state, movement, face, not a.get("nospend"))
        work.put(replace(c, endurance=state))
        work.log(name, f"{name} {check.text}")


def _endurance(c: Combatant) -> Endurance:
    """*c*'s endurance pool (§8), or the ActionError of ``move``."""
    state = c.endurance if c.endurance is not None else call(endurance_of, c)
    if state is None:
        raise ActionError(f"move: {c.name} has no endurance (needs CON and athletics)")
    return state


def preview_move(
    encounter: Encounter, rng: random.Random, target: str, movement: str, face: int | None
) -> Any:
    """The endurance check ``move`` would make, without changing anything
    (see ``Session.preview_move``)."""
    key = movement.strip().lower()
    if key not in MOVEMENTS:
        raise ActionError(f"move: movement is dash, run or sprint, not {movement!r}")
    if face is not None and not 1 <= face <= 20:
        raise ActionError(f"move: roll is the d20 face, 1 to 20, not {face}")
    work = Work(encounter, Roller(rng))
    movement = key
    name = work.resolve(target)
    state = _endurance(work.get(name))
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
    result = call(stack, attacker.bonuses, "attacks")
    adv, dis = (
        sum(b.value for b in attacker.bonuses if b.type == kind and b.applies_to == "attacks")
        for kind in ("advantage", "disadvantage")
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
    """``attack`` by the active combatant: d20 with advantage (§2) and its
    stacked attack bonuses vs effective AL with cover (§9), degree (§3),
    damage on a success, doubled on a critical success (§5).  The attacker
    is never its own target (docs/rules.md §9): left out of several
    targets (its group, ``all``), refused when it is the only one."""
    attacker = work.enc.active
    names = _not_the_attacker(work, work.resolve_all(a["targets"]), attacker)
    check_typed_tags(work, "attack", a, "damage", names)
    cover = a.get("cover")
    if cover == "total":
        raise ActionError(f"attack: {name_runs(names)} cannot be targeted (total cover)")
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
            roll_check,
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
            lead = "Critical hit" if crit else "Hit"
            parts = roll_parts(work, f"{who} damage", a, "damage", crit, lead, who)
            hurt_parts(work, name, parts)


def _not_the_attacker(work: Work, names: list[str], attacker: Combatant | None) -> list[str]:
    """*names* without the *attacker* (the active combatant; None before
    ``start``: the GM attacks, and anyone may be a target).  It left out
    of several is said in the log; as the only target, one ActionError."""
    if attacker is None or attacker.name not in names:
        return names
    if len(names) == 1:
        raise ActionError(
            f"attack: {attacker.name} (whose turn it is) cannot attack itself: "
            "choose the target first"
        )
    work.log(attacker.name, f"{attacker.name} does not attack itself: left out of the targets")
    return [n for n in names if n != attacker.name]


def roll(work: Work, a: Mapping[str, Any]) -> None:
    """``roll``: a free roll into the log, with advantage (§2) and a degree
    against a DC or named DL (§3)."""
    d20 = work.roll(
        f"roll {a['expr']}",
        roll_expression_with_advantage,
        a["expr"],
        int(a.get("adv", 0)),
        int(a.get("dis", 0)),
        work.ruleset,
        work.roller,
    )
    dc = a.get("dc")
    dl_text = ""
    if a.get("dl") is not None:
        dc = call(difficulty_level, a["dl"])
        dl_text = f" ({a['dl'].capitalize()})"
    text = f"Roll: {d20.result.render()}"
    if dc is not None:
        result = call(judge, d20, int(dc), work.ruleset)
        text = f"Roll: {result.text}{dl_text}"
    work.log("GM", text)


def luck(work: Work, a: Mapping[str, Any]) -> None:
    """``luck``: spend a luck point and roll the extra d20 (§11)."""
    names = work.resolve_all(a["targets"])
    for name in names:
        c, text = call(spend_luck, work.get(name))
        face = work.d20(f"{name} luck d20")
        work.put(c)
        work.log(name, f"{text}: the extra d20 shows {face}")
