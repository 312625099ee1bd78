"""Small modal dialogs: a one-line prompt and a yes/no question.

Prompt (issue 4, "Prompts"): Enter applies, Escape cancels, and a bad entry
shows what is wrong inline and changes nothing — the dialog stays open with
the text kept so the GM can fix it.  The dialog does not know what the line
means: the caller's ``submit`` applies it and returns an error message or
None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Static

#: Applies the typed text; returns an error message to show, or None when done.
Submit = Callable[[str], str | None]


class PromptScreen(ModalScreen[None]):
    """Ask for one line; ``submit`` decides whether it was good."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        usage: str,
        submit: Submit,
        *,
        value: str = "",
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._usage = usage
        self._submit = submit
        self._value = value
        self._suggestions = list(suggestions)

    def compose(self):  # type: ignore[no-untyped-def]
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            yield Input(
                value=self._value,
                placeholder=self._usage,
                suggester=SuggestFromList(self._suggestions, case_sensitive=False)
                if self._suggestions
                else None,
                id="prompt-input",
            )
            yield Static(self._usage, id="prompt-message", classes="dialog-hint", markup=False)
            yield Static("Enter applies · Esc cancels", classes="dialog-keys", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self._submit(event.value.strip())
        if error:
            message = self.query_one("#prompt-message", Static)
            message.add_class("error")
            message.update(error)
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter = yes; n or Escape = no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self._question = question
        self._detail = detail

    def compose(self):  # type: ignore[no-untyped-def]
        with Vertical(classes="dialog"):
            yield Label(self._question, classes="dialog-title", markup=False)
            if self._detail:
                yield Static(self._detail, classes="dialog-hint", markup=False)
            yield Static("y / Enter: yes · n / Esc: no", classes="dialog-keys", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
