"""The turn cycle over a :class:`rules.engine.work.Work`: start of combat,
end of a turn, start of the next.  The rules core does the arithmetic
(RULES.md §4 initiative, §7 persistent damage, §8 endurance, §6/§9/§10
durations); these functions decide *when*."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace

from rules.abilities import roll_initiative
from rules.combatant import Combatant
from rules.durations import Duration, tick_durations
from rules.encounter import Encounter
from rules.endurance import endurance_check, endurance_of, start_of_turn
from rules.engine.combats import COMBAT_BEGINS, COMBAT_ENDS
from rules.engine.groups import grouped_order, name_runs, same_group, share_initiative
from rules.engine.verbs_view import reveal_on_turn
from rules.engine.work import Work
from rules.errors import ActionError
from rules.persistent import tick_persistent
from rules.text import possessive

#: why no turn can start.
NOBODY_ACTS = (
    "no combatant can take a turn: each is delaying (return one) or a down "
    "monster (heal or remove one)"
)


def passed_over(enc: Encounter) -> set[str]:
    """The combatants whose turns are passed over now: those delaying, and
    the down non-players unless ``down_turns`` is ``keep`` (RULES.md §4)."""
    skip = set(enc.delayed)
    if enc.ruleset["down_turns"] != "keep":
        skip.update(c.name for c in enc.combatants if c.down and not c.player)
    return skip


def following(
    work: Work, index: int | None, exclude: frozenset[str] = frozenset()
) -> tuple[int | None, bool]:
    """The next combatant after *index* that takes its turn (not passed
    over, nor in *exclude*), and whether the search wrapped to the top (a
    new round)."""
    return _turn_from(work.enc, -1 if index is None else index, 1, exclude)


def preceding(work: Work, index: int) -> tuple[int | None, bool]:
    """The previous combatant that takes its turn, and whether it wrapped."""
    return _turn_from(work.enc, index, -1)


def _turn_from(
    enc: Encounter, start: int, direction: int, exclude: frozenset[str] = frozenset()
) -> tuple[int | None, bool]:
    cs = enc.combatants
    skip = passed_over(enc) | exclude
    for step in range(1, len(cs) + 1):
        i = start + direction * step
        if cs[i % len(cs)].name not in skip:
            return i % len(cs), not 0 <= i < len(cs)
    return None, False


def ending_round(enc: Encounter, duration: Duration | None) -> int | None:
    """The round in which *duration* runs out if the fight goes on as it
    stands, for the log line that grants it (RULES.md §10), or None when it
    cannot be foreseen.  The boundaries still to come this round count, and
    those ``prev`` stepped back over (``Encounter.rewound``) do not."""
    return ending_rounds(enc)(duration)


def ending_rounds(enc: Encounter) -> Callable[[Duration | None], int | None]:
    """:func:`ending_round` in *enc* for each duration one action grants,
    the order read once: granting a condition, temp HP or a bonus moves no
    turn, and each of a horde's hundreds asks (``cond all … rounds 2``).

    Counted, not walked turn by turn."""
    names = [c.name for c in enc.combatants]
    seat: dict[str, int] = {}
    for i, name in enumerate(names):
        seat.setdefault(name, i)
    passed = passed_over(enc)
    acting = [i for i, n in enumerate(names) if n not in passed]
    place = {i: k for k, i in enumerate(acting)}  # where each one acts in ``acting``
    count = len(acting)
    first = bisect_right(acting, enc.turn) if enc.turn is not None else 0  # turn 1's place
    wrapped = first == count  # turn 1 begins the next round
    first = first % count if count else 0
    # the turns from now: k = 0 is the active one (its end still to come),
    # k = 1 the next that acts, and so on round the order; the first
    # ``rewound`` boundaries were processed already
    skip = enc.rewound

    def ends(duration: Duration | None) -> int | None:
        if duration is None or not duration.of:
            return None
        at = seat.get(duration.of)
        if at is None or duration.of in passed:
            return None
        if not enc.started:
            return duration.rounds_left  # every turn of round 1 is still to come
        if enc.turn is None or not 0 <= enc.turn < len(names) or not acting:
            return None
        if duration.tick == "end" and skip == 0 and enc.turn == at:
            return enc.round + duration.rounds_left - 1
        least = max(1, skip) if duration.tick == "end" else skip + 1
        k = least + (place[at] - (first + least - 1)) % count
        return enc.round + wrapped + (first + k - 1) // count + duration.rounds_left - 1

    return ends


def warn_shift(work: Work, before: Encounter) -> None:
    """Warn the GM in the log of a change of order mid-round (``init``,
    ``order``, ``group``), worded by position since the engine does not know who has
    acted: who now sits before the active combatant although it sat after
    it (it gets no turn in the rest of this round), or after it although it
    sat before (it takes a turn later this round).  Allowed — the GM may
    mean it — but never silent (§4).  A group whose every member gets the
    same note is named once."""
    after = work.enc
    if not before.started or before.active is None or after.active is None:
        return
    active = before.active.name

    def pending(enc: Encounter) -> set[str]:
        assert enc.turn is not None
        skip = passed_over(enc)
        return {c.name for c in enc.combatants[enc.turn + 1 :] if c.name not in skip}

    was, now = pending(before), pending(after)
    acting = {c.name for c in before.combatants} - passed_over(before) - {active}
    shifted: dict[str, str] = {}  # name → "before" / "after"
    for c in after.combatants:
        if c.name in acting and (c.name in was) != (c.name in now):
            shifted[c.name] = "after" if c.name in now else "before"
    named: set[str] = set()
    for c in after.combatants:
        if c.name not in shifted or c.name in named:
            continue
        side = shifted[c.name]
        mates = [m.name for m in after.combatants if same_group(m, c.group)]
        if len(mates) > 1 and all(shifted.get(m) == side for m in mates):
            named.update(mates)
            who, them = f"group {c.group}", "its members"
        else:
            named.add(c.name)
            who = them = c.name
        if side == "before":
            rest = f"{them} {'get' if who != them else 'gets'} no turn in the rest of this round"
        else:
            rest = f"{them} {'take a turn' if who != them else 'takes a turn'} later this round"
        work.log("GM", f"{who} now acts {side} {active}, whose turn it is: {rest}")


def dash_check(work: Work, c: Combatant, when: str) -> Combatant | None:
    """The Dash check a combatant makes on entering combat (RULES.md §8);
    None when it has no CON and Athletics (it is skipped).  A Dash still
    active from an earlier fight carries over unchanged: no check, same
    rounds left, and the recovery countdown keeps running (not a use)."""
    state = c.endurance if c.endurance is not None else endurance_of(c)
    if state is None:
        return None
    face = None
    if state.active.get("dash", 0) <= 0:
        face = work.d20(f"{c.name} {when} Dash check (d20)")
    state, check = work.roll("", endurance_check, state, "dash", face, use=False)
    work.log(c.name, f"{c.name} {when} {check.text}")
    return replace(c, endurance=state)


def start_combat(work: Work) -> None:
    """``start``: roll missing initiatives and sort (§4), start-of-combat
    Dash checks (§8), then round 1's first turn."""
    enc = work.enc
    if enc.started:
        raise ActionError("start: combat has already started (use next, or undo)")
    if not enc.combatants:
        raise ActionError("start: the encounter is empty (add combatants first)")
    rolled: list[Combatant] = []
    for c in share_initiative(work, enc.combatants):
        if c.initiative is None:
            r = work.roll(f"{c.name} initiative (d20)", roll_initiative, c, work.roller)
            work.log(c.name, r.text)
            c = replace(c, initiative=r.total)
        elif c.group is None and c.name not in work.initiative_said:
            # a group's initiative is logged once, above; a total set by
            # this same step (the initiative form's ``init P N; start``) was
            # logged as it was set
            work.log(c.name, f"{c.name} has a fixed initiative of {c.initiative}")
        rolled.append(c)
    ordered = list(grouped_order(rolled))
    skipped: list[str] = []
    for i, c in enumerate(ordered):
        checked = dash_check(work, c, "start-of-combat")
        if checked is None:
            skipped.append(c.name)
        else:
            ordered[i] = checked
    if skipped:
        # a horde is one short line, not every name (``Zombie 1–100``)
        work.log("", f"No start-of-combat Dash check (no CON and Athletics): {name_runs(skipped)}")
    work.enc = replace(work.enc, combatants=tuple(ordered), started=True, round=1, turn=None)
    first, _ = following(work, None)
    if first is None:
        raise ActionError(f"start: {NOBODY_ACTS}")
    work.log("", COMBAT_BEGINS)  # the log's mark of a new combat (rules.engine.combats)
    work.enc = replace(work.enc, turn=first)
    begin_turn(work)


