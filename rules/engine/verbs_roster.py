"""The verbs of who is in the fight and in what order: ``add``, ``remove``,
``init``, ``order`` (``delay`` and ``return`` are ``verbs_delay``).  Placing a combatant moves only
that one, before the first it sorts ahead of (RULES.md §4 ties), so everyone
else keeps the GM's order; only ``start`` sorts everyone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.abilities import hit_points, roll_initiative
from rules.combatant import Combatant
from rules.damage import Defenses
from rules.durations import Duration
from rules.endurance import endurance_of
from rules.engine.complete import quoted
from rules.engine.groups import (
    check_group_name,
    log_together,
    members,
    name_runs,
    place_block,
    reposition_group,
    same_group,
    slot_name,
    slots_of,
    spelled,
)
from rules.engine.turns import (
    begin_turn,
    dash_check,
    end_turn,
    following,
    warn_shift,
)
from rules.engine.verbs_view import JOINS_SHOWN, visibility_for_new
from rules.engine.work import Work, call
from rules.errors import ActionError
from rules.limits import check_roster
from rules.luck import luck_points
from rules.text import MAX_NAME, name_key, possessive, shorten


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ActionError("a combatant needs a name")
    if "," in name:
        raise ActionError(f"{name!r}: a name cannot contain a comma (commas separate targets)")
    if len(name) > MAX_NAME:
        raise ActionError(f"{name[:20]!r}…: a name is at most {MAX_NAME} characters")
    return name


def _number_suffix(name: str, base: str) -> int | None:
    head, sep, tail = name.rpartition(" ")
    if sep and name_key(head) == name_key(base) and tail.isascii() and tail.isdigit():
        return int(tail)
    return None


def name_taken(existing: Sequence[str], base: str) -> list[str]:
    """The names among *existing* that ``add base`` without ``count`` would
    collide with: *base* itself and its numbered members (``base 2``)."""
    key = name_key(base)
    return [n for n in existing if name_key(n) == key or _number_suffix(n, base) is not None]


def _refuse_taken(existing: Sequence[str], base: str) -> None:
    """``add base`` without ``count`` when *base* is in the fight already:
    refused, saying how to add another (``count 1`` continues the numbering)."""
    taken = name_taken(existing, base)
    if not taken:
        return
    shown = ", ".join(taken[:4]) + (f", … ({len(taken)} in all)" if len(taken) > 4 else "")
    (after,) = new_names(existing, base, 1)
    raise ActionError(
        f"add: {shorten(base)} is already in the fight ({shown}): add {quoted(base)} count 1 … "
        f"adds {after}, or choose another name"
    )


def new_names(existing: Sequence[str], base: str, count: int | None) -> list[str]:
    """The names ``add base count N`` gives beside *existing*, each checked;
    numbering continues after the highest.  Public so a prepared file's
    roster is named, and refused, before anything is built."""
    taken = {name_key(n) for n in existing}
    numbers = [k for k in (_number_suffix(n, base) for n in existing) if k is not None]
    if not count or count == 1:
        if name_key(base) not in taken and not numbers:
            return [base]
        count = 1
        start = max(numbers, default=1) + 1
    else:
        start = max(numbers, default=0) + 1
        if name_key(base) in taken and start == 1:
            start = 2
    names: list[str] = []
    k = start
    while len(names) < count:
        candidate = f"{base} {k}"
        if name_key(candidate) not in taken:
            names.append(candidate)
        k += 1
    for n in names:
        if len(n) > MAX_NAME and len(base) <= MAX_NAME:
            raise ActionError(
                f"{base[:20]!r}…: with its number ({n[len(base) :].strip()}) the name would be "
                f"{len(n)} characters; a name is at most {MAX_NAME} characters"
            )
        _check_name(n)
    return names


def _reposition(work: Work, c: Combatant) -> None:
    """Move the combatant now called ``c.name`` to its initiative place."""
    active = work.active_name or None
    cs = [x for x in work.enc.combatants if x.name != c.name]
    work.set_combatants(cs, active if active != c.name else None)
    place_block(work, [c])
    if active == c.name:
        work.set_combatants(work.enc.combatants, active)


def add(work: Work, a: Mapping[str, Any]) -> None:
    """``add``: new combatants (RULES.md §4 HP and initiative, §8 endurance,
    §11 luck); added mid-combat, one rolls initiative if it has none and
    makes the entering-combat Dash check (§8).  A name already in the fight
    is refused unless ``count`` is given (which continues the numbering).
    How the players' view shows them: ``visible|masked|hidden`` as given,
    else the ``new_monsters`` setting for non-players (``verbs_view``)."""
    base = _check_name(a["name"])
    if a.get("count") is None:
        _refuse_taken(work.names, base)
    names = new_names(work.names, base, a.get("count"))
    check_roster(len(work.enc.combatants), len(names))
    if "hp" not in a:
        raise ActionError("add: hp is needed (a number, or dice like 2d8+2)")
    abilities = {str(k).lower(): int(v) for k, v in dict(a.get("abilities", {})).items()}
    defenses = Defenses(
        frozenset(a.get("immunities", ())),
        {str(k).lower(): int(v) for k, v in dict(a.get("resistances", {})).items()},
        frozenset(a.get("weaknesses", ())),
        frozenset(a.get("susceptibilities", ())),
    )
    order_key = max((c.order_key for c in work.enc.combatants), default=0)
    named = a.get("group")  # True: the group named after them; text: that group
    group = None
    if named:
        wanted = check_group_name("add", named) if isinstance(named, str) else base
        group = spelled(work.enc.combatants, wanted)
    mode = "average" if a.get("avg") else "roll"
    visibility = visibility_for_new(work, a, bool(a.get("player", False)))
    alike = len(names) > 1  # one line for them all, the HP each rolled in it
    joining: list[Combatant] = []
    hp_texts: list[str] = []
    for name in names:
        order_key += 1
        hp, hp_text = work.roll(
            f"{name} hit points", hit_points, a["hp"], work.roller, mode, alike=alike
        )
        hp_texts.append(hp_text)
        c = Combatant(
            name=name,
            max_hp=hp,
            hp=hp,
            al=int(a.get("al", 10)),
            initiative=a.get("init"),
            init_bonus=int(a.get("bonus", 0)),
            abilities=dict(abilities),
            athletics=a.get("athletics"),
            player=bool(a.get("player", False)),
            defenses=defenses,
            notes=str(a.get("notes", "")),
            order_key=order_key,
            group=group,
            visibility=visibility,
        )
        joining.append(
            replace(
                c,
                endurance=call(endurance_of, c),
                luck_points=call(luck_points, abilities.get("luck")),
            )
        )
    _log_joining(work, joining, hp_texts, str(a["hp"]).strip())
    if work.enc.started:
        joining = _enter_combat(work, joining)
    for c in joining:
        place_block(work, [c])
    work.resolved["name"] = base


def _log_joining(
    work: Work, joining: Sequence[Combatant], hp_texts: Sequence[str], hp: str
) -> None:
    """``Goblin joins the encounter (HP 2d6 (3, 4) = 7, AL 13)``; several
    added at once, one line, ``Zombie 1–50 join the encounter (HP 2d8: (3,
    2) = 5, (5, 2) = 7, …; AL 10, group Zombie)``: what they share said once,
    the HP each rolled in name order, so a horde is not a page of log."""
    c = joining[0]  # the rest differ only in name and HP
    parts = [f"AL {c.al}"]
    if c.initiative is not None:
        parts.append(f"initiative {c.initiative}")
    if c.endurance is not None:
        parts.append(f"endurance {c.endurance.points}")
    if c.luck_points:
        parts.append(f"{c.luck_points} luck points")
    if c.group is not None:
        parts.append(f"group {c.group}")
    if c.visibility != "visible":
        parts.append(JOINS_SHOWN[c.visibility])
    if len(joining) == 1:
        work.log(c.name, f"{c.name} joins the encounter ({', '.join([hp_texts[0], *parts])})")
        return
    names = name_runs([m.name for m in joining])
    if all(t.startswith("HP ") for t in hp_texts):  # a number, or the average: alike
        shown = ", ".join([hp_texts[0], *parts])
    else:
        shown = f"HP {hp}: {', '.join(hp_texts)}; {', '.join(parts)}"
    work.log(names, f"{names} join the encounter ({shown})")


def _enter_combat(work: Work, joining: Sequence[Combatant]) -> list[Combatant]:
    """Combatants added mid-combat take their group's initiative (one line
    for them all; a new group's first member rolls it) or roll their own,
    then each makes the entering-combat Dash check (§8)."""
    entered: list[Combatant] = []
    sharing: list[str] = []
    for c in joining:
        if c.initiative is None:
            shared = next(iter(members(work.enc.combatants, c.group)), None)
            shared = shared or next((m for m in entered if same_group(m, c.group)), None)
            if shared is not None:
                c = replace(c, initiative=shared.initiative)
                sharing.append(c.name)
            else:
                r = work.roll(f"{c.name} initiative (d20)", roll_initiative, c, work.roller)
                work.log(c.name, r.text)
                c = replace(c, initiative=r.total)
        entered.append(c)
    if sharing:
        names = name_runs(sharing)
        group = possessive(entered[0].group or "")
        verb = "takes" if len(sharing) == 1 else "take"
        work.log(names, f"{names} {verb} group {group} initiative of {entered[-1].initiative}")
    return [dash_check(work, c, "entering-combat") or c for c in entered]


#: ``remove defeated``: every down non-player combatant (RULES.md §4).
DEFEATED = "defeated"


def _removed(work: Work, targets: Sequence[str]) -> list[str]:
    """The names ``remove`` takes out: the word ``defeated`` alone means
    every down non-player combatant (unless a combatant is named exactly
    that), else the targets as named."""
    names = work.names
    if [name_key(t) for t in targets] != [DEFEATED] or DEFEATED in map(name_key, names):
        return work.resolve_all(targets)
    down = [c.name for c in work.enc.combatants if c.down and not c.player]
    if not down:
        players = [c.name for c in work.enc.combatants if c.down and c.player]
        why = f" ({', '.join(players)} down, but players stay)" if players else ""
        raise ActionError(f"remove defeated: no monster is down (at 0 HP){why}")
    work.resolved["targets"] = down
    return down


def remove(work: Work, a: Mapping[str, Any]) -> None:
    """``remove``: take combatants out, logged first, several members of
    one group in one line (``remove defeated``: every down monster,
    RULES.md §4).  If the active one goes its turn ends
    (end-of-turn durations tick, its persistent damage is not rolled) and
    the next starts; durations counted on a removed combatant move to the
    bearer's own turns."""
    names = _removed(work, a["targets"])
    gone = frozenset(names)
    active = work.active_name
    passing = work.enc.started and active in gone
    groups = {n: work.get(n).group for n in names}  # a horde's members: one line
    log_together(work, names, groups.get, lambda n: f"{n} is removed", lambda _: "are removed")
    if passing:
        end_turn(work, gone)
    _orphan_durations(work, gone)
    remaining = [c for c in work.enc.combatants if c.name not in gone]
    if passing and any(c.name not in work.enc.delayed for c in remaining):
        nxt, wrapped = _following_name(work, gone)
        work.set_combatants(remaining, nxt)
        if wrapped:
            work.enc = replace(work.enc, round=work.enc.round + 1)
            work.log("", f"Round {work.enc.round}")
        _drop_delayed(work, gone)
        begin_turn(work)
        return
    if passing:
        work.set_combatants(remaining, None)
        work.enc = replace(work.enc, turn=None)
    else:
        work.set_combatants(remaining, active or None)
    _drop_delayed(work, gone)


