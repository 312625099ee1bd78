"""The turn cycle: start of combat, end of a turn, start of the next.

Pure functions over a :class:`rules.engine.work.Work` (the encounter being
changed, its log lines and its random source).  They call the rules core for
every piece of arithmetic (RULES.md §4 initiative, §7 persistent damage,
§8 endurance, §6/§9/§10 durations) and only decide *when* each happens;
each function's docstring says what happens at its boundary.
"""

from __future__ import annotations

from dataclasses import replace

from rules.abilities import initiative_order, roll_initiative
from rules.combatant import Combatant
from rules.dice import roll
from rules.durations import Duration, tick_durations
from rules.encounter import Encounter
from rules.endurance import endurance_check, endurance_of, start_of_turn
from rules.engine.work import Work
from rules.errors import ActionError
from rules.persistent import tick_persistent

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
    cs = work.enc.combatants
    skip = passed_over(work.enc) | exclude
    n = len(cs)
    start = -1 if index is None else index
    for step in range(1, n + 1):
        i = start + step
        if i >= n:
            i -= n
        if cs[i].name not in skip:
            return i, start + step >= n
    return None, False


def preceding(work: Work, index: int) -> tuple[int | None, bool]:
    """The previous combatant that takes its turn, and whether it wrapped."""
    cs = work.enc.combatants
    skip = passed_over(work.enc)
    n = len(cs)
    for step in range(1, n + 1):
        i = index - step
        wrapped = i < 0
        if wrapped:
            i += n
        if cs[i].name not in skip:
            return i, wrapped
    return None, False


def ending_round(enc: Encounter, duration: Duration | None) -> int | None:
    """The round in which *duration* runs out if the fight goes on as it
    stands (nobody added, removed, delayed or re-ordered), for the log line
    that grants it (RULES.md §10); None when it cannot be foreseen (no
    duration, its combatant is delaying or absent, no active turn).

    It counts down at every processed ``tick`` of ``of``'s turn from now on:
    at the end of the active combatant's own turn, at both ticks of anyone
    still to act this round, from next round for anyone who has acted — so
    a 1-round frighten given during Goblin 1's turn and counted on Goblin 3
    (later in the order) ends at the end of Goblin 3's turn in this round.
    Boundaries ``prev`` stepped back over (``Encounter.rewound``) are not
    processed again, so they do not count.
    """
    if duration is None or not duration.of:
        return None
    names = [c.name for c in enc.combatants]
    passed = passed_over(enc)
    if duration.of not in names or duration.of in passed:
        return None
    if not enc.started:
        return duration.rounds_left  # every turn of round 1 is still to come
    if enc.turn is None or not 0 <= enc.turn < len(names):
        return None
    acting = [i for i, n in enumerate(names) if n not in passed]
    if not acting:
        return None
    rnd, index, skip = enc.round, enc.turn, enc.rewound
    for _ in range((skip + 2) * (len(acting) + 1)):
        if skip == 0 and names[index] == duration.of and duration.tick == "end":
            return rnd + duration.rounds_left - 1
        later = [i for i in acting if i > index]
        index = later[0] if later else acting[0]
        rnd += 0 if later else 1
        if skip > 0:
            skip -= 1
        elif names[index] == duration.of and duration.tick == "start":
            return rnd + duration.rounds_left - 1
    return None  # pragma: no cover - the loop always reaches the combatant


def dash_check(work: Work, c: Combatant, when: str) -> Combatant | None:
    """The Dash check a combatant makes on entering combat (RULES.md §8);
    None when it has no CON and Athletics (it is skipped)."""
    state = c.endurance if c.endurance is not None else endurance_of(c)
    if state is None:
        return None
    face = None
    if state.active.get("dash", 0) <= 0:
        face = work.d20(f"{c.name} {when} Dash check (d20)")
    state, check = work.roll("", endurance_check, state, "dash", face)
    work.log(c.name, f"{c.name} {when} {check.text}")
    return replace(c, endurance=state)


def start_combat(work: Work) -> None:
    """``start``: initiative, start-of-combat Dash checks, round 1 (§4, §8).

    Every combatant without a fixed initiative rolls it; the order is sorted
    (ties per §4); each combatant with CON and Athletics makes the
    start-of-combat Dash check (those without are listed as skipped); round
    1 begins with the first combatant not delaying, whose turn starts."""
    enc = work.enc
    if enc.started:
        raise ActionError("start: combat has already started (use next, or undo)")
    if not enc.combatants:
        raise ActionError("start: the encounter is empty (add combatants first)")
    rolled: list[Combatant] = []
    for c in enc.combatants:
        if c.initiative is None:
            r = work.roll(f"{c.name} initiative (d20)", roll_initiative, c, work.roller)
            work.log(c.name, r.text)
            c = replace(c, initiative=r.total)
        else:
            work.log(c.name, f"{c.name} has a fixed initiative of {c.initiative}")
        rolled.append(c)
    ordered = list(initiative_order(rolled))
    skipped: list[str] = []
    for i, c in enumerate(ordered):
        checked = dash_check(work, c, "start-of-combat")
        if checked is None:
            skipped.append(c.name)
        else:
            ordered[i] = checked
    if skipped:
        work.log("", "No start-of-combat Dash check (no CON and Athletics): " + ", ".join(skipped))
    work.enc = replace(work.enc, combatants=tuple(ordered), started=True, round=1, turn=None)
    first, _ = following(work, None)
    if first is None:
        raise ActionError(f"start: {NOBODY_ACTS}")
    work.log("", "Round 1")
    work.enc = replace(work.enc, turn=first)
    begin_turn(work)