def end_combat(work: Work) -> None:
    """``end``: combat is over.  Nothing of the active turn is processed
    (no persistent damage, no durations); the turn order stops, delaying
    ends and every initiative is cleared, so a later ``start`` begins a new
    combat with new rolls (§4).  The round count stays, for the record;
    hit points, conditions and the log are untouched."""
    enc = work.enc
    if not enc.started:
        raise ActionError("end: combat has not started (nothing to end)")
    rounds = f"{enc.round} round{'s' if enc.round != 1 else ''}"
    work.log("", f"{COMBAT_ENDS}{rounds} (initiative cleared: start begins a new combat)")
    cleared = tuple(replace(c, initiative=None) for c in enc.combatants)
    work.enc = replace(enc, combatants=cleared, started=False, turn=None, delayed=(), rewound=0)


def begin_turn(work: Work) -> None:
    """Start-of-turn processing for the active combatant: a hidden monster
    is revealed if the players' view says so (``reveal_on_turn``), then
    start-of-turn durations tick (§6/§9/§10), then its endurance (§8).  Only counts off
    ``Encounter.rewound`` while catching up after ``prev``."""
    active = work.enc.active
    if active is None:
        return
    name = active.name
    if work.enc.rewound > 0:
        work.enc = replace(work.enc, rewound=work.enc.rewound - 1)
        work.log(name, f"{possessive(name)} turn (already processed)")
        return
    work.log(name, f"{possessive(name)} turn")
    reveal_on_turn(work, name)
    combatants, lines = work.roll("", tick_durations, work.enc.combatants, name, "start")
    work.enc = replace(work.enc, combatants=combatants)
    for line in lines:
        work.log(name, line)
    c = work.get(name)
    if c.endurance is not None:
        state, lines = work.roll("", start_of_turn, c.endurance)
        work.put(replace(c, endurance=state))
        for line in lines:
            work.log(name, f"{name}: {line}")