def _orphan_durations(work: Work, gone: frozenset[str]) -> None:
    """Durations counted on a removed combatant's turns now count on the
    bearer's own turns (same start/end), so they still run out (§10)."""

    def fix(d: Duration | None, bearer: str) -> Duration | None:
        return replace(d, of=bearer) if d is not None and d.of in gone else d

    changed = False
    out = []
    for x in work.enc.combatants:
        if x.name in gone:
            out.append(x)
            continue
        y = replace(
            x,
            conditions=tuple(replace(k, duration=fix(k.duration, x.name)) for k in x.conditions),
            bonuses=tuple(replace(b, duration=fix(b.duration, x.name)) for b in x.bonuses),
            temp_hp_duration=fix(x.temp_hp_duration, x.name),
        )
        changed = changed or y != x
        out.append(y if y != x else x)
    if changed:
        work.set_combatants(out, work.active_name or None)


def _following_name(work: Work, exclude: frozenset[str]) -> tuple[str, bool]:
    idx, wrapped = following(work, work.enc.turn, exclude)
    assert idx is not None
    return work.enc.combatants[idx].name, wrapped


def _drop_delayed(work: Work, names: frozenset[str]) -> None:
    if any(n in names for n in work.enc.delayed):
        work.enc = replace(work.enc, delayed=tuple(n for n in work.enc.delayed if n not in names))


