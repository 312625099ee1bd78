"""Damage with saves: ``ctrl+s`` in the damage prompt opens a small form
listing each target with full, half or none; Enter applies one line,
``damage TARGETS AMOUNT half T none T``: one roll, one step, one undo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, Static

from tracker.bindings import SAVES_KEYS, Key, bindings
from tracker.lines import SAVES
from tracker.screens.dialog import Dialog, keys_row
from tracker.screens.prompt import PromptScreen, Submit
from tracker.screens.quitting import quitting
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.completing_input import Completions, no_completions
from tracker.widgets.plain import plain
from tracker.widgets.plain_input import PlainInput
from tracker.widgets.saves_list import SavesList

if TYPE_CHECKING:
    from tracker.history import Kept

#: Applies the saves chosen (target → one of ``SAVES``); an error or None.
SubmitSaves = Callable[[dict[str, str]], str | None]

_OPEN: Key = SAVES_KEYS[0]
_FORM_KEYS = SAVES_KEYS[1:]


def saves_hint(targets: int) -> str:
    """What the damage prompt on *targets* says about the saves form."""
    if targets == 1:
        return "Enter: takes it all · ctrl+s: a save (full / half / none)"
    return "Enter: everyone takes it all · ctrl+s: saves per target (full / half / none)"


class SavesScreen(TakesTyping, Dialog[bool]):
    """Each target's save; dismisses True once the line was applied, False on Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "apply", "Apply", show=False),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        *bindings(_FORM_KEYS),
    ]

    def __init__(
        self,
        title: str,
        names: Sequence[str],
        submit: SubmitSaves,
        saves: dict[str, str] | None = None,
    ) -> None:
        """*saves*: the choices to start from, changed in place (the damage
        prompt keeps them across an Esc back to the amount)."""
        super().__init__()
        self._title = title
        self._names = list(names)
        self._submit = submit
        #: each target's save, in the order of play
        self.saves: dict[str, str] = (
            dict.fromkeys(self._names, SAVES[0]) if saves is None else saves
        )
        self._list = SavesList(self._names, self.saves, id="saves")
        #: the save ``f`` ``h`` ``n`` just set and the row it moved on to:
        #: ``a`` right after copies that save, not the next row's (``h`` ``a``
        #: is "every one saved", as the GM says it)
        self._just_set: tuple[str, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield self._list
            yield Static(
                "space / → ←: cycle · f h n: full, half, none (then the next) · "
                "a: all as the one just set · ↑↓ j k: move",
                id="saves-message",
                classes="dialog-hint",
                markup=False,
            )
            yield keys_row("Enter applies · Esc: back to the amount")

    def on_mount(self) -> None:
        self._list.focus()

    @property
    def rows(self) -> list[str]:
        """Each target's line as the form shows it, in the order of play."""
        return [self._list.row_text(i) for i in range(len(self._names))]

    def _set(self, index: int, save: str) -> None:
        self.saves[self._names[index]] = save
        self._list.redraw_row(index)

    def action_cycle(self, step: int) -> None:
        index = self._list.cursor
        self._just_set = None
        if self._names:
            save = self.saves[self._names[index]]
            self._set(index, SAVES[(SAVES.index(save) + step) % len(SAVES)])

    def action_choose(self, save: str) -> None:
        index = self._list.cursor
        if self._names:
            self._set(index, save)
            self._list.move_to(index + 1)
            self._just_set = (save, self._list.cursor)

    def action_all_alike(self) -> None:
        """Every row takes the save just set by ``f`` ``h`` ``n`` (the cursor
        not moved since), else the highlighted row's: a horde that mostly
        saved is ``h``, then ``a``, then the few that failed."""
        if self._names:
            cursor = self._list.cursor
            save = self.saves[self._names[cursor]]
            if self._just_set is not None and self._just_set[1] == cursor:
                save = self._just_set[0]
            self.saves.update(dict.fromkeys(self._names, save))
            self._list.refresh()

    def action_move(self, step: int) -> None:
        self._just_set = None
        self._list.action_move(step)

    def action_apply(self) -> None:
        if quitting(self):
            return
        error = self._submit(dict(self.saves))
        if error:
            self.settle(error, "#saves-message")
        else:
            self.dismiss(True)

    def action_back(self) -> None:
        self.dismiss(False)


class DamagePromptScreen(PromptScreen):
    """The damage prompt: Enter applies the damage to every target; ``ctrl+s``
    takes the amount (refused first if it is not one) to the saves form, and
    closes once the form applied it.  Its title stays on one line
    (``tracker.lines.targets_title``: a long one was laid out and repainted
    on every key)."""

    BINDINGS: ClassVar[list[BindingType]] = [_OPEN.binding()]

    def __init__(
        self,
        title: str,
        usage: str,
        submit: Submit,
        names: Sequence[str],
        saves: Callable[[str, dict[str, str]], str | None],
        *,
        example: str = "",
        complete: Completions = no_completions,
        history: Kept | None = None,
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        """*saves*: applies the amount with each target's save; *complete*:
        what Tab offers; *check*: why it would fail."""
        super().__init__(title, usage, submit, example=example, complete=complete, history=history)
        self._names = list(names)
        self._saves = saves
        self._check = check
        #: the saves chosen so far: Esc from the form and ctrl+s again (a new
        #: amount too: a save is per target) shows them, not every row at full
        #: (Enter would have hit the ones that saved with all of it)
        self._chosen: dict[str, str] = dict.fromkeys(self._names, SAVES[0])

    def usage_hint(self) -> str:
        return f"{self._usage} · {saves_hint(len(self._names))}"

    def action_saves(self) -> None:
        text = self.query_one("#prompt-input", PlainInput).value.strip()
        if not text:
            self.settle("type the damage first (e.g. 8d6 fire), then ctrl+s", "#prompt-message")
            return
        error = self._check(text) if self._check is not None else None
        if error:  # said here, before a form of saves for an amount that fails
            self.settle(error, "#prompt-message")
            return

        def applied(done: bool | None) -> None:
            if done and not quitting(self):
                if self._history is not None:
                    self._history.add(text)
                self.dismiss(None)

        count = len(self._names)
        title = f"Saves against {text} → {count} target{'s' if count != 1 else ''}"
        self.app.push_screen(
            SavesScreen(title, self._names, lambda chosen: self._saves(text, chosen), self._chosen),
            applied,
        )
