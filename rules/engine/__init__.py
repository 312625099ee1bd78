"""The encounter engine: a live :class:`Session` of an encounter, applying
actions of the action language as journaled :class:`Step`\\ s, with undo,
redo and replay.

``session`` and ``step`` are all that resuming and showing a fight loads.  The rest loads with the GM's first action: the working copy
(``work``), the patches (``patch``), the turn cycle (``turns``) and the
verbs (``verbs``, by family in ``verbs_*``).
"""

from rules.engine.session import Session, StepSource
from rules.engine.step import Step

__all__ = ["Session", "Step", "StepSource"]