def init(work: Work, a: Mapping[str, Any]) -> None:
    """``init T N``: set the initiative and move T to its place (§4); the
    active combatant stays active, and a turn this skips or repeats this
    round is warned of in the log."""
    name = work.resolve_one(a["targets"], a["verb"])
    before = work.enc
    c = replace(work.get(name), initiative=int(a["value"]))
    mates = [m for m in members(work.enc.combatants, c.group) if m.name != name]
    if mates:
        reposition_group(work, c)
    else:
        _reposition(work, c)
    work.log(name, f"{possessive(name)} initiative is now {a['value']}")
    work.initiative_said.add(name)
    if mates:
        others = ", ".join(shorten(m.name) for m in mates[:6])
        more = f", … ({len(mates)} others)" if len(mates) > 6 else ""
        work.log(name, f"group {c.group} shares it ({others}{more})")
    warn_shift(work, before)


def order(work: Work, a: Mapping[str, Any]) -> None:
    """``order T up|down``: the GM's manual order (§4 last tie-break): T's
    slot (its whole group, if it is in one) swaps with the neighbouring
    slot, the ``order_key`` values following, so a group never splits.
    T may be the group's name: it is that slot."""
    slots = slots_of(work.enc.combatants)
    # targets resolve as everywhere (an exact name before a group's); more
    # than one is fine while they all sit in one slot: the slot moves
    names = work.resolve_all(a["targets"])
    mine = next(k for k, slot in enumerate(slots) if any(c.name == names[0] for c in slot))
    if not set(names) <= {c.name for c in slots[mine]}:
        work.resolve_one(a["targets"], a["verb"])  # refused: takes one combatant
    name = names[0]
    work.resolved["targets"] = [name]
    before = work.enc
    other = mine - 1 if a["direction"] == "up" else mine + 1
    if not 0 <= other < len(slots):
        where = "first" if a["direction"] == "up" else "last"
        raise ActionError(f"order: {slot_name(slots[mine])} is already {where}")
    text = (
        f"{slot_name(slots[mine])} moves {a['direction']}, "
        f"{'before' if other < mine else 'after'} {slot_name(slots[other])}"
    )
    low, high = sorted((mine, other))
    pair = [*slots[low], *slots[high]]
    keys = sorted(c.order_key for c in pair)
    if len(set(keys)) < len(keys):  # ties: fresh keys from the lowest one
        keys = list(range(keys[0], keys[0] + len(keys)))
    moved = [*slots[high], *slots[low]]
    slots[low : high + 1] = [[replace(c, order_key=k) for c, k in zip(moved, keys, strict=True)]]
    work.set_combatants([c for slot in slots for c in slot], work.active_name or None)
    work.log(name, text)
    warn_shift(work, before)
