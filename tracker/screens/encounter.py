"""The encounter screen's keys: each sends one action line built by the
controller, or opens the prompt or dialog that builds it
(``tracker.screens.encounter_dialogs``); a key that does not apply now is
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

# The command line and the help are imported when first opened (not for the first frame).


def _asks(action: str) -> Callable[[EncounterScreen], None]:
    """The method of a key that opens *action*'s prompt."""
    return lambda screen: screen.ask(action)


def _sends(action: str, on_targets: bool = False) -> Callable[[EncounterScreen], None]:
    """The method of a key that sends *action*'s line (:meth:`EncounterScreen.send`)."""
    return lambda screen: screen.send(action, on_targets)


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
        """A greyed key pressed anyway says why (keys bubble here before the bindings)."""
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

    # the keys that open a dialog are its functions, called as methods
    action_start = dialogs.start
    action_end_combat = dialogs.end_combat
    action_remove_defeated = dialogs.remove_defeated
    action_add = dialogs.add
    action_edit = dialogs.edit
    action_remove = dialogs.remove
    action_move = dialogs.move
    action_save_point = dialogs.save_point
    # the keys that prompt for the rest of their line (``uncondition``,
    # ``unpersist``: pick one of the targets' conditions or persistent damage,
    # ended on each that has it: ``tracker.endings``)
    action_damage = _asks("damage")
    action_heal = _asks("heal")
    action_temp = _asks("temp")
    action_persistent = _asks("persistent")
    action_condition = _asks("condition")
    action_uncondition = _asks("uncondition")
    action_unpersist = _asks("unpersist")
    action_initiative = _asks("initiative")
    action_roll = _asks("roll")
    action_attack = _asks("attack")
    # the keys that send their line at once: ``delay`` the active combatant,
    # ``return`` the selected delaying one (after the active one)
    action_next_turn = _sends("next_turn")
    action_previous_turn = _sends("previous_turn")
    action_order_down = _sends("order_down")
    action_order_up = _sends("order_up")
    action_delay = _sends("delay")
    action_return = _sends("return")
    # the players' view: the targets leave it, show as "Unknown creature", show in full
    action_hide = _sends("hide", on_targets=True)
    action_mask = _sends("mask", on_targets=True)
    action_reveal = _sends("reveal", on_targets=True)

    def action_select_down(self) -> None:
        self._select(1)

    def action_select_up(self) -> None:
        self._select(-1)

    def _select(self, delta: int) -> None:
        row = self.controller.step(delta)
        if row is not None:
            self.table.move_cursor(row=row)
        self._selection_moved()

    def action_toggle_mark(self) -> None:
        if self.controller.toggle_mark():
            self._show_mark_rows()

    def action_clear_marks(self) -> None:
        self.clear_marks()

    def action_toggle_group(self) -> None:
        """Expand the collapsed group under the cursor, or fold the member's group."""
        if self.controller.toggle_group():
            self.refresh_panes()

    def action_details_down(self) -> None:
        self._details.scroll_relative(y=3, animate=False)

    def action_details_up(self) -> None:
        self._details.scroll_relative(y=-3, animate=False)

    def action_log_up(self) -> None:
        self._log.scroll_pages(-1)

    def action_log_down(self) -> None:
        self._log.scroll_pages(1)

    def action_log_newest(self) -> None:
        """Back to the newest entry (where each step puts the log anyway)."""
        self._log.scroll_to(y=self._log.max_scroll_y, animate=False, immediate=True)

    def send(self, action: str, on_targets: bool = False) -> None:
        """Send key *action*'s line (*on_targets*: the marks then clear as ``keep_marks`` says)."""
        ctl = self.controller
        then = ctl.used_marks if on_targets and ctl.marks_used() else None
        line = ctl.line(action)
        if line is not None:
            self.report(self.apply(line, then))

    async def action_command_line(self) -> None:
        """Open the ``:`` line (mounted the first time it is used)."""
        from rules.engine.complete import known_in
        from rules.engine.grammar import USAGE, VERBS
        from tracker.screens.typeahead import release_keys
        from tracker.widgets.command_line import CommandLine

        found = self.query(CommandLine)
        if found:
            command = found.first()
        else:
            command = CommandLine(
                VERBS,
                USAGE,
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
            self.stepped()

    def action_undo(self) -> None:
        self._history(undo=True)

    def action_redo(self) -> None:
        self._history(undo=False)

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

        self.app.push_screen(HelpScreen(ENCOUNTER_KEYS + LINE_KEYS + SAVES_KEYS, self.config))

    def action_quit(self) -> None:
        self.app.exit()
