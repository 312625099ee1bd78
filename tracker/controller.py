"""The encounter screen's decisions, without Textual (issue 10).

:class:`EncounterController` owns the selection (whom the row cursor is on)
and the marks (combatants marked for one area effect), both UI state saved
with the encounter through ``LiveEncounter.set_ui_state`` so a relaunch
resumes them.  It answers what the keys target now and why a key does not
apply now; the screen keeps the widgets, dialogs and notices and asks it.

The row cursor itself is drawn by the initiative pane and can move there
(clicks, page keys) before the screen hears of it: the controller reads its
position through the *cursor* callable, never a copy that could be stale.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tracker.screens import lines

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.encounter import Encounter
    from saves.live import LiveEncounter

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
        "move",
        "initiative",
        "edit",
        "remove",
    }
)


class EncounterController:
    """The selection and the marks of one live encounter, and what keys do with them."""

    def __init__(self, live: LiveEncounter, cursor: Callable[[], int | None]) -> None:
        """*cursor*: the row the selection cursor is on now (None: no rows)."""
        self.live = live
        self._cursor = cursor
        ui: Mapping[str, Any] = live.ui_state
        #: the selected combatant's name, as last remembered
        self.selected_name: str | None = ui.get("selected")
        #: the marked combatants' names, in the order they were marked
        self.marked: list[str] = [str(n) for n in ui.get("marked", [])]

    # -- what is there -----------------------------------------------------------

    @property
    def encounter(self) -> Encounter:
        return self.live.encounter

    def names(self) -> list[str]:
        return [c.name for c in self.encounter.combatants]

    def availability(self) -> tuple[bool, ...]:
        """What the footer's greyed keys depend on (started, any combatant,
        undo, redo): the footer is rebuilt only when this changes."""
        live = self.live
        enc = live.encounter
        return (enc.started, bool(enc.combatants), live.can_undo, live.can_redo)

    # -- the selection -----------------------------------------------------------

    def selected(self) -> Combatant | None:
        """The combatant under the row cursor (None: nobody)."""
        index = self._cursor()
        combatants = self.encounter.combatants
        return combatants[index] if index is not None and index < len(combatants) else None

    def step(self, delta: int) -> int | None:
        """The row *delta* rows below the cursor (above when negative),
        clamped to the order; None when there is nobody to select."""
        index = self._cursor()
        count = len(self.encounter.combatants)
        if index is None or count == 0:
            return None
        return max(0, min(index + delta, count - 1))

    def remember(self, name: str | None) -> None:
        """The selection is now *name* (saved with the UI state)."""
        if name != self.selected_name:
            self.selected_name = name
            self.live.set_ui_state(selected=name)

    def cursor_moved(self) -> Combatant | None:
        """Remember whoever the cursor is on now; return them."""
        current = self.selected()
        self.remember(None if current is None else current.name)
        return current

    def follow(self) -> int | None:
        """After the encounter changed: the row the remembered selection is
        on now, for the cursor to go to; when it is gone (removed, or none
        yet) the selection becomes whoever the cursor is on, and None."""
        names = self.names()
        if self.selected_name in names:
            return names.index(self.selected_name)
        current = self.selected()
        self.selected_name = None if current is None else current.name
        self.live.set_ui_state(selected=self.selected_name)
        return None

    # -- the marks ---------------------------------------------------------------

    def prune_marks(self) -> None:
        """Forget marks on combatants no longer in the encounter."""
        names = self.names()
        self.marked = [n for n in self.marked if n in names]

    def toggle_mark(self) -> bool:
        """Mark the selected combatant, or unmark them; False: nobody selected."""
        current = self.selected()
        if current is None:
            return False
        if current.name in self.marked:
            self.marked.remove(current.name)
        else:
            self.marked.append(current.name)
        self.live.set_ui_state(marked=list(self.marked))
        return True

    def clear_marks(self) -> bool:
        """Forget every mark; False when there was none."""
        if not self.marked:
            return False
        self.marked = []
        self.live.set_ui_state(marked=[])
        return True

    def marks_used(self) -> bool:
        """Whether the next targeted action goes to the marked combatants."""
        names = set(self.names())
        return any(n in names for n in self.marked)

    def targets(self) -> list[str]:
        """Marked combatants (in the order of play), else the selection."""
        marked = [n for n in self.names() if n in self.marked]
        if marked:
            return marked
        current = self.selected()
        return [] if current is None else [current.name]

    # -- conditions ----------------------------------------------------------------

    def present_conditions(self, names: list[str]) -> list[str]:
        """The conditions any of *names* has, sorted."""
        return sorted(
            {
                cond.name
                for c in self.encounter.combatants
                if c.name in names
                for cond in c.conditions
            }
        )

    def uncondition_line(self, names: list[str], condition: str) -> str:
        """Remove *condition* from each of *names* that has it, as one line."""
        having = {
            c.name: {cond.name for cond in c.conditions}
            for c in self.encounter.combatants
            if c.name in names
        }
        who = [n for n in names if condition in having.get(n, ())]
        return "; ".join(f"uncond {lines.targets([n])} {shlex.quote(condition)}" for n in who)

    # -- why a key does not apply ------------------------------------------------

    def unavailable(self, action: str) -> str | None:
        """Why *action* does not apply now (None: it does); the footer greys
        it and the key, pressed anyway, shows this reason."""
        enc = self.encounter
        if action in ("next_turn", "previous_turn"):
            return None if enc.started else "the fight has not started: s starts it"
        if action == "start":
            if enc.started:
                return "the fight has started already"
            return None if enc.combatants else "add combatants first (a)"
        if action == "undo":
            return None if self.live.can_undo else "nothing to undo"
        if action == "redo":
            return None if self.live.can_redo else "nothing to redo"
        if action == "clear_marks":
            return None if self.marked else "no marks to clear"
        if action in NEED_COMBATANT and not enc.combatants:
            return "no combatants yet: a adds some"
        if action == "move":
            current = self.selected()
            if current is not None and current.endurance is None:
                return (
                    f"{current.name} has no endurance pool (needs CON and Athletics: e edits them)"
                )
        if action == "uncondition" and not self.present_conditions(self.targets()):
            return f"{', '.join(self.targets())}: no conditions to remove"
        return None
