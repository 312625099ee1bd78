"""The verbs of the action language: :data:`HANDLERS` (one function per
verb, by family in ``verbs_*``) and :func:`run`, which applies an action or
a batch to a working copy.  A verb changes ``work.enc`` only through the
rules core and raises ``ActionError`` before the session commits anything."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rules.encounter import Encounter
from rules.engine import turns
from rules.engine import verbs_combat as combat
from rules.engine import verbs_delay as delaying
from rules.engine import verbs_edits as edits
from rules.engine import verbs_effects as effects
from rules.engine import verbs_groups as groups
from rules.engine import verbs_roster as roster
from rules.engine import verbs_view as shown
from rules.engine.format import format_action
from rules.engine.grammar import BATCH
from rules.engine.verbs_edits import check_batch_end
from rules.engine.work import Roller, Work
from rules.errors import ActionError
from rules.kept_marks import recording, settle
from rules.text import shorten

Handler = Callable[[Work, Mapping[str, Any]], None]


HANDLERS: dict[str, Handler] = {
    "add": roster.add,
    "remove": roster.remove,
    "init": roster.init,
    "order": roster.order,
    "set": edits.set_field,
    "start": lambda work, _: turns.start_combat(work),
    "next": lambda work, _: turns.next_turn(work),
    "prev": lambda work, _: turns.step_back(work),
    "end": lambda work, _: turns.end_combat(work),
    "damage": effects.damage,
    "heal": effects.heal,
    "temp": effects.temp,
    "persist": effects.persist,
    "unpersist": effects.unpersist,
    "cond": effects.cond,
    "uncond": effects.uncond,
    "move": combat.move,
    "bonus": effects.bonus,
    "unbonus": effects.unbonus,
    "attack": combat.attack,
    "delay": delaying.delay,
    "return": delaying.return_,
    "group": groups.group,
    "ungroup": groups.ungroup,
    "hide": shown.set_visibility,
    "mask": shown.set_visibility,
    "reveal": shown.set_visibility,
    "view": shown.view,
    "roll": combat.roll,
    "luck": combat.luck,
    "cinematic": combat.cinematic,
}


def run(
    encounter: Encounter, action: Mapping[str, Any], rng: random.Random
) -> tuple[Work, dict[str, Any]]:
    """Apply the canonical *action* to a working copy of *encounter*; return
    (the work, the resolved record).  A batch runs its parts in order on one
    working copy, and any part failing fails the whole.  Dice breakdowns
    mark kept dice so the log records where (``rules.kept_marks``)."""
    with recording():
        try:
            return _run(encounter, action, rng)
        except ActionError as exc:
            message, _ = settle(str(exc))  # a breakdown in a message reads as in the log
            if message == str(exc):
                raise
            raise ActionError(message) from None


def _run(
    encounter: Encounter, action: Mapping[str, Any], rng: random.Random
) -> tuple[Work, dict[str, Any]]:
    work = Work(encounter, Roller(rng))
    if action["verb"] != BATCH:
        return work, _run_one(work, action, rng)
    parts = action["actions"]
    work.batch = True
    resolved = []
    for n, part in enumerate(parts, 1):
        try:
            resolved.append(_run_one(work, part, rng))
        except ActionError as exc:
            raise ActionError(
                f"part {n} of {len(parts)} ({shorten(_line(part))}): {exc} — nothing was changed"
            ) from None
    try:
        check_batch_end(work)
    except ActionError as exc:
        raise ActionError(f"{exc} — nothing was changed") from None
    return work, {"verb": BATCH, "actions": resolved}


def _run_one(work: Work, action: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """Run one non-batch action on *work* with its own faces; return its
    resolved record."""
    roller = Roller(rng, action.get("faces", ()), spent=work.rolled)
    if "roll" in action:
        roller.push_front(int(action["roll"]))
    work.roller = roller
    work.resolved = {}
    try:
        HANDLERS[action["verb"]](work, action)
    except ActionError:
        raise
    except ValueError as exc:  # a rules function's message for the GM
        raise ActionError(f"{action['verb']}: {exc}") from None
    work.asked.extend(roller.asked)
    work.rolled += len(roller.rolled)
    resolved = {k: v for k, v in action.items() if k not in ("faces", "roll")}
    resolved.update(work.resolved)
    if roller.rolled:
        resolved["faces"] = list(roller.rolled)
    unused = roller.unused
    if unused:
        resolved["unused_faces"] = unused
        work.log("GM", f"unused faces: {', '.join(map(str, unused))} (no more dice were rolled)")
    return resolved


def _line(action: Mapping[str, Any]) -> str:
    try:
        return format_action(action)
    except ActionError:
        return str(action.get("verb", ""))