def begin_turn(work: Work) -> None:
    """Start-of-turn processing for the active combatant (§6/§9/§10, then
    §8): every duration that counts down at the *start* of its turn ticks;
    then its endurance counts one of its own turns (active movement windows
    and the recovery countdown).  None when the pointer is only catching up
    after ``prev`` (one turn of ``Encounter.rewound`` is counted off
    instead, logged ``(already processed)``)."""
    active = work.enc.active
    if active is None:
        return
    name = active.name
    if work.enc.rewound > 0:
        work.enc = replace(work.enc, rewound=work.enc.rewound - 1)
        work.log(name, f"{name}'s turn (already processed)")
        return
    work.log(name, f"{name}'s turn")
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


def end_turn(work: Work) -> None:
    """End-of-turn processing for the active combatant (§7, then
    §6/§9/§10): each of its persistent damage entries is rolled and applied,
    then its flat check is rolled (both logged); then every duration that
    counts down at the *end* of its turn ticks.  None when the pointer is
    only catching up after ``prev`` (see :func:`step_back`)."""
    active = work.enc.active
    if active is None:
        return
    name = active.name
    if work.enc.rewound > 0:
        work.log(name, f"End of {name}'s turn (already processed)")
        return
    if active.persistent:
        for entry in active.persistent:
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
    end_durations(work, name)


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


def end_turn_leaving(work: Work, name: str, leaving: frozenset[str]) -> None:
    """The active combatant *name* leaves the fight (``remove``): its turn
    ends now, so durations counted at the end of its turn tick on everyone
    staying; its own persistent damage is not rolled (it is gone)."""
    if work.enc.rewound > 0:
        work.log(name, f"End of {name}'s turn (already processed)")
        return
    end_durations(work, name, leaving)


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
    """``next``: end the active turn, start the next one (§7, §8, §10).

    The next combatant is the one after the active one that takes its turn,
    wrapping to a new round (logged ``Round N``).  Down combatants (0 HP)
    keep their place (§4); a down non-player combatant's turns are skipped
    unless the ruleset option ``down_turns`` is ``keep`` (§4), so nothing of
    its turn happens — no persistent damage tick (§7), no duration counted
    on its turns — until it is healed.  A down player keeps its turns.  A
    combatant delaying never takes a turn until it returns."""
    if not work.enc.started:
        raise ActionError("next: combat has not started (use start)")
    if not work.enc.combatants:
        raise ActionError("next: the encounter is empty")
    if work.enc.turn is not None:
        end_turn(work)
    advance(work)


def step_back(work: Work) -> None:
    """``prev`` when the last action was not a ``next`` (otherwise the
    engine undoes that ``next``): move the turn pointer back to the previous
    combatant not delaying, and to the previous round if it wraps.  Nothing
    is undone, no duration or persistent damage is reverted — it is the GM
    saying "that was still Mira's turn".  Before the first turn of round 1
    it is an error.

    Decision — boundaries are processed once.  The turn boundaries ``prev``
    stepped back over were already processed (persistent damage rolled,
    durations and endurance counted).  The encounter remembers how many
    turns the pointer is behind the furthest turn reached
    (``Encounter.rewound``, +1 per pointer-only ``prev``); while it is above
    0, passing a turn boundary (``next``, ``delay`` or ``remove`` of the
    active combatant) moves the pointer without end-of-turn or start-of-turn
    processing, logs ``End of Mira's turn (already processed)`` / ``Goblin's
    turn (already processed)``, and counts one off.  So ``prev`` then
    ``next`` returns to where the fight was without a second bleed tick.  A
    counter of turns, not a remembered (round, index), so adding, removing
    or re-ordering combatants meanwhile cannot make a boundary that was
    never processed look processed.  The consequence: nothing counts down
    at a skipped boundary, including a duration granted while the pointer
    was back (the GM may ``uncond`` it)."""
    enc = work.enc
    if not enc.started or enc.turn is None:
        raise ActionError("prev: combat has not started")
    prev, wrapped = preceding(work, enc.turn)
    if prev is None:
        raise ActionError(f"prev: {NOBODY_ACTS}")
    if wrapped and enc.round <= 1:
        raise ActionError("prev: already at the first turn of round 1")
    new_round = enc.round - 1 if wrapped else enc.round
    work.enc = replace(enc, turn=prev, round=new_round, rewound=enc.rewound + 1)
    name = work.enc.combatants[prev].name
    work.log(name, f"Turn moved back to {name} (round {new_round}); nothing was undone")
