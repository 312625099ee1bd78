"""Groups (issue 11; docs/rules.md §4, "Groups"): combatants that share
one initiative and one slot in the order.  The slot is modelled as the
members sitting together, each with its own turn, all with the group's
initiative, in name-number order (``Zombie 2`` before ``Zombie 10``), so
conditions and persistent damage per member work unchanged.  The helpers
here are what ``start``, ``add``, ``init`` and the group verbs share."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from rules.abilities import initiative_modifier, initiative_order, roll_initiative
from rules.combatant import Combatant
from rules.engine.work import Work
from rules.errors import ActionError
from rules.text import MAX_NAME, name_key, possessive


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """*name* compared with its numbers as numbers (``Zombie 2`` < ``Zombie 10``)."""
    return tuple(
        (1, int(part)) if part.isdigit() else (0, part)
        for part in re.split(r"(\d+)", name_key(name))
        if part
    )


def check_group_name(verb: str, name: str) -> str:
    """*name* as a group's name (stripped), or one ActionError: it must not
    be empty, hold a comma (a list of targets) or pass the name limit."""
    name = name.strip()
    if not name:
        raise ActionError(f"{verb}: a group needs a name")
    if "," in name:
        raise ActionError(f"{verb}: {name!r}: a group's name cannot contain a comma")
    if len(name) > MAX_NAME:
        raise ActionError(f"{verb}: a group's name is at most {MAX_NAME} characters")
    return name


def same_group(c: Combatant, group: str | None) -> bool:
    return group is not None and c.group is not None and name_key(c.group) == name_key(group)


def members(combatants: Sequence[Combatant], group: str | None) -> list[Combatant]:
    """The members of *group* (any case), in the order given."""
    return [c for c in combatants if same_group(c, group)]


def spelled(combatants: Sequence[Combatant], group: str) -> str:
    """*group* as an existing group spells it (else as given)."""
    found = members(combatants, group)
    return found[0].group or group if found else group


def gather(ordered: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """*ordered* with each group's members moved together to where its
    first member is, in name-number order; everyone else keeps its place."""
    by_group: dict[str, list[Combatant]] = {}
    for c in ordered:
        if c.group is not None:
            by_group.setdefault(name_key(c.group), []).append(c)
    if not by_group:
        return tuple(ordered)
    out: list[Combatant] = []
    done: set[str] = set()
    for c in ordered:
        if c.group is None:
            out.append(c)
            continue
        key = name_key(c.group)
        if key not in done:
            done.add(key)
            out.extend(sorted(by_group[key], key=lambda m: natural_key(m.name)))
    return tuple(out)


def grouped_order(combatants: Sequence[Combatant]) -> tuple[Combatant, ...]:
    """The initiative order (RULES.md §4) with every group in one slot: the
    slot of its first member by the usual tie-breaks."""
    return gather(initiative_order(combatants))


def sorts_before(a: Combatant, b: Combatant) -> bool:
    return bool(initiative_order((a, b))[0] is a)


def _slot(cs: Sequence[Combatant], pos: int) -> int:
    """*pos*, moved back to the start of a group's run it would split."""
    while 0 < pos < len(cs) and same_group(cs[pos - 1], cs[pos].group):
        pos -= 1
    return pos


def place_block(work: Work, block: Sequence[Combatant]) -> None:
    """Insert *block* (none of them in the tuple) together: after the last
    member of the first one's group if it has others, else before the first
    combatant ``block[0]`` sorts ahead of; the active one stays active."""
    cs = list(work.enc.combatants)
    first = block[0]
    mates = [i for i, x in enumerate(cs) if same_group(x, first.group)]
    pos = mates[-1] + 1 if mates else len(cs)
    if not mates:
        for i, other in enumerate(cs):
            if sorts_before(first, other):
                pos = _slot(cs, i)
                break
    cs[pos:pos] = block
    work.set_combatants(cs, work.active_name or None)


def reposition_group(work: Work, c: Combatant) -> None:
    """``init`` on a group's member: the whole group takes *c*'s initiative
    and moves, together in name-number order, to its place (§4 groups)."""
    active = work.active_name or None
    block = [
        replace(m, initiative=c.initiative)
        for m in sorted(members(work.enc.combatants, c.group), key=lambda m: natural_key(m.name))
    ]
    moved = {m.name for m in block}
    lead = next(m for m in block if m.name == c.name)
    rest = [x for x in work.enc.combatants if x.name not in moved]
    work.set_combatants(rest, active if active not in moved else None)
    cs = list(work.enc.combatants)
    pos = next((i for i, other in enumerate(cs) if sorts_before(lead, other)), len(cs))
    pos = _slot(cs, pos)
    cs[pos:pos] = block
    work.set_combatants(cs, active)


