"""Quitting while keys are still arriving never crashes (issue 9).

``q`` makes the app exit, but the keys typed after it (a burst, a paste,
keys pressed while a screen opens) may already be queued on a screen or a
dialog.  Textual removes every screen's widgets first; a binding or a
handler that runs after that and looks a widget up (``query_one``) or
mounts one would raise, and the GM would see a traceback on the way out.
So once the app is exiting (its ``return_code`` is set by ``App.exit``),
the screens run no more actions (:class:`QuietWhenQuitting`, through
``check_action``, which Textual asks before every key binding, click and
palette command) and their handlers return early (:func:`quitting`).
Nothing is lost: every acknowledged action is on disk already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the mixin is mixed into, for super()'s type
    from textual.dom import DOMNode as _Mixed
else:
    _Mixed = object


def quitting(node: _Mixed) -> bool:
    """Whether the app *node* belongs to is exiting."""
    return node.app.return_code is not None


class QuietWhenQuitting(_Mixed):
    """A screen (or widget) mixin: no action runs once the app is exiting."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if quitting(self):
            return False
        return super().check_action(action, parameters)
