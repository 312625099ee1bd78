"""The line the ``:`` command line and every prompt type into: Tab takes the
first completion the engine offers (:mod:`rules.engine.complete`), Tab
again the next one, → at the end the inline suggestion; Up/Down walk the
lines typed there before.  Tab never moves the focus out of the line, even
when nothing completes."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding
from textual.suggester import Suggester

from tracker.bindings import LINE_KEYS, bindings
from tracker.history import Recall
from tracker.widgets.plain_input import PlainInput

#: the completed lines (or prompt texts) for what is typed, first first
Completions = Callable[[str], list[str]]


def no_completions(_: str) -> list[str]:
    """What a line with nothing to complete offers."""
    return []


class CompletionSuggester(Suggester):
    """The first completion as the inline suggestion, when it only extends
    the word being typed (after a space nothing is suggested: Tab shows
    a keyword's choices there)."""

    def __init__(self, completions: Completions) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._completions = completions

    async def get_suggestion(self, value: str) -> str | None:
        # the engine's words (shlex, the grammar) load with the first place to type
        from rules.engine.complete import current_word

        if not current_word(value)[1]:
            return None
        found = self._completions(value)
        completed = found[0] if found else None
        # inline suggestions can only extend what is typed; Tab does the rest
        return completed if completed and completed.startswith(value) else None


class CompletingInput(PlainInput):
    """Tab completes (again: the next completion) instead of moving focus; Up/Down recall."""

    BINDINGS = [
        Binding("tab", "accept_suggestion", "Complete", show=False, priority=True),
        *bindings(LINE_KEYS),
    ]

    def __init__(
        self,
        completions: Completions = no_completions,
        *,
        value: str = "",
        placeholder: str = "",
        id: str | None = None,
    ) -> None:
        super().__init__(
            value=value,
            placeholder=placeholder,
            suggester=CompletionSuggester(completions),
            id=id,
        )
        self._completions = completions
        #: the completions being cycled and the one shown
        self.cycle: tuple[list[str], int] | None = None
        #: the earlier lines Up/Down walk
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

    def cycle_hint(self) -> str:
        """``2 of 3 matches · Tab: next`` while Tab cycles through several, else ''."""
        cycle = self.cycle
        if cycle is None or self.value != cycle[0][cycle[1]] or len(cycle[0]) < 2:
            return ""
        return f"{cycle[1] + 1} of {len(cycle[0])} matches · Tab: next"