def end_turn(work: Work, leaving: frozenset[str] | None = None) -> None:
    """End-of-turn processing for the active combatant: persistent damage
    and its flat checks (§7) — not while it is down unless the ruleset's
    ``down_persistent`` is ``tick`` (the entries stay) — then end-of-turn
    durations (§6/§9/§10).  Nothing while catching up after ``prev``
    (:func:`step_back`).  When it is among those *leaving* (``remove``),
    durations tick on everyone staying and its persistent damage is not
    rolled."""
    active = work.enc.active
    if active is None:
        return
    name = active.name
    if work.enc.rewound > 0:
        work.log(name, f"End of {possessive(name)} turn (already processed)")
        return
    entries = active.persistent if leaving is None else ()
    if entries and active.down and work.ruleset["down_persistent"] == "stop":
        tags = ", ".join(" ".join(e.tags) for e in entries)
        work.log(name, f"{name} is down: persistent {tags} does not tick (it stays)")
    elif entries:
        # the dice parser only once something rolls, not when a fight resumes
        from rules.dice import roll

        for entry in entries:
            c = work.get(name)
            tags = " ".join(entry.tags)
            dmg = work.roll(f"{name} persistent {tags} {entry.dice}", roll, entry.dice, work.roller)
            face = work.d20(f"{name} persistent {tags} flat check DC {entry.dc} (d20)")
            c, tick = work.roll("", tick_persistent, c, entry, dmg.total, face, work.ruleset)
            work.put(c)
            verdict = "ends" if tick.ended else "continues"
            work.log(
                name,
                f"{name} persistent {tags} {dmg.render()}: {tick.damage.text}; "
                f"flat check {tick.face} vs DC {tick.dc}: {verdict}",
            )
    end_durations(work, name, leaving or frozenset())


