"""The encounter screen's keys: each sends one action line built by the
controller, or opens the prompt or dialog that builds it
(``tracker.screens.encounter_dialogs``); the marks serve several actions
(``keep_marks`` says when they clear), and a key that does not apply now is
greyed and, pressed anyway, says why (``tracker.availability``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events

from tracker.bindings import ENCOUNTER_KEYS, LINE_KEYS, SAVES_KEYS, bindings
from tracker.screens import encounter_dialogs as dialogs
from tracker.screens.encounter_view import EncounterView
from tracker.screens.palette import EncounterCommands
from tracker.screens.quitting import quitting
from tracker.screens.typeahead import held, hold_keys

if TYPE_CHECKING:
    from tracker.widgets.command_line import CommandLine

# The command line and the dialogs are imported when first opened: the
# first frame does not need them.


class EncounterScreen(EncounterView):
    """One live encounter; keys → engine actions → only changed rows/lines."""

    BINDINGS = bindings(ENCOUNTER_KEYS)
    COMMANDS = {EncounterCommands}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if quitting(self) or (self.too_small and action != "quit"):
            # quitting: keys still arriving do nothing (tracker.screens.quitting);
            # too small: the panes are hidden, no key acts on what is not seen
            return False
        return True if self.unavailable(action) is None else None

    def unavailable(self, action: str) -> str | None:
        """Why *action* does not apply now (None: it does)."""
        return self.controller.unavailable(action)

    #: greyed keys that stay quiet when pressed (Escape with nothing marked)
    QUIET = frozenset({"clear_marks"})

    def on_key(self, event: events.Key) -> None:
        """A greyed key pressed anyway says why it does not apply now (keys
        bubble here before the bindings run)."""
        if quitting(self) or self.too_small:
            return  # no key acts now (check_action), and none needs a reason
        if held(self, event):  # typed for a dialog that is opening
            event.stop()
            event.prevent_default()
            return
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            hold_keys(self, event)  # its action may open a dialog: the next keys wait
        if active is None or active.node is not self or active.enabled:
            return  # not this screen's key, or it applies
        action = active.binding.action
        reason = None if action in self.QUIET else self.unavailable(action)
        if reason:
            event.stop()
            event.prevent_default()
            self.notify(reason, severity="warning", timeout=4, markup=False)

    def action_start(self) -> None:
        dialogs.start(self)

    def action_next_turn(self) -> None:
        self.report(self.apply("next"))

    def action_previous_turn(self) -> None:
        self.report(self.apply("prev"))

    def action_end_combat(self) -> None:
        dialogs.end_combat(self)

    def action_remove_defeated(self) -> None:
        dialogs.remove_defeated(self)

    def action_select_down(self) -> None:
        self._select(1)

    def action_select_up(self) -> None:
        self._select(-1)

    def _select(self, delta: int) -> None:
        row = self.controller.step(delta)
        if row is not None:
            self.table.move_cursor(row=row)
        self._selection_moved()

    def action_order_down(self) -> None:
        self._send("order_down")

    def action_order_up(self) -> None:
        self._send("order_up")

    def action_toggle_mark(self) -> None:
        if self.controller.toggle_mark():
            self._show_mark_rows()

    def action_clear_marks(self) -> None:
        self.clear_marks()

    def action_toggle_group(self) -> None:
        """Expand the collapsed group under the cursor, or fold the group of
        the member under it back into one row."""
        if self.controller.toggle_group():
            self.refresh_panes()

    def action_details_down(self) -> None:
        self._details.scroll_relative(y=3, animate=False)

    def action_details_up(self) -> None:
        self._details.scroll_relative(y=-3, animate=False)

    def action_add(self) -> None:
        dialogs.add(self)

    def action_damage(self) -> None:
        self.ask("damage")

    def action_heal(self) -> None:
        self.ask("heal")

    def action_temp(self) -> None:
        self.ask("temp")

    def action_persistent(self) -> None:
        self.ask("persistent")

    def action_condition(self) -> None:
        self.ask("condition")

    def action_uncondition(self) -> None:
        """Pick one of the targets' conditions; it is removed from each
        target that has it, as one step."""
        self.ask("uncondition")

    def action_move(self) -> None:
        dialogs.move(self)

    def action_initiative(self) -> None:
        self.ask("initiative")

    def action_roll(self) -> None:
        self.ask("roll")

    def action_attack(self) -> None:
        self.ask("attack")

    def action_delay(self) -> None:
        """The active combatant delays (the turn passes on)."""
        self._send("delay")

    def action_return(self) -> None:
        """The selected delaying combatant returns after the active one."""
        self._send("return")

    def action_hide(self) -> None:
        """The targets leave the players' view."""
        self._on_targets("hide")

    def action_mask(self) -> None:
        """The targets show on the players' view as "Unknown creature"."""
        self._on_targets("mask")

    def action_reveal(self) -> None:
        """The targets show in full on the players' view."""
        self._on_targets("reveal")

    def _on_targets(self, action: str) -> None:
        """Send *action* on the marked combatants, else the selection (the
        marks clear afterwards as ``keep_marks`` says)."""
        self._send(action, self.controller.used_marks if self.controller.marks_used() else None)

    def _send(self, action: str, then: Callable[[], None] | None = None) -> None:
        """Send the line key *action* builds, when it acts on somebody."""
        line = self.controller.line(action)
        if line is not None:
            self.report(self.apply(line, then))

    def action_edit(self) -> None:
        dialogs.edit(self)

    def action_remove(self) -> None:
        dialogs.remove(self)

    async def action_command_line(self) -> None:
        """Open the ``:`` line (mounted the first time it is used)."""
        from rules.engine.complete import known_in
        from rules.engine.grammar import HELP, VERBS
        from tracker.screens.typeahead import release_keys
        from tracker.widgets.command_line import CommandLine

        found = self.query(CommandLine)
        if found:
            command = found.first()
        else:
            command = CommandLine(
                VERBS,
                HELP,
                self.controller.names,
                known=lambda: known_in(self.encounter),
                history=self.typed.kind("command"),
                id="command-line",
            )
            await self.mount(command)
        command.open()
        release_keys(self)

    def on_command_line_submitted(self, event: CommandLine.Submitted) -> None:
        if quitting(self):
            return
        from tracker.widgets.command_line import CommandLine

        error = self.apply(event.line)
        command = self.query_one("#command-line", CommandLine)
        if error:
            command.show_error(error)
        else:
            self.typed.add("command", event.line)
            self._close_command_line()

    def on_command_line_cancelled(self, _: CommandLine.Cancelled) -> None:
        if not quitting(self):
            self._close_command_line()

    def _close_command_line(self) -> None:
        self.query_one("#command-line").display = False
        self.table.focus()

    def _history(self, undo: bool) -> None:
        error = self.controller.history(undo)
        if error is not None:
            self.report(error)
        else:
            self.refresh_panes()

    def action_undo(self) -> None:
        self._history(undo=True)

    def action_redo(self) -> None:
        self._history(undo=False)

    def action_save_point(self) -> None:
        dialogs.save_point(self)

    def action_toggle_physical(self) -> None:
        self.config.physical_rolls = not self.config.physical_rolls
        state = "ask for each face" if self.config.physical_rolls else "the program rolls"
        self.notify(f"Physical rolls: {state} (set physical_rolls in config.toml to keep it).")

    def action_share(self) -> None:
        """Share the fight with the players: the dialog shows the link."""
        from tracker.app import CombatTrackerApp
        from tracker.screens.share import share

        app = self.app
        assert isinstance(app, CombatTrackerApp)
        share(self, app.share)

    def action_help(self) -> None:
        from tracker.screens.help import HelpScreen

        path = str(self.config.path or "config.toml")
        keys = ENCOUNTER_KEYS + LINE_KEYS + SAVES_KEYS
        self.app.push_screen(HelpScreen(keys, self.config.keymap, path))

    def action_quit(self) -> None:
        self.app.exit()
