"""The help screen (``?`` / ``f1``): every key as bound now, what it does,
and the binding id the keymap file uses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from tracker.bindings import HELP_KEYS, Key, bindings
from tracker.screens.dialog import Dialog, keys_row
from tracker.screens.scrolling import LineScrolling, key_text, scroll_keys_text
from tracker.widgets.plain import plain, visible

if TYPE_CHECKING:
    from tracker.config import Config


def keys_table(keys: Sequence[Key], keymap: Mapping[str, str], narrow: bool = False) -> Table:
    """Key, what it does, binding id (*narrow*: the id in the same cell as what it does)."""
    table = Table(box=None, expand=True, padding=(0, 1), show_header=True, header_style="bold")
    table.add_column("Key", no_wrap=True, style="bold")
    table.add_column("Does (id for the keymap)" if narrow else "Does")
    if not narrow:
        table.add_column("Id (keymap)", style="dim", no_wrap=True)
    for k in keys:
        # a Table reads a str cell as markup: the keymap's keys are the user's text
        key = escape(visible(key_text(keymap.get(k.id, k.key))))
        does = Text(f"{k.title} — {k.help}")
        if narrow:
            table.add_row(key, does.append(f" ({k.id})", style="dim"))
        else:
            table.add_row(key, does, k.id)
    return table


#: below this many columns the help screen folds the id column into the text
NARROW = 100


class HelpScreen(LineScrolling, Dialog[None]):
    """Every key of the encounter screen (or the picker); j / k and the
    arrows scroll it, any of Esc, q, ?, f1 closes it."""

    BINDINGS = bindings(HELP_KEYS)

    def __init__(self, keys: Sequence[Key], config: Config) -> None:
        super().__init__()
        self._config_path = str(config.path or "config.toml")
        self._keys, self._keymap = keys, config.keymap
        self.table = keys_table(keys, config.keymap)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Label("Keys", classes="dialog-title", markup=False)
            with VerticalScroll():
                yield Static(self.table, id="help-keys", markup=False)
                yield Static(
                    "j / k also move with the arrow keys. ctrl+p opens the command palette.\n"
                    + str(plain(f'Rebind keys in {self._config_path} ([keys] id = "key").')),
                    classes="dialog-hint",
                    markup=False,
                )
            yield keys_row(f"{scroll_keys_text(self._keymap)}: scroll · Esc: close")

    def on_resize(self) -> None:
        narrow = self.size.width < NARROW
        if narrow != (len(self.table.columns) == 2):
            self.table = keys_table(self._keys, self._keymap, narrow)
            self.query_one("#help-keys", Static).update(self.table)
