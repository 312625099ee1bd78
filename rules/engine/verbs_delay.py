"""The verbs of holding a turn (RULES.md §4): ``delay T`` takes combatants
out of the turn order, ``return T`` puts them back right after the active
combatant with its initiative.  A group's member that returns at a place
outside its group's slot leaves the group (docs/rules.md §4, "Groups");
a whole group delaying and returning together stays one group, one log
line each (``rules.engine.groups.log_together``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.engine.groups import log_together, same_group
from rules.engine.turns import advance, end_turn, following
from rules.engine.work import Work
from rules.errors import ActionError


def delay(work: Work, a: Mapping[str, Any]) -> None:
    """``delay``: out of the order; the active one runs its end-of-turn
    processing first (delaying does not dodge persistent damage)."""
    names = work.resolve_all(a["targets"])
    for name in names:
        if name in work.enc.delayed:
            raise ActionError(f"delay: {name} is already delaying")
    holds_turn = work.enc.started and work.active_name in names
    if holds_turn:
        nxt, _ = following(work, work.enc.turn, frozenset(names))
        if nxt is None:
            raise ActionError("delay: nobody else could take the turn")
        end_turn(work)
    work.enc = replace(work.enc, delayed=(*work.enc.delayed, *names))
    groups = {n: work.get(n).group for n in names}  # a group's members: one line
    log_together(work, names, groups.get, lambda n: f"{n} delays", lambda _: "delay")
    if holds_turn:
        advance(work)


def return_(work: Work, a: Mapping[str, Any]) -> None:
    """``return``: back into the order right after the active combatant,
    taking the active one's initiative; its turn comes on ``next``.  A
    group's member that this puts outside its group's slot (its mates
    neither returning with it nor holding the turn) leaves the group."""
    names = work.resolve_all(a["targets"])
    for name in names:
        if name not in work.enc.delayed:
            raise ActionError(f"return: {name} is not delaying")
    work.enc = replace(work.enc, delayed=tuple(n for n in work.enc.delayed if n not in names))
    active = work.enc.active
    groups = {n: work.get(n).group for n in names}  # before any leaves it
    if not work.enc.started or active is None:
        back = "to the order"
        log_together(
            work, names, groups.get, lambda n: f"{n} returns {back}", lambda _: f"return {back}"
        )
        return
    for name in reversed(names):
        c = replace(work.get(name), initiative=active.initiative)
        cs = [x for x in work.enc.combatants if x.name != name]
        pos = next(i for i, x in enumerate(cs) if x.name == active.name) + 1
        cs.insert(pos, c)
        work.set_combatants(cs, active.name)
    leaving = _outside_their_slot(work, names)
    for name in leaving:
        work.put(replace(work.get(name), group=None))
    back = f"after {active.name} (initiative {active.initiative})"

    def one(n: str) -> str:
        return f"{n} returns {back}" + (f" and leaves group {groups[n]}" if n in leaving else "")

    def many(n: str) -> str:
        return f"return {back}" + (" and leave the group" if n in leaving else "")

    log_together(work, names, groups.get, one, many)


def _outside_their_slot(work: Work, returning: list[str]) -> set[str]:
    """The returning members whose group no longer sits in one run: those
    that came back away from the mates that stayed in place."""
    cs = work.enc.combatants
    out: set[str] = set()
    for name in returning:
        group = work.get(name).group
        at = [i for i, x in enumerate(cs) if same_group(x, group)]
        if len(at) > 1 and at[-1] - at[0] + 1 != len(at):  # not one run
            out.add(name)
    return out
