"""The newest log entries of a resumed fight (``History.window``, what
``show`` prints): the entries a bounded snapshot holds and the steps
replayed after it, with the older ones counted — entries and combats —
not read; older steps are read only when the snapshot holds fewer entries
than asked for, and then only as many as that takes.  And how many
combats the fight has begun (``History.combats``, what ``list`` says),
kept through every step, undo and redo."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine.combats import count_combats, openings
from rules.engine.history import KEEP_ENTRIES, READ_CHUNK, StepSource
from rules.engine.session import Session
from rules.engine.step import Step
from rules.errors import ActionError

CAST = ["add Zalek player hp 38 al 15 init 14", "add Goblin count 2 hp 9 al 13"]
#: a first combat longer than a snapshot holds
LONG = ["start", *["next", "damage 'Goblin 1' 1", "heal 'Goblin 1' 1"] * 150]
#: what a GM does next: more combats, undo and redo too
MOVES = [
    *["next"] * 8,
    "damage 'Goblin 1' 1",
    "heal 'Goblin 1' 1",
    "roll 1d20",
    "end",
    "start",
    "end; start",
    "undo",
    "undo",
    "redo",
]


class CountingSource:
    """The saved steps, by number, and which of them were read, how many at once."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = {step.seq: step for step in steps}
        self.read: list[int] = []
        self.reads: list[int] = []

    def read_steps(self, seqs: Sequence[int]) -> list[Step]:
        self.read += seqs
        self.reads.append(len(seqs))
        return [self.steps[seq] for seq in seqs]


def played(lines: Sequence[str], seed: int) -> tuple[Session, list[Step]]:
    session = Session(Encounter("Ambush"), rng=random.Random(seed))
    steps = [session.apply(line) for line in CAST]
    for line in lines:
        try:
            steps.append(session.apply(line))
        except ActionError:
            continue  # "end" out of combat, "redo" with nothing undone: refused
    return session, steps


def resumed(steps: Sequence[Step], at: int, source: CountingSource) -> Session:
    """The fight saved by a bounded snapshot after *at* steps, then the
    rest of *steps* replayed, as opening a saved fight does."""
    upto = Session(Encounter("Ambush"), rng=random.Random(0))
    for step in steps[:at]:
        upto.replay(step)
    data = json.loads(json.dumps(upto.to_dict(bounded=True)))
    again = Session.from_dict(data, random.Random(1), source)
    for step in steps[at:]:
        again.replay(step.to_dict())
    return again


def combats(entries: object) -> int:
    return count_combats(entries)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.sampled_from(MOVES), max_size=200),
    replayed=st.integers(0, 250),
    count=st.sampled_from([1, 10, KEEP_ENTRIES, 3 * KEEP_ENTRIES]),
    seed=st.integers(0, 2**16),
)
def test_the_newest_entries_are_the_whole_logs_tail(
    lines: list[str], replayed: int, count: int, seed: int
) -> None:
    twin, steps = played([*LONG, *lines], seed)
    source = CountingSource(steps)
    # saved *replayed* steps before the end: those are replayed on opening
    again = resumed(steps, len(steps) - replayed, source)
    held = len(again.log)
    window = again.log_window(count)
    full = twin.full_log()
    assert window.earlier + len(window.entries) == len(full)
    assert list(window.entries) == full[window.earlier :]
    assert len(window.entries) >= min(count, len(full))
    assert window.combats_earlier == combats(full[: window.earlier])
    # each combat's opening is placed, and numbered, as in the whole log
    assert (
        list(openings(window.entries, window.combats_earlier))
        == (list(openings(full))[window.earlier :])
    )
    if held >= count:
        assert source.read == []  # the snapshot and the steps after it were enough
    else:  # read a chunk at a time, newest first, and no more once enough
        assert len(set(source.read)) == len(source.read)
        last = source.read[(len(source.read) - 1) // READ_CHUNK * READ_CHUNK :]
        assert len(window.entries) - sum(len(source.steps[s].log) for s in last) < count


def test_a_snapshot_holding_enough_reads_no_older_step() -> None:
    twin, steps = played(["start", *["next", "damage 'Goblin 1' 1"] * 400, "end", "start"], 3)
    source = CountingSource(steps)
    again = resumed(steps, len(steps), source)
    window = again.log_window(KEEP_ENTRIES)
    assert source.read == []
    assert window.earlier > 0 and window.combats_earlier == 1
    assert window.combats_earlier + combats(window.entries) == combats(twin.full_log()) == 2


def test_the_whole_log_is_read_a_chunk_of_steps_at_a_time() -> None:
    # an export of a fight of 100,000 actions holds their entries, never
    # every step (patches and all) at once
    twin, steps = played(["start", *["next", "damage 'Goblin 1' 1"] * 500], 3)
    source = CountingSource(steps)
    again = resumed(steps, len(steps), source)
    assert again.full_log() == twin.full_log()
    assert len(source.reads) > 2 and max(source.reads) <= READ_CHUNK
    assert sorted(source.read) == sorted(set(source.read))  # each step read once


def test_older_steps_that_cannot_be_read_are_one_clear_error() -> None:
    class Unreadable:
        def read_steps(self, seqs: object) -> list[Step]:
            raise ActionError("the older history cannot be read (damaged)")

    _, steps = played(["start", *["next"] * 400], 3)
    data = json.loads(json.dumps(resumed(steps, len(steps), CountingSource(steps)).to_dict(True)))
    unreadable: StepSource = Unreadable()
    again = Session.from_dict(data, source=unreadable)
    assert len(again.log_window(10).entries) >= 10  # what the snapshot holds is enough
    try:
        again.log_window(KEEP_ENTRIES * 10)
    except ActionError as exc:
        assert "cannot be read" in str(exc)
    else:
        raise AssertionError("a window past the snapshot read nothing")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.sampled_from(MOVES), max_size=120),
    later=st.lists(st.sampled_from([*MOVES, *["undo"] * 12]), max_size=400),
    seed=st.integers(0, 2**16),
)
def test_the_combats_begun_are_counted_through_undo_and_redo(
    lines: list[str], later: list[str], seed: int
) -> None:
    """What ``list`` and the picker say ("combat 2 · round 3"), kept as
    each step, undo and redo changes it, undos reading older steps back."""
    _, steps = played([*LONG, *lines], seed)
    source = CountingSource(steps)
    again = resumed(steps, len(steps), source)
    assert again.combats() == combats(again.full_log())
    for line in later:
        try:
            again.apply(line)
        except ActionError:
            continue
        assert again.combats() == combats(again.full_log()), line
