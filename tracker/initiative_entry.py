"""Initiative before the fight starts (RULES.md §4): the initiative form's
totals become one batch, ``init 'Mira' 17; start``, one undoable step.  With
physical rolls the GM may also type the monsters' d20s; the program rolls
every other die, and the faces go to ``start``, the batch's only part that
rolls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tracker import lines

if TYPE_CHECKING:
    from random import Random

    from rules.encounter import Encounter
    from tracker.applying import Action, Dice


def players_without_initiative(enc: Encounter) -> list[str]:
    """The player combatants ``s`` asks the initiative form about."""
    return [c.name for c in enc.combatants if c.player and c.initiative is None]


def initiative_entry(totals: Mapping[str, str]) -> str | dict[str, str]:
    """The initiative form's line for the *totals* typed by player name
    (blank: ``start`` rolls it), or the engine's message by name for each
    total that is not a whole number within its bounds, or, on the first
    total past what one step holds, how many to leave blank."""
    from rules.engine.values import bounded
    from rules.errors import ActionError

    values: list[tuple[str, int | None]] = []
    errors: dict[str, str] = {}
    for name, text in totals.items():
        try:
            values.append((name, bounded("init", text) if text.strip() else None))
        except ActionError as exc:
            errors[name] = str(exc)
    return errors or _too_many(values) or lines.initiative_line(values)


def _too_many(values: Sequence[tuple[str, int | None]]) -> dict[str, str]:
    """The message, under the first total that does not fit, when the
    typed totals and ``start`` are more actions than one line holds
    (``rules.engine.grammar.MAX_BATCH``): the step is one batch, so one
    undo takes it all back, and the engine takes no bigger one."""
    from rules.engine.grammar import MAX_BATCH

    room = MAX_BATCH - 1  # the batch ends with ``start``
    typed = [name for name, total in values if total is not None]
    if len(typed) <= room:
        return {}
    extra = len(typed) - room
    return {
        typed[room]: f"one step takes at most {room} typed totals, and {len(typed)} are typed: "
        f"leave {extra} blank (rolled), or set them with i once the fight has started"
    }


def monster_dice(enc: Encounter, action: Action, needed: Dice) -> tuple[Action, Dice, list[bool]]:
    """For the initiative form's *action* (with the dice it *needed*) when
    the GM rolls the monsters' dice: the action, the monsters' initiative
    dice to ask for, and, for every die up to the last of those, whether it
    is the GM's (the others — a blank player's — the program rolls)."""
    cs = enc.combatants
    theirs = {f"{c.name} initiative (d20)" for c in cs if not c.player and c.initiative is None}
    theirs |= {  # a group's one d20 (rules.engine.groups.share_initiative)
        f"group {c.group} initiative (d20)" for c in cs if c.group is not None and not c.player
    }
    gm = [label in theirs for label, _ in needed]
    while gm and not gm[-1]:
        gm.pop()
    return action, [d for d, mine in zip(needed, gm, strict=False) if mine], gm


def with_monster_faces(
    rng: Random, action: Action, gm: Sequence[bool], typed: Sequence[int]
) -> Action:
    """:func:`monster_dice`'s *action* carrying the faces: the GM's *typed*
    ones in their places, a d20 from *rng* in the others, up to where the
    GM stopped typing (the program rolls the rest)."""
    faces: list[int] = []
    queue = list(typed)
    kept = 0  # the faces up to the GM's last one
    for mine in gm:
        if mine and not queue:
            break
        faces.append(queue.pop(0) if mine else rng.randint(1, 20))
        kept = len(faces) if mine else kept
    faces = faces[:kept]
    if not faces:
        return action
    if action.get("verb") != "batch":
        return {**action, "faces": faces}
    parts = list(action["actions"])  # type: ignore[call-overload]
    parts[-1] = {**parts[-1], "faces": faces}
    return {**action, "actions": parts}
