"""The verbs of groups (docs/rules.md §4, "Groups"): ``group NAME T,…``
joins combatants into a group (one initiative, one slot in the order) and
``ungroup T|NAME`` splits them out again.  ``add … group`` and the group
initiative at ``start`` are in ``verbs_roster`` and ``turns``; the shared
helpers in ``rules.engine.groups``.  Members joining or leaving one group
together are one log line (``log_together``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.engine.groups import (
    check_group_name,
    gather,
    leave_slot,
    log_together,
    members,
    spelled,
)
from rules.engine.turns import warn_shift
from rules.engine.verbs_view import who_is
from rules.engine.work import Work
from rules.errors import ActionError
from rules.text import name_key, shorten


def group(work: Work, a: Mapping[str, Any]) -> None:
    """``group NAME T,…``: the targets join group NAME (an existing group
    of that name, any case, grows; a member of another group moves).  In
    combat they take the group's initiative — its members', or else the
    first target's in the order — and everyone of the group sits together
    in its slot; a turn this skips or repeats this round is warned of."""
    before = work.enc
    name = spelled(work.enc.combatants, check_group_name("group", a["name"]))
    work.resolved["name"] = name
    targets = work.resolve_all(a["targets"])
    joining = [n for n in work.names if n in targets]  # in the order
    new = [n for n in joining if not _in(work, n, name)]
    if not new:
        raise ActionError(f"group: {who_is(joining)} already in group {shorten(name)}")
    old = members(work.enc.combatants, name)
    shared = None
    if work.enc.started:
        shared = old[0].initiative if old else work.get(joining[0]).initiative
    was = {n: work.get(n).group for n in new}
    for n in new:
        c = work.get(n)
        work.put(replace(c, group=name, initiative=shared if work.enc.started else c.initiative))
    moving = [n for n in new if was[n] is not None]
    log_together(work, moving, was.get, lambda n: f"{n} leaves group {was[n]}", lambda _: "leave")
    log_together(work, new, lambda _: name, lambda n: f"{n} joins group {name}", lambda _: "join")
    if shared is not None:
        work.log(name, f"group {name} shares initiative {shared}")
    work.set_combatants(gather(work.enc.combatants), work.active_name or None)
    warn_shift(work, before)


def _in(work: Work, n: str, name: str) -> bool:
    g = work.get(n).group
    return g is not None and name_key(g) == name_key(name)


def ungroup(work: Work, a: Mapping[str, Any]) -> None:
    """``ungroup T|NAME``: the targets leave their groups (a group's name
    means every member).  They keep their initiative and move out of the
    group's slot, right after it (``rules.engine.groups.leave_slot``: no
    turn this round is skipped or repeated); each rolls its own at the
    next ``start``."""
    names: list[str] = []
    for word in a["targets"]:
        found = [c.name for c in members(work.enc.combatants, word.strip())]
        for n in found or work.resolve_all([word]):
            if n not in names:
                names.append(n)
    work.resolved["targets"] = names
    leaving = [n for n in names if work.get(n).group is not None]
    if not leaving:
        raise ActionError(f"ungroup: {who_is(names)} not in a group")
    leave_slot(work, leaving)
    was = {n: work.get(n).group for n in leaving}
    for n in leaving:
        work.put(replace(work.get(n), group=None))
    log_together(work, leaving, was.get, lambda n: f"{n} leaves group {was[n]}", lambda _: "leave")
