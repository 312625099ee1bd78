"""Small modal dialogs: a one-line prompt (a bad entry shows what is wrong
inline, the text kept; Tab completes it as the engine completes the line
it ends), a yes/no question, a pick-one list and a notice dialog.  The
caller's ``submit`` returns an error message or None."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from tracker.bindings import bindings
from tracker.screens.dialog import Dialog, keys_row, say
from tracker.screens.quitting import quitting
from tracker.screens.scrolling import SCROLL_KEYS, LineScrolling, scroll_keys_text
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.completing_input import CompletingInput, Completions, no_completions
from tracker.widgets.plain import plain

if TYPE_CHECKING:
    from textual.widgets import OptionList

    from tracker.history import Kept

#: Applies the typed text; returns an error message to show, or None when done.
Submit = Callable[[str], str | None]

#: What each prompt key's field shows before anything is typed: an answer
#: the GM could give (the usage is on the line below it, and stays while
#: typing), by key action; the save point prompt's too.
EXAMPLES = {
    "damage": "2d6+3 fire",
    "heal": "2d4+2",
    "temp": "5 rounds 3",
    "persistent": "1d6 fire",
    "condition": "frightened 2 rounds 3",
    "attack": "with +5 damage 1d8+3 slashing",
    "initiative": "15",
    "roll": "d20+5 adv 1",
    "save_point": "before the bridge",
}


class PromptScreen(TakesTyping, Dialog[None]):
    """Ask for one line; ``submit`` decides whether it was good.  With a
    *history*, Up/Down recall the lines this kind of prompt took before, and
    a line ``submit`` accepted is kept there.  *complete*: what Tab offers
    for the text typed (the engine's completion of the line the text ends,
    ``tracker.controller.Controller.prompt_completions``).  The *usage* is
    the message line's while nothing goes wrong; the empty field shows an
    *example* (``e.g. 2d6+3 fire``), not the usage a second time."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        usage: str,
        submit: Submit,
        *,
        value: str = "",
        example: str = "",
        complete: Completions = no_completions,
        history: Kept | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self._usage = usage
        self._example = example
        self._submit = submit
        self._value = value
        self._complete = complete
        self._history = history
        #: the message line shows which completion Tab is on
        self._cycling = False

    def compose(self) -> ComposeResult:
        example = f"e.g. {self._example}" if self._example else ""
        field = CompletingInput(
            self._complete, value=self._value, placeholder=example, id="prompt-input"
        )
        if self._history is not None:
            field.recall = self._history.recall()
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield field
            yield Static(plain(self.usage_hint()), id="prompt-message", classes="dialog-hint")
            completes = self._complete is not no_completions
            yield keys_row(f"Enter applies{' · Tab completes' if completes else ''} · Esc cancels")

    def usage_hint(self) -> str:
        """What the message line says while nothing goes wrong."""
        return self._usage

    def on_input_changed(self, event: Input.Changed) -> None:
        if not isinstance(event.input, CompletingInput):
            return
        cycling = event.input.cycle_hint()
        if cycling or self._cycling:  # an error shown stays until then
            self._cycling = bool(cycling)
            hint = f"{cycling}   {self.usage_hint()}" if cycling else self.usage_hint()
            say(self.query_one("#prompt-message", Static), hint, error=False)

    def entered(self, text: str, field: Input) -> None:
        error = self._submit(text)
        if not error and self._history is not None:
            self._history.add(text)
        self.settle(error, "#prompt-message")


class ConfirmScreen(TakesTyping, Dialog[bool]):
    """A yes/no question; Enter answers no to a *destructive* one, so a
    reflexive Enter never destroys anything."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
        Binding("enter", "default", "Default", show=False),
    ]

    def __init__(self, question: str, detail: str = "", *, destructive: bool = False) -> None:
        super().__init__()
        self._question = question
        self._detail = detail
        self._default = not destructive

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self._question), classes="dialog-title")
            if self._detail:
                yield Static(plain(self._detail), classes="dialog-hint")
            keys = (
                "y / Enter: yes · n / Esc: no" if self._default else "y: yes · n / Enter / Esc: no"
            )
            yield keys_row(keys, id="confirm-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def action_default(self) -> None:
        self.dismiss(self._default)


class ChoiceScreen(TakesTyping, Dialog[str | None]):
    """Pick one of a few choices: arrows or j/k and Enter, or 1–9; Escape dismisses None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        *(Binding(str(n), f"pick({n - 1})", str(n), show=False) for n in range(1, 10)),
    ]

    def __init__(self, title: str, choices: Sequence[str], hint: str = "") -> None:
        super().__init__()
        self._title = title
        self._choices = list(choices)
        self._hint = hint

    def compose(self) -> ComposeResult:
        from textual.widgets import OptionList

        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield OptionList(
                *[
                    plain(f"{n}  {c}" if n <= 9 else f"   {c}")
                    for n, c in enumerate(self._choices, 1)
                ],
                id="choices",
            )
            if self._hint:
                yield Static(plain(self._hint), classes="dialog-hint")
            yield keys_row("Enter / 1–9: pick · ↑↓ j k: move · Esc: cancel")

    def on_mount(self) -> None:
        from textual.widgets import OptionList

        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not quitting(self):
            self.dismiss(self._choices[event.option_index])

    def action_move(self, step: int) -> None:
        from textual.widgets import OptionList

        options = self.query_one(OptionList)
        options.action_cursor_down() if step > 0 else options.action_cursor_up()

    def action_pick(self, index: int) -> None:
        if index < len(self._choices):
            self.dismiss(self._choices[index])


class NoticeScreen(LineScrolling, Dialog[None]):
    """Notices the GM must read (recovery, config problems) in one dialog
    that scrolls as the help screen does (j / k, the arrows)."""

    BINDINGS = [*bindings(SCROLL_KEYS), Binding("escape,enter,q", "close", "Close")]

    def __init__(
        self, title: str, notices: Sequence[str], keymap: Mapping[str, str] | None = None
    ) -> None:
        """*keymap*: the user's, so the keys row names the scroll keys as bound."""
        super().__init__()
        self._title = title
        self._notices = list(notices)
        self._keymap = keymap or {}

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        with Vertical(classes="dialog notices"):
            yield Label(plain(self._title), classes="dialog-title")
            with VerticalScroll(id="notices"):
                for notice in self._notices:
                    yield Static(plain(f"• {notice}"), classes="notice")
            yield keys_row(f"Enter / Esc: close · {scroll_keys_text(self._keymap)}: scroll")

    def on_mount(self) -> None:
        self.query_one("#notices").focus()
