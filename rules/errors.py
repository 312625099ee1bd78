"""The rules core's one error: :class:`ActionError` (its own small module, so
that what only loads or shows an encounter — the first screen, ``list``,
``show`` — can catch it without importing the action parser)."""

from __future__ import annotations


class ActionError(ValueError):
    """A line or action that cannot be applied; the message says why.  Raised
    before anything changes."""
