"""Why a key does not apply now, as one sentence: the footer greys the key,
and the key pressed anyway says why (None: it applies).  The reasons read
the controller's selection, marks and targets, never change them, so what
is greyed and what the key would do agree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.endings import ENDINGS
from tracker.lines import VISIBILITY_KEYS

if TYPE_CHECKING:
    from rules.encounter import Encounter
    from tracker.controller import EncounterController

#: Actions that need at least one combatant.
NEED_COMBATANT = frozenset(
    {
        "select_down",
        "select_up",
        "order_down",
        "order_up",
        "toggle_mark",
        "damage",
        "heal",
        "temp",
        "persistent",
        "condition",
        "uncondition",
        "unpersist",
        "move",
        "initiative",
        "edit",
        "remove",
        "attack",
        "toggle_group",
        "hide",
        "mask",
        "reveal",
    }
)

#: Keys that act on one combatant, never on a whole collapsed group.
ONE_COMBATANT = frozenset({"edit", "move", "return"})

NOT_STARTED = "the fight has not started: s starts it"


def availability(ctl: EncounterController) -> tuple[bool, ...]:
    """What the footer's greyed keys depend on: it is rebuilt only when this changes."""
    live = ctl.live
    enc = live.encounter
    return (
        enc.started,
        bool(enc.combatants),
        live.can_undo,
        live.can_redo,
        bool(ctl.defeated()),
        ctl.unavailable("previous_turn") is None,
        bool(enc.delayed),
    )


def unavailable(ctl: EncounterController, action: str) -> str | None:
    enc = ctl.encounter
    if action in ("next_turn", "previous_turn", "select_active") and not enc.started:
        return NOT_STARTED
    if action == "previous_turn":  # e.g. at round 1's first turn, as the engine says
        return ctl.live.prev_refusal()
    if action in ("next_turn", "select_active"):
        return None
    if action == "start":
        if enc.started:
            return "the fight has started already"
        return None if enc.combatants else "add combatants first (a)"
    if action == "end_combat":
        return None if enc.started else "the fight has not started: nothing to end"
    if action == "remove_defeated" and not ctl.defeated():
        return "no monster is down (players at 0 HP stay)"
    if action == "undo":
        return None if ctl.live.can_undo else "nothing to undo"
    if action == "redo":
        return None if ctl.live.can_redo else "nothing to redo"
    if action == "clear_marks":
        return None if ctl.marks else "no marks to clear"
    if action in NEED_COMBATANT and not enc.combatants:
        return "no combatants yet: a adds some"
    if action == "toggle_group":
        span = ctl.selected_span()
        return None if span is None else ctl.collapse.why_not(enc.combatants, span.start)
    if action in ONE_COMBATANT and (group := ctl.selected_group()):
        return f"group {group[0].group} is one row: o expands it to pick one of its {len(group)}"
    if action == "move":
        current = ctl.selected()
        if current is not None and current.endurance is None:
            return f"{current.name} has no endurance pool (needs CON and Athletics: e edits them)"
    if action == "attack" and not ctl.attacked():
        return _cannot_attack(ctl)
    if action == "delay":
        return _cannot_delay(ctl)
    if action == "return":
        return _cannot_return(ctl)
    if action in VISIBILITY_KEYS:
        return _cannot_show(ctl, action)
    if action in ENDINGS and not ctl.carried(action, targets := ctl.targets()):
        group = ctl.selected_group()
        who = f"group {group[0].group}" if group and not ctl.marks_used() else ", ".join(targets)
        return f"{who}: {ENDINGS[action].nothing}"
    return None


def _cannot_show(ctl: EncounterController, action: str) -> str | None:
    """Why the players' view key *action* does nothing now (None: it
    changes someone): a player is never hidden or masked."""
    to = VISIBILITY_KEYS[action]
    names = ctl.names_for(action)
    chosen = [c for c in ctl.encounter.combatants if c.name in names]
    if to != "visible" and any(c.player for c in chosen):
        return "players are always shown on the players' view (mark monsters only)"
    if chosen and all(c.visibility == to for c in chosen):
        who = chosen[0].name if len(chosen) == 1 else f"all {len(chosen)}"
        return f"{who}: {to} already"
    return None


def _cannot_attack(ctl: EncounterController) -> str | None:
    """Why ``A`` has nobody to attack: its only target is the attacker."""
    attacker = ctl.attacker()
    if attacker is None or ctl.targets() != [attacker.name]:
        return None
    return (
        f"{attacker.name} (whose turn it is) cannot attack itself: "
        "select (j/k) or mark (space) a target first"
    )


def _cannot_delay(ctl: EncounterController) -> str | None:
    active = ctl.active()
    if active is None:
        return NOT_STARTED
    if active.name in ctl.encounter.delayed:
        return f"{active.name} is delaying already"
    return None


def _cannot_return(ctl: EncounterController) -> str | None:
    delayed = ctl.encounter.delayed
    if not delayed:
        return "nobody is delaying (w: the active combatant delays)"
    current = ctl.selected()
    if current is None or current.name not in delayed:
        who = "nobody selected" if current is None else f"{current.name} is not delaying"
        return f"{who}; select one delaying: {', '.join(delayed)}"
    return None


class Reasons:
    """:func:`unavailable`'s answers, worked out once per state of what they
    read (the encounter, by identity, the cursor, the marks, the expanded
    groups, undo and redo, the last step: ``p`` undoes a ``next`` on top):
    Textual asks about every binding each time the footer refreshes, and
    with a horde each answer scans the combatants."""

    def __init__(self, ctl: EncounterController) -> None:
        self._ctl = ctl
        self._answers: dict[str, str | None] = {}
        self._encounter: Encounter | None = None
        self._state: tuple[object, ...] = ()

    def why(self, action: str) -> str | None:
        ctl, live = self._ctl, self._ctl.live
        state = (
            ctl.cursor_row(),
            tuple(ctl.marks.names),
            tuple(ctl.marks.groups),
            tuple(ctl.collapse.saved()),
            live.can_undo,
            live.can_redo,
            live.seq,
        )
        if live.encounter is not self._encounter or state != self._state:
            self._answers, self._encounter, self._state = {}, live.encounter, state
        if action not in self._answers:
            self._answers[action] = unavailable(ctl, action)
        return self._answers[action]
