"""The encounter screen's view: its panes, redrawn only where they changed,
the row cursor kept on the selected combatant, and action lines applied
through the controller (the dice faces asked first with physical rolls)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.reactive import Reactive
from textual.screen import Screen

from rules.engine.turns import on_deck
from rules.text import possessive
from tracker.applying import Action
from tracker.config import Config
from tracker.controller import EncounterController
from tracker.lines import Ask
from tracker.screens.quitting import quitting
from tracker.widgets.combatant import CombatantPane
from tracker.widgets.completing_input import Completions, no_completions
from tracker.widgets.footer import KeyFooter
from tracker.widgets.initiative import InitiativePane
from tracker.widgets.log import LogPane
from tracker.widgets.plain import plain
from tracker.widgets.too_small import HORIZONTAL, VERTICAL, TooSmall, size_class, too_small

if TYPE_CHECKING:
    from textual.timer import Timer

    from rules.encounter import Encounter
    from saves.live import LiveEncounter
    from tracker.history import History

# Dialogs are imported when first opened: the first frame does not need them.

#: how long the log's border says what an undo or redo reversed
REVERSAL_SECONDS = 6.0

#: what a dialog says when the GM cancels it
CANCELLED = "Cancelled: nothing changed."

EMPTY_HINT = (
    "No combatants yet. Press a to add some, or : then  add Goblin count 3 hp 2d6+2  "
    "— then s to start the fight.  ? lists every key."
)


class EncounterView(Screen[None]):
    """One live encounter's panes; an action line → only changed rows/lines."""

    HORIZONTAL_BREAKPOINTS = HORIZONTAL
    VERTICAL_BREAKPOINTS = VERTICAL

    #: ``Round 2 · Goblin 3's turn`` for whatever shows it.  Not repainting:
    #: ``Screen``'s own reactive repaints the whole screen on each ``n``.
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    def __init__(self, live: LiveEncounter, config: Config) -> None:
        # the size classes and compact columns from the start: set after
        # mounting, each restyles and re-lays out the whole screen
        width, height = self.app.size
        super().__init__(classes=f"{size_class(width, HORIZONTAL)} {size_class(height, VERTICAL)}")
        self.live = live
        self.config = config
        self._available: tuple[bool, ...] = ()
        # composed in compose; held, not queried: a screen mounted while the
        # app quits (keys still arriving) has lost its children by then
        self.table = InitiativePane(id="initiative", compact=width < 120, hint=EMPTY_HINT)
        self._details = CombatantPane(id="combatant")
        self._log = LogPane(id="log")
        self.controller = EncounterController(
            live, lambda: self.table.selected_index, config.follow_turn, config.keep_marks
        )
        self._typed: History | None = None
        self._reversal_timer: Timer | None = None

    @property
    def typed(self) -> History:
        """What the GM typed in the ``:`` line and the prompts (read when first used)."""
        if self._typed is None:
            from tracker.history import History

            warn = partial(self.notify, severity="warning", timeout=8, markup=False)
            self._typed = History(notice=warn)
        return self._typed

    def compose(self) -> ComposeResult:
        # the panes are the screen's grid cells (app.tcss); no containers:
        # each widget costs the first frame its styling, layout and paint
        yield self.table
        yield self._details
        yield self._log
        yield KeyFooter()
        if too_small(self.app.size):  # else mounted when the terminal shrinks
            yield TooSmall()

    def on_resize(self) -> None:
        self.table.set_compact(self.size.width < 120)
        if too_small(self.size) and not self.query(TooSmall) and not quitting(self):
            self.mount(TooSmall())

    @property
    def too_small(self) -> bool:
        """Below the smallest usable size the panes are hidden (app.tcss)."""
        return too_small(self.size or self.app.size)

    def on_mount(self) -> None:
        if quitting(self):
            return  # opened as the app quits (q among keys still arriving)
        self._log.set_titles(plain("Log"), plain(""))
        self.refresh_panes()
        self.table.focus()
        # a fresh snapshot between keys, never on the start-up path
        self.set_interval(2.0, self._compact_if_due)

    def _compact_if_due(self) -> None:
        warning = self.controller.compact_if_due()
        if warning:
            self.notify(warning, severity="warning", markup=False)

    @property
    def encounter(self) -> Encounter:
        return self.controller.encounter

    def clear_marks(self) -> None:
        """Forget every mark (Escape)."""
        if self.controller.clear_marks():
            self._show_mark_rows()

    def _show_mark_rows(self) -> None:
        self.refresh_bindings()  # keys greyed by whom they act on (Esc, A)
        marked = self.controller.marked()
        self.table.show(self.encounter, marked, self.controller.rows())
        self._show_marks(marked)
        if self.controller.selected_group():  # its member list shows the marks
            self._show_selected(marked)

    def _show_marks(self, marked: list[str]) -> None:
        # in the pane's header: one line repainted (its border: the whole pane);
        # the down among the targets said, so a fully downed group's mark
        # (all its members: tracker.marks) does not read as new marks
        down = {c.name for c in self.encounter.combatants if c.down} if marked else set()
        self.table.set_marks_note(len(marked), sum(1 for n in marked if n in down))

    def refresh_panes(self) -> None:
        """Redraw what changed: rows, new log lines, the selected combatant."""
        enc = self.encounter
        ctl = self.controller
        ctl.prune_marks()
        table = self.table
        # the cursor is the truth: its Selected message may still be queued
        drawn = table.selected_name
        if drawn is not None and drawn in ctl.names():  # gone: renamed (followed) or removed
            ctl.remember(drawn)
        turn = ctl.turn_moved()  # the turn passed: in view (and selected; marks may clear)
        # a marked group: its standing members now (tracker.marks)
        marked = ctl.marked()
        table.show(enc, marked, ctl.rows())
        if turn is not None:
            table.reveal_turn(turn)
        index = ctl.follow()  # None: the selection is whoever the cursor is on
        if index is not None and table.cursor_row != index:
            table.move_cursor(row=index, animate=False)
        self._log.show(self.live.log, self.live.log_earlier, self.live.combats_earlier())
        self._show_selected(marked)
        active = enc.active
        deck = on_deck(enc)
        if enc.started and active is not None:
            title = f"Round {enc.round} · {possessive(active.name)} turn"
        elif enc.round:  # ``end`` keeps the round count
            title = f"Combat over after round {enc.round} · s: new fight"
        else:
            title = "Not started · s starts the fight"
        # who is next too, for when the ▷ row is out of view (a new round)
        after = "" if deck is None else f" · next {enc.combatants[deck].name}"
        table.set_titles(plain(title + after), plain(enc.name))  # a changed one: its border row
        self._show_marks(marked)
        self.sub_title = str(plain(f"{enc.name} · {title}"))
        # the footer rebuilds itself on refresh_bindings: only when availability changed
        available, was = ctl.availability(), self._available
        self._available = available
        if was and available != was:  # (mounting shows the right footer already)
            self.refresh_bindings()

    def _show_selected(self, marked: list[str] | None = None) -> None:
        """The combatant pane: the selected combatant, or the selected group's
        members (*marked*: whom the marks stand for, when already known)."""
        group = self.controller.selected_group()
        if group:
            active = self.controller.active()
            name = None if active is None else active.name
            marks = self.controller.marked() if marked is None else marked
            self._details.show_group(group, name, marks)
            return
        current = self.controller.selected()
        delayed = current is not None and current.name in self.encounter.delayed
        self._details.show(current, self.encounter.ruleset, delayed)

    def action_select_active(self) -> None:
        """The selection jumps to whoever's turn it is."""
        row = self.controller.active_row()
        if row is not None:
            self.table.move_cursor(row=row)
            self._selection_moved()

    def on_initiative_pane_selected(self, event: InitiativePane.Selected) -> None:
        self._selection_moved()

    def _selection_moved(self) -> None:
        """Remember and show the cursor's combatant now: fast keys never act on a stale one."""
        self.controller.cursor_moved()
        self._show_selected()
        self.refresh_bindings()  # keys greyed by whom they act on (A on the attacker)

    def apply(self, line: str, then: Callable[[], None] | None = None) -> str | None:
        """Apply one action line (its dice asked first with physical rolls); an error, or None."""
        if self.config.physical_rolls:
            parsed = self.controller.dice_needed(line)
            if isinstance(parsed, str):
                return parsed
            action, needed = parsed
            if needed:
                from tracker.screens.faces import FacesScreen

                self.call_later(
                    self.app.push_screen,
                    FacesScreen(f"Dice for: {line}", needed),
                    partial(self._apply_with_faces, action, then),
                )
                return None
        return self.apply_now(line, then)

    def _apply_with_faces(
        self, action: Action, then: Callable[[], None] | None, faces: list[int] | None
    ) -> None:
        if faces is None:
            self.notify(CANCELLED)
            return
        self.report(self.apply_now(action, then, faces))

    def apply_now(
        self,
        line_or_action: str | Action,
        then: Callable[[], None] | None = None,
        faces: list[int] | None = None,
    ) -> str | None:
        """Apply *line_or_action* with the GM's *faces* (the program rolls the rest); an error."""
        error = self.controller.do(line_or_action, faces or ())
        if error is not None:
            return error
        if then is not None:
            then()
        self.stepped()
        return None

    def stepped(self) -> None:
        """After a step: the panes, and what an undo or redo reversed."""
        self.refresh_panes()
        self._tell_reversal(self.controller.reversal)

    def _tell_reversal(self, notice: str | None = None) -> None:
        """*notice* (``Undone: Ogre takes 7 fire``) in the log's bottom border,
        under the lines it took away or brought back, in place of the one
        before (a held ctrl+z stacks nothing up); gone after a few seconds,
        or at once with an action (None)."""
        if self._reversal_timer is not None:
            self._reversal_timer.stop()
            self._reversal_timer = None
        self._log.set_titles(plain("Log"), plain(notice or ""))
        if notice:
            self._reversal_timer = self.set_timer(REVERSAL_SECONDS, self._tell_reversal)

    def report(self, error: str | None) -> None:
        """Show an error from a key that has no prompt of its own."""
        if error:
            self.notify(error, severity="error", timeout=6, markup=False)

    def ask(self, action: str) -> None:
        """Open key *action*'s prompt or choice; the marks it used clear as the setting says."""
        ask = self.controller.ask(action)
        if ask is not None:
            then = self.controller.used_marks if ask.uses_marks else None
            if ask.choices:
                self._choose(ask, then)
            else:
                self.prompt(ask, then, kind=action)

    def prompt(self, ask: Ask, then: Callable[[], None] | None = None, *, kind: str = "") -> None:
        """Ask for one line; *ask* turns it into an action line; *then*
        runs once it was applied.  *kind*: the history Up/Down walk (and
        the applied line joins).  Damage can take a save per target
        (``tracker.screens.saves_form``)."""
        from tracker.screens.prompt import EXAMPLES, PromptScreen

        def submit(text: str) -> str | None:
            if not text and not ask.blank:
                return f"type {ask.usage} — or Esc to cancel"
            return self.apply(ask.line(text), then)

        history = self.typed.kind(kind) if kind else None
        example = EXAMPLES.get(kind, "")
        complete: Completions = no_completions
        if self.controller.prompt_completes(ask):
            complete = partial(self.controller.prompt_completions, ask)
        if ask.saves is None:
            prompt = PromptScreen(
                ask.title, ask.usage, submit, example=example, complete=complete, history=history
            )
            self.app.push_screen(prompt)
            return
        from tracker.screens.saves_form import DamagePromptScreen

        build = ask.saves

        def saves(text: str, chosen: dict[str, str]) -> str | None:
            return self.apply(build(text, chosen), then)

        def check(text: str) -> str | None:
            refused = self.controller.dice_needed(ask.line(text))
            return refused if isinstance(refused, str) else None

        self.app.push_screen(
            DamagePromptScreen(
                ask.title,
                ask.usage,
                submit,
                ask.names,
                saves,
                example=example,
                complete=complete,
                history=history,
                check=check,
            )
        )

    def _choose(self, ask: Ask, then: Callable[[], None] | None) -> None:
        from tracker.screens.prompt import ChoiceScreen

        def chosen(choice: str | None) -> None:
            if choice is not None:
                self.report(self.apply(ask.line(choice), then))

        self.app.push_screen(ChoiceScreen(ask.title, list(ask.choices)), chosen)
