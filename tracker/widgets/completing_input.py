"""The line the ``:`` command line and every prompt type into: Tab completes
the word at the cursor as the engine completes the text before it
(:mod:`rules.engine.complete`): the only completion, followed by a space
(the next word is typed at once), or the first of several, Tab again the
next one (no space: the word is still being chosen); → at the end takes
the inline suggestion; Up/Down walk the lines typed there before.  Tab
never moves the focus out of the line, even when nothing completes."""

from __future__ import annotations

import re
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
        #: the completions being cycled (each the text before the cursor),
        #: the one shown, and the text after the cursor they leave as it was
        self.cycle: tuple[list[str], int, str] | None = None
        #: the line and cursor right after a completion added its space: a
        #: comma typed there takes the space's place (a list goes on)
        self._spaced: tuple[str, int] | None = None
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
        cursor = self.cursor_position
        before, after = self.value[:cursor], self.value[cursor:]
        cycle = self.cycle
        if cycle is not None and self._shows(cycle):
            options, index, after = cycle[0], (cycle[1] + 1) % len(cycle[0]), cycle[2]
        else:
            options, index = self._completions(before), 0
            if not options:
                self.cycle = None
                return
            after = _rest_of_word(after, options)
        if len(options) > 1:  # still choosing: Tab again shows the next one
            self.cycle = (options, index, after)
            self._put(options[index], after)
            return
        self.cycle = None
        self._put(*taken(options[0], after))
        if not after:
            self._spaced = (self.value, self.cursor_position)

    def _put(self, before: str, after: str) -> None:
        """The line *before* + *after*, the cursor between them."""
        self.value = before + after
        self.cursor_position = len(before)

    def _shows(self, cycle: tuple[list[str], int, str]) -> bool:
        """Whether the line still shows *cycle*'s current completion, the cursor after it."""
        shown = cycle[0][cycle[1]]
        return self.value == shown + cycle[2] and self.cursor_position == len(shown)

    def insert_text_at_cursor(self, text: str) -> None:
        if text.startswith(",") and self._spaced == (self.value, self.cursor_position):
            # ``Ogre`` Tab then ``,``: the list goes on, ``Ogre,``
            self._put(self.value[: self.cursor_position - 1], "")
        self._spaced = None
        super().insert_text_at_cursor(text)

    def cycle_hint(self) -> str:
        """``2 of 3 matches · Tab: next`` while Tab cycles through several, else ''."""
        cycle = self.cycle
        if cycle is None or not self._shows(cycle):
            return ""
        return f"{cycle[1] + 1} of {len(cycle[0])} matches · Tab: next"


#: the rest of a word after the cursor: up to a space or a separator
_WORD_START = re.compile(r"[^\s,;]*")


def _rest_of_word(after: str, options: list[str]) -> str:
    """*after* (the line after the cursor) without the rest of the word the
    cursor is in when every one of *options* ends with it: ``fi|re`` Tab is
    ``fire``, not ``firere``; a rest no completion ends with stays."""
    found = _WORD_START.match(after)
    tail = found.group() if found else ""
    if tail and all(option.lower().endswith(tail.lower()) for option in options):
        return after[len(tail) :]
    return after


def taken(completed: str, after: str) -> tuple[str, str]:
    """The line on each side of the cursor once the only completion is
    taken: *completed* (the text before the cursor, completed) and *after*
    (the text after it).  The word is done, so the cursor goes on to the
    next one: after a space added at the end of the line, or after the
    space already there; before anything else (``,``), it stays put."""
    if not after:
        return completed + " ", ""
    if after[0].isspace():
        return completed + after[0], after[1:]
    return completed, after
