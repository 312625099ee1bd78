"""The :class:`Step`, one journaled change, and its one validator.

A Step is what :meth:`~rules.engine.session.Session.apply`, ``undo`` and
``redo`` return and what the journal stores: the action as resolved, the
patches before and after (``rules.engine.patch``) and the log entries it
appended.  :func:`step_fields` is the only place a saved step is checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from rules.encounter import LogEntry
from rules.errors import ActionError

if TYPE_CHECKING:
    from rules.engine.patch import Patch

Kind = Literal["do", "undo", "redo"]
KINDS: tuple[Kind, ...] = ("do", "undo", "redo")


class Step(NamedTuple):
    """One journaled change: ``Step(seq, kind, action, before, after, log)``.

    - ``seq``: this step's number; every step (do, undo, redo) takes the next.
    - ``kind``: ``"do"`` (an action), ``"undo"`` or ``"redo"``.
    - ``action``: the *resolved* record: target names as resolved, and
      ``faces`` = every die face dealt while applying it, in order (so
      re-applying it to the same state rolls nothing and gives the same
      result).  Undo/redo steps carry ``{"verb": "undo"|"redo"|"prev",
      "undone"|"redone": seq, "line": the undone action as a line}``.
    - ``before`` / ``after``: patches (``rules.engine.patch``) holding only
      what changed — a damage roll on one goblin among 50 journals that
      goblin, not the fight.
    - ``log``: the log entries the step appended (for a redo, the
      re-appended entries of the redone action; for an undo, none — the
      undone action's entries are removed, so the log always shows the
      state as it is).

    A named tuple: a carrier, never changed once built.
    """

    seq: int
    kind: Kind
    action: Mapping[str, Any]
    before: Patch
    after: Patch
    log: tuple[LogEntry, ...] = ()

    def to_dict(self, with_log: bool = True) -> dict[str, Any]:
        """The journal record.  ``with_log=False`` leaves the log entries
        out (a snapshot's undo stack: its entries are the session log's)."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "action": dict(self.action),
            "before": self.before,
            "after": self.after,
        }
        if with_log:
            out["log"] = [e.to_dict() for e in self.log]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        """Rebuild a journaled step; a malformed one raises ActionError."""
        return cls(*step_fields(data))

    @property
    def line(self) -> str:
        """The action as a line of the language (for display)."""
        if self.kind != "do":
            return str(self.action.get("verb", self.kind))
        try:
            from rules.engine.format import format_action

            return format_action({k: v for k, v in self.action.items() if k != "unused_faces"})
        except ActionError:
            return str(self.action.get("verb", ""))


def step_fields(data: Any) -> tuple[Any, ...]:
    """The fields of the journaled step *data*, converted, in :class:`Step`
    order; a malformed one raises ActionError saying what is wrong."""
    try:
        kind = data["kind"]
        if kind not in KINDS:
            raise ValueError(f"unknown step kind {kind!r}")
        return (
            int(data["seq"]),
            kind,
            dict(data["action"]),
            dict(data.get("before") or {}),
            dict(data.get("after") or {}),
            tuple(LogEntry.from_dict(e) for e in data.get("log", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ActionError(f"not a saved step: {exc}") from None
