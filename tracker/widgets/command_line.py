"""The command line (``:``): one action line, completed as the engine
completes it (:mod:`rules.engine.complete`; Tab or → accepts, Tab again
cycles), Up/Down through the lines typed before, with the verb's usage or
the last error below.  It only posts :class:`CommandLine.Submitted` /
:class:`CommandLine.Cancelled`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Input, Static

from rules.engine.complete import Known, complete, completions
from tracker.bindings import LINE_KEYS, bindings
from tracker.history import Kept, Recall
from tracker.widgets.plain import visible
from tracker.widgets.plain_input import PlainInput


class _ActionSuggester(Suggester):
    def __init__(self, verbs: Sequence[str], known: Callable[[], Known]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._verbs = verbs
        self._known = known

    async def get_suggestion(self, value: str) -> str | None:
        completed = complete(value, (), self._verbs, self._known())
        # inline suggestions can only extend what is typed; Tab does the rest
        return completed if completed and completed.startswith(value) else None


class CommandInput(PlainInput):
    """Tab completes (again: the next completion) instead of moving focus; Up/Down recall."""

    BINDINGS = [
        Binding("tab", "accept_suggestion", "Complete", show=False, priority=True),
        Binding("escape", "cancel", "Cancel", show=False),
        *bindings(LINE_KEYS),
    ]

    def __init__(
        self,
        completions: Callable[[str], list[str]],
        *,
        placeholder: str = "",
        suggester: Suggester | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(placeholder=placeholder, suggester=suggester, id=id)
        self._completions = completions
        #: the completions being cycled and the one shown
        self.cycle: tuple[list[str], int] | None = None
        #: the earlier lines Up/Down walk (set each time the line opens)
        self.recall = Recall(())

    def action_history_back(self) -> None:
        self._show(self.recall.back(self.value))

    def action_history_forward(self) -> None:
        self._show(self.recall.forward())

    def _show(self, line: str | None) -> None:
        if line is not None:
            self.cycle = None
            self.value = line
            self.cursor_position = len(line)

    def action_accept_suggestion(self) -> None:
        # Tab is a priority binding, run as it reaches the app: keys typed
        # just before it may still wait in this input's queue, so complete
        # once they are in the line
        self.call_later(self._complete)

    def _complete(self) -> None:
        cycle = self.cycle
        if cycle is not None and self.value == cycle[0][cycle[1]]:
            options, index = cycle[0], (cycle[1] + 1) % len(cycle[0])
        else:
            options, index = self._completions(self.value), 0
            if not options:
                self.cycle = None
                return
        self.cycle = (options, index)
        self.value = options[index]
        self.cursor_position = len(self.value)

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
            suggester=_ActionSuggester(verbs, fight),
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
        cycle = self.input.cycle
        if cycle is not None and event.value == cycle[0][cycle[1]] and len(cycle[0]) > 1:
            hint = f"{cycle[1] + 1} of {len(cycle[0])} matches · Tab: next   {hint}"
        self.show_hint(hint)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Submitted(event.value.strip()))
