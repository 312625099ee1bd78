"""Area damage with saves: the damage prompt on two targets or more takes
``ctrl+s`` after the amount, and one small form lists each target with full,
half or none (space / → / ← cycle; f, h, n set it and go to the next row).
Enter applies one line, ``damage TARGETS AMOUNT half T none T``: one roll,
one step, one undo.  The line is the controller's (``tracker.lines``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static

from tracker.bindings import SAVES_KEYS, Key, bindings
from tracker.lines import SAVES
from tracker.screens.prompt import PromptScreen, Submit, settle
from tracker.screens.quitting import QuietWhenQuitting, quitting
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.plain import PlainInput, plain, visible

if TYPE_CHECKING:
    from tracker.history import Kept

#: Applies the saves chosen (target → one of ``SAVES``); an error or None.
SubmitSaves = Callable[[dict[str, str]], str | None]

#: How each choice is shown beside the name.
SHOWN = {"full": "■ full", "half": "◧ half", "none": "□ none"}

_OPEN: Key = SAVES_KEYS[0]
_FORM_KEYS = SAVES_KEYS[1:]


def saves_hint() -> str:
    """What the damage prompt says about the saves form."""
    return "Enter: everyone takes it all · ctrl+s: saves per target (full / half / none)"


class SavesScreen(TakesTyping, QuietWhenQuitting, ModalScreen[bool]):
    """Each target's save for one damage amount; dismisses True once the
    line was applied, False when the GM went back (Esc)."""

    DEFAULT_CSS = """
    SavesScreen #saves {
        height: auto;
        max-height: 14;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        *bindings(_FORM_KEYS),
    ]

    def __init__(self, title: str, names: Sequence[str], submit: SubmitSaves) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._names = list(names)
        self._submit = submit
        #: each target's save, in the order of play
        self.saves: dict[str, str] = dict.fromkeys(self._names, SAVES[0])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield OptionList(*[self._row(n) for n in self._names], id="saves")
            yield Static(
                "space / → ←: cycle · f h n: full, half, none (then the next) · ↑↓ j k: move",
                id="saves-message",
                classes="dialog-hint",
                markup=False,
            )
            yield Static("Enter applies · Esc: back to the amount", classes="dialog-keys")

    def _row(self, name: str) -> Text:
        save = self.saves[name]
        row = Text()
        row.append(SHOWN[save].ljust(8), style="bold" if save != "full" else "")
        row.append(visible(name))
        return row

    def on_mount(self) -> None:
        options = self.query_one("#saves", OptionList)
        options.highlighted = 0
        options.focus()

    @property
    def _options(self) -> OptionList:
        return self.query_one("#saves", OptionList)

    def _set(self, index: int, save: str) -> None:
        name = self._names[index]
        self.saves[name] = save
        self._options.replace_option_prompt_at_index(index, self._row(name))

    def action_cycle(self, step: int) -> None:
        index = self._options.highlighted
        if index is not None:
            save = self.saves[self._names[index]]
            self._set(index, SAVES[(SAVES.index(save) + step) % len(SAVES)])

    def action_choose(self, save: str) -> None:
        options = self._options
        index = options.highlighted
        if index is not None:
            self._set(index, save)
            if index + 1 < len(self._names):
                options.highlighted = index + 1

    def action_move(self, step: int) -> None:
        options = self._options
        options.action_cursor_down() if step > 0 else options.action_cursor_up()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if quitting(self):
            return
        error = self._submit(dict(self.saves))
        if error:
            settle(self, error, "#saves-message")  # type: ignore[arg-type]
        else:
            self.dismiss(True)

    def action_back(self) -> None:
        self.dismiss(False)


class DamagePromptScreen(PromptScreen):
    """The damage prompt on two targets or more: Enter applies the damage to
    every target as before; ``ctrl+s`` takes the amount typed to the saves
    form, and closes once the form applied it."""

    BINDINGS: ClassVar[list[BindingType]] = [_OPEN.binding()]

    def __init__(
        self,
        title: str,
        usage: str,
        submit: Submit,
        names: Sequence[str],
        saves: Callable[[str, dict[str, str]], str | None],
        *,
        history: Kept | None = None,
    ) -> None:
        """*saves*: applies the amount with each target's save (an error or None)."""
        super().__init__(title, usage, submit, history=history)
        self._names = list(names)
        self._saves = saves

    def on_mount(self) -> None:
        self.query_one("#prompt-message", Static).update(plain(f"{self._usage} · {saves_hint()}"))

    def action_saves(self) -> None:
        text = self.query_one("#prompt-input", PlainInput).value.strip()
        if not text:
            settle(self, "type the damage first (e.g. 8d6 fire), then ctrl+s", "#prompt-message")
            return

        def applied(done: bool | None) -> None:
            if done and not quitting(self):
                if self._history is not None:
                    self._history.add(text)
                self.dismiss(None)

        title = f"Saves against {text}"
        self.app.push_screen(
            SavesScreen(title, self._names, lambda chosen: self._saves(text, chosen)), applied
        )