def end_durations(work: Work, name: str, exclude: frozenset[str] = frozenset()) -> None:
    """Count down every duration tied to the end of *name*'s turn (§6, §9,
    §10) on every combatant not in *exclude*."""
    cs = work.enc.combatants
    ticking = tuple(c for c in cs if c.name not in exclude)
    ticked, lines = work.roll("", tick_durations, ticking, name, "end")
    by_name = {c.name: c for c in ticked}
    work.enc = replace(work.enc, combatants=tuple(by_name.get(c.name, c) for c in cs))
    for line in lines:
        work.log(name, line)


def advance(work: Work, exclude: frozenset[str] = frozenset()) -> None:
    """Pass the turn to the next combatant not delaying (nor in *exclude*),
    wrapping to a new round, and start that turn."""
    nxt, wrapped = following(work, work.enc.turn, exclude)
    if nxt is None:
        raise ActionError(NOBODY_ACTS)
    if wrapped:
        work.enc = replace(work.enc, round=work.enc.round + 1)
        work.log("", f"Round {work.enc.round}")
    work.enc = replace(work.enc, turn=nxt)
    begin_turn(work)


def next_turn(work: Work) -> None:
    """``next``: end the active turn, start the next one (§7, §8, §10),
    passing over delaying combatants and, unless ``down_turns`` is ``keep``,
    down non-players (§4), so nothing of their turns happens."""
    if not work.enc.started:
        raise ActionError("next: combat has not started (use start)")
    if not work.enc.combatants:
        raise ActionError("next: the encounter is empty")
    if work.enc.turn is not None:
        end_turn(work)
    advance(work)


def step_back(work: Work) -> None:
    """``prev`` when the last action was not a ``next`` (that one is undone
    instead): move the turn pointer back, undoing nothing.  The boundaries
    stepped over were already processed, so ``Encounter.rewound`` counts
    them and the next that many are passed without processing (README,
    "Decisions").  A count of turns, not a remembered (round, index), so
    roster changes meanwhile cannot make an unprocessed boundary look
    processed."""
    enc = work.enc
    refused = cannot_step_back(enc)
    if refused is not None:
        raise ActionError(refused)
    assert enc.turn is not None  # else refused
    prev, wrapped = preceding(work, enc.turn)
    assert prev is not None
    new_round = enc.round - 1 if wrapped else enc.round
    work.enc = replace(enc, turn=prev, round=new_round, rewound=enc.rewound + 1)
    name = work.enc.combatants[prev].name
    work.log(name, f"Turn moved back to {name} (round {new_round}); nothing was undone")


def cannot_step_back(enc: Encounter) -> str | None:
    """Why :func:`step_back` is refused now (its message; None: it moves
    the turn back): before the fight, when nobody can act, and at round 1's
    first turn, which has no turn before it (§4)."""
    if not enc.started or enc.turn is None:
        return "prev: combat has not started"
    prev, wrapped = _turn_from(enc, enc.turn, -1)
    if prev is None:
        return f"prev: {NOBODY_ACTS}"
    if wrapped and enc.round <= 1:
        return "prev: already at the first turn of round 1"
    return None


def on_deck(enc: Encounter) -> int | None:
    """Who ``next`` would give the turn to if nothing changes first ("on
    deck"): the same search as ``next`` (:func:`following`), so combatants
    delaying and down monsters passed over are passed over here too.  None
    before the fight starts, with no active turn, or when the active
    combatant is the only one who acts."""
    if not enc.started or enc.turn is None or not 0 <= enc.turn < len(enc.combatants):
        return None
    import random

    from rules.engine.work import Roller

    nxt, _ = following(Work(enc, Roller(random.Random(0))), enc.turn)
    return None if nxt == enc.turn else nxt
