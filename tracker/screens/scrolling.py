"""Dialogs longer than the screen (the help screen's keys, the notices at
start-up) scroll as every list of the tracker does: ``j`` / ``k`` or the
arrows a line each (:data:`tracker.keys.dialogs.HELP_KEYS`, rebindable by
id), and their keys row names those keys as the keymap binds them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll

from tracker.bindings import HELP_KEYS
from tracker.widgets.plain import visible

if TYPE_CHECKING:  # what the mixin is mixed into
    from textual.dom import DOMNode as _Mixed
else:
    _Mixed = object

#: How keys are shown (Textual's names → what is printed on the keycap).
KEY_NAMES = {
    "question_mark": "?",
    "colon": ":",
    "space": "space",
    "delete": "del",
    "escape": "Esc",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "left_curly_bracket": "{",
    "right_curly_bracket": "}",
}

#: the keys that scroll a line down and up
SCROLL_KEYS = HELP_KEYS[:2]


def key_text(keys: str) -> str:
    """``"question_mark,f1"`` → ``"? / f1"``."""
    return " / ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


def scroll_keys_text(keymap: Mapping[str, str]) -> str:
    """The keys that scroll, as *keymap* binds them: ``↑↓ j k``."""
    down, up = (keymap.get(k.id, k.key).split(",")[0] for k in SCROLL_KEYS)
    return visible(f"↑↓ {key_text(down)} {key_text(up)}")


class LineScrolling(_Mixed):
    """A screen mixin: :data:`SCROLL_KEYS` scroll its one ``VerticalScroll``
    (the screen's ``BINDINGS`` list them: Textual reads its own classes')."""

    def action_scroll_keys(self, lines: int) -> None:
        """Scroll *lines* down (up when negative), at once: three keys in
        one burst (a held key, a fast typist) scroll three lines."""
        scroll = self.query_one(VerticalScroll)
        scroll.scroll_to(y=scroll.scroll_y + lines, animate=False, immediate=True)
