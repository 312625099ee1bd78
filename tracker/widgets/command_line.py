"""The command line (``:``): one action line, completed as the engine
completes it (:class:`tracker.widgets.completing_input.CompletingInput`:
Tab or → accepts, Tab again cycles), Up/Down through the lines typed
before, with the verb's usage or the last error below.  It only posts
:class:`CommandLine.Submitted` / :class:`CommandLine.Cancelled`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from rules.engine.complete import Known, completions
from tracker.history import Kept, Recall
from tracker.widgets.completing_input import CompletingInput
from tracker.widgets.plain import visible


class CommandInput(CompletingInput):
    """Esc closes the line."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def action_cancel(self) -> None:
        self.post_message(CommandLine.Cancelled())


class CommandLine(Vertical):
    """``:`` line with verb and name completion and an inline hint/error."""

    @dataclass
    class Submitted(Message):
        line: str

    class Cancelled(Message):
        pass

    def __init__(
        self,
        verbs: Sequence[str],
        usage: dict[str, str],
        names: Callable[[], Sequence[str]],
        *,
        known: Callable[[], Known] | None = None,
        history: Kept | None = None,
        id: str | None = None,
    ) -> None:
        """*known*: what completion offers (default: *names*); *history*: what Up/Down recall."""
        super().__init__(id=id)
        self._usage = usage
        self.history = history
        fight = known or (lambda: Known(names()))
        self.input = CommandInput(
            lambda value: completions(value, (), verbs, fight()),
            placeholder="action, e.g. damage Goblin 2d6+3 fire   (Tab completes, Esc closes)",
            id="command-input",
        )
        self.hint = Static("", id="command-hint", markup=False)

    def compose(self) -> ComposeResult:
        yield self.hint
        yield self.input

    def open(self) -> None:
        self.display = True
        self.input.value = ""
        self.input.recall = Recall(() if self.history is None else self.history.entries())
        self.show_hint("")
        self.input.focus()

    def show_error(self, message: str) -> None:
        self.hint.set_class(True, "error")
        self.hint.update(visible(message))

    def show_hint(self, text: str) -> None:
        self.hint.set_class(False, "error")
        self.hint.update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        verb = event.value.strip().split(" ", 1)[0].lower()
        hint = self._usage.get(verb, "")
        cycling = self.input.cycle_hint()
        self.show_hint(f"{cycling}   {hint}" if cycling else hint)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Submitted(event.value.strip()))