def leave_slot(work: Work, leaving: Sequence[str]) -> None:
    """Members *leaving* their group (called before their ``group`` is
    cleared) move out of its slot, keeping their initiative (§4 groups):
    right after the members who stay, or right before them for those who
    already took their turn this round inside the slot, so nobody's turn is
    skipped or repeated; the active one stays active.  A member leaving in
    the middle of its own turn, with others staying on both sides of it,
    cannot go either way without that: one ActionError."""
    out = set(leaving)
    active = work.active_name
    order: list[Combatant] = []
    for slot in slots_of(work.enc.combatants):
        stay = [c for c in slot if c.name not in out]
        if len(stay) in (0, len(slot)):
            order.extend(slot)
            continue
        turn = next((k for k, c in enumerate(slot) if c.name == active), None)
        if turn is None:  # the slot's turns all come, or all came: after it
            order.extend([*stay, *(c for c in slot if c.name in out)])
            continue
        before = [c for c in slot[:turn] if c.name in out]
        after = [c for c in slot[turn:] if c.name in out]
        if slot[turn].name in out:
            acted = any(c in stay for c in slot[:turn])
            waiting = any(c in stay for c in slot[turn + 1 :])
            if acted and waiting:
                group = possessive(slot[0].group or "")
                raise ActionError(
                    f"ungroup: it is {possessive(active)} turn, in group {group} slot with "
                    "members before and after it: leaving now would skip or repeat a turn "
                    "(ungroup it after next)"
                )
            if waiting:  # it acts first of those left: it goes before them
                before.append(after.pop(0))
        order.extend([*before, *stay, *after])
    work.set_combatants(order, active or None)


def share_initiative(work: Work, combatants: Sequence[Combatant]) -> list[Combatant]:
    """At ``start``: each group's one initiative given to all its members.
    A member's initiative set before (the first in the order) is the
    group's; else one d20 plus the best initiative modifier among the
    members, logged once for the group.  Non-members are unchanged."""
    out = list(combatants)
    seen: set[str] = set()
    for c in combatants:
        if c.group is None or name_key(c.group) in seen:
            continue
        seen.add(name_key(c.group))
        group = members(combatants, c.group)
        fixed = next((m for m in group if m.initiative is not None), None)
        names = name_runs([m.name for m in group])
        if fixed is not None:
            total = fixed.initiative
            if not any(m.name in work.initiative_said for m in group):  # said as it was set
                work.log(
                    c.group,
                    f"group {c.group} ({names}) shares {possessive(fixed.name)} initiative of {total}",
                )
        else:
            best = max(group, key=initiative_modifier)  # the first on ties
            who = replace(best, name=f"group {c.group}")
            r = work.roll(f"group {c.group} initiative (d20)", roll_initiative, who, work.roller)
            total = r.total
            work.log(c.group, f"{r.text} ({names}; {possessive(best.name)} modifier)")
        for i, x in enumerate(out):
            if same_group(x, c.group):
                out[i] = replace(x, initiative=total)
    return out


def _listing(names: Sequence[str], limit: int = 6, total: int | None = None) -> str:
    """*names* joined, the first *limit* and how many in all (*total*:
    when the pieces stand for more names than there are pieces)."""
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", … ({total or len(names)} in all)"


def name_runs(names: Sequence[str], limit: int = 6) -> str:
    """*names* as the log lists them, runs of three numbers or more
    shortened: ``Zombie 1–12`` (``Zombie 1–4, Zombie 6–12`` around a gap);
    beyond *limit* pieces, the first ones and how many in all."""
    runs: list[tuple[str, int, int] | str] = []
    for name in names:
        head, sep, tail = name.rpartition(" ")
        if not (sep and tail.isascii() and tail.isdigit() and str(int(tail)) == tail):
            runs.append(name)  # no plain number to count on (``Zombie 01`` stays)
            continue
        last = runs[-1] if runs else None
        if isinstance(last, tuple) and last[0] == head and last[2] + 1 == int(tail):
            runs[-1] = (head, last[1], int(tail))
        else:
            runs.append((head, int(tail), int(tail)))
    pieces: list[str] = []
    for run in runs:
        if isinstance(run, str):
            pieces.append(run)
        elif run[2] - run[1] >= 2:
            pieces.append(f"{run[0]} {run[1]}–{run[2]}")
        else:  # one or two: written out
            pieces += [f"{run[0]} {k}" for k in range(run[1], run[2] + 1)]
    return _listing(pieces, limit, total=len(names))


def log_together(
    work: Work,
    names: Sequence[str],
    group_of: Callable[[str], str | None],
    one: Callable[[str], str],
    many: Callable[[str], str],
) -> None:
    """Log *names* doing the same thing (``delay``, ``return``, joining or
    leaving a group; docs/rules.md §4, "Groups"): two or more of one group
    in ONE line, ``group Zombie: Zombie 1–12 delay`` (*many* says what
    they do), anyone else alone, ``one(name)``, so a horde is not a page of
    log.  A line comes where its first name is in *names*."""
    together: dict[tuple[str, str], list[str]] = {}
    for n in names:
        g = group_of(n)
        if g is not None:
            together.setdefault((name_key(g), many(n)), []).append(n)
    for n in names:
        g = group_of(n)
        run = [] if g is None else together[(name_key(g), many(n))]
        if len(run) < 2:
            work.log(n, one(n))
        elif n == run[0]:
            work.log(f"group {g}", f"group {g}: {name_runs(run)} {many(n)}")


def slots_of(combatants: Sequence[Combatant]) -> list[list[Combatant]]:
    """The order as slots: each group's run of members one slot."""
    slots: list[list[Combatant]] = []
    for c in combatants:
        if slots and c.group is not None and same_group(slots[-1][0], c.group):
            slots[-1].append(c)
        else:
            slots.append([c])
    return slots


def slot_name(slot: Sequence[Combatant]) -> str:
    """A slot as the log names it: ``group Zombie``, or the one name."""
    return f"group {slot[0].group}" if len(slot) > 1 and slot[0].group else slot[0].name
