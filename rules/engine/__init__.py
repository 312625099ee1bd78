"""The encounter engine: a live :class:`Session` applying actions of the
action language as journaled :class:`Step`\\ s, with undo, redo and replay.
Resuming and showing a fight loads only ``session``, ``history`` and
``step``; the rest loads with the GM's first action."""

from rules.engine.history import StepSource
from rules.engine.session import Session
from rules.engine.step import Step

__all__ = ["Session", "Step", "StepSource"]
