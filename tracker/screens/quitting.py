"""Quitting while keys are still arriving never crashes: keys queued after
``q`` would find the widgets gone and raise, so once the app is exiting the
screens run no more actions (:class:`QuietWhenQuitting`) and their handlers
return early (:func:`quitting`).  Every acknowledged action is on disk."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the mixin is mixed into, for super()'s type
    from textual.dom import DOMNode as _Mixed
else:
    _Mixed = object


def quitting(node: _Mixed) -> bool:
    return node.app.return_code is not None


class QuietWhenQuitting(_Mixed):
    """A screen (or widget) mixin: no action runs once the app is exiting."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if quitting(self):
            return False
        return super().check_action(action, parameters)
