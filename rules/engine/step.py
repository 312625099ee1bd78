"""The :class:`Step`, one journaled change (what ``Session.apply``, ``undo``
and ``redo`` return and the steps file stores), and :func:`step_fields`,
the only place a saved step is checked."""

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
    """One journaled change; every step (do, undo, redo) takes the next
    ``seq``.  ``action`` is the *resolved* record, with every die face dealt
    in ``faces``, so re-applying it rolls nothing; undo/redo steps carry
    ``{"verb", "undone"|"redone": seq, "line"}``.  ``before`` / ``after`` are
    patches (``rules.engine.patch``); ``log`` is the entries appended (none
    for an undo: the undone entries are removed)."""

    seq: int
    kind: Kind
    action: Mapping[str, Any]
    before: Patch
    after: Patch
    log: tuple[LogEntry, ...] = ()

    def to_dict(self, with_log: bool = True) -> dict[str, Any]:
        """The journal record; ``with_log=False`` leaves the log out (a
        snapshot's undo stack, whose entries are the session log's)."""
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


def renames_in(action: Mapping[str, Any]) -> dict[str, str]:
    """The combatants a resolved *action* renamed (``set T name V``, each
    part of a batch in turn), old name to new: a chain (A to B, then B to
    C) is one rename, A to C, and a name given back is none."""
    parts = action.get("actions", ()) if action.get("verb") == "batch" else (action,)
    out: dict[str, str] = {}
    for part in parts:
        if part.get("verb") != "set" or part.get("field") != "name":
            continue
        old, new = str(part["targets"][0]), str(part["value"]).strip()  # as set names it
        first = next((k for k, v in out.items() if v == old), old)
        out[first] = new
    return {old: new for old, new in out.items() if old != new}
