"""Where each combat opens in the log (``rules.engine.combats``): at the
first entry its ``start`` logged, so the initiative rolls and Dash checks
of combat 2 are that combat's, not the tail of combat 1; numbered from the
entries alone, through undo and redo."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter, LogEntry
from rules.engine import Session
from rules.engine.combats import begins_combat, count_combats, ends_combat, openings
from rules.errors import ActionError

CAST = ("add Ana hp 30 player init 15 con 14 athletics 2", "add Ogre hp 59")


def fight(*lines: str, seed: int = 4) -> Session:
    s = Session(Encounter("Road"), rng=random.Random(seed))
    for line in (*CAST, *lines):
        s.apply(line)
    return s


def opened(log: list[LogEntry]) -> list[tuple[int, str]]:
    """``(combat, text)`` of each entry that opens a combat."""
    return [(n, e.text) for e, n in zip(log, openings(log), strict=True) if n]


def test_the_first_combat_opens_with_its_first_initiative() -> None:
    s = fight("start")
    start = s.history.undo_steps[-1].log
    assert opened(s.log) == [(1, start[0].text)]
    assert start[0].text == "Ana has a fixed initiative of 15"
    assert not any(n for n in openings(s.log[:2]))  # the adds are before it


def test_the_second_combat_opens_above_its_initiative_and_dash_checks() -> None:
    s = fight("start", "next", "next", "end", "damage Ogre 4")
    between = len(s.log)
    step = s.apply("start")
    texts = [e.text for e in step.log]
    # end cleared both initiatives: both roll, Ana makes her Dash check, then round 1
    assert sum("rolls initiative" in t for t in texts) == 2
    assert any("start-of-combat Dash" in t for t in texts)
    assert texts.index("Round 1") == len(texts) - 2  # ... then the first turn
    numbers = list(openings(s.log))
    assert numbers[between] == 2 and texts[0] == s.log[between].text
    assert not any(numbers[between + 1 :])
    assert [n for n in numbers[:between] if n] == [1]  # the end and the damage: combat 1's
    assert s.log[between - 1].text.startswith("Ogre takes 4")


def test_a_batch_that_ends_and_starts_opens_after_the_end() -> None:
    s = fight("start", "next")
    step = s.apply("end; start")
    assert ends_combat(step.log[0].actor, step.log[0].text)
    at = len(s.log) - len(step.log)
    assert [n for n in openings(s.log)][at : at + 2] == [0, 2]


def test_the_combats_before_the_log_number_the_openings() -> None:
    s = fight("start", "end", "start")
    assert [n for n in openings(s.log, before=3) if n] == [4, 5]


def test_undo_takes_the_opening_away_and_redo_puts_it_back_in_place() -> None:
    s = fight("start", "next", "end", "damage Ogre 2", "start", "next")
    placed = opened(s.log)
    s.undo()
    s.undo()
    assert [n for n, _ in opened(s.log)] == [1]
    s.redo()
    s.redo()
    assert opened(s.log) == placed


def test_a_log_without_a_round_one_opens_nothing() -> None:
    log = [LogEntry(1, 0, "Ogre", "Ogre rolls initiative: d20 (3) + 0 = 3")]
    assert list(openings(log)) == [0]


POOL = (
    "start",
    "next",
    "prev",
    "end",
    "damage Ogre 3",
    "heal Ogre 1",
    "init Ogre 7",
    "end; start",
    "damage Ana 1; start",
    "undo",
    "redo",
)


def played(cast: tuple[str, ...], lines: list[str], seed: int) -> Session:
    """A seeded fight of *cast*, then *lines*, the refused ones changing nothing."""
    s = Session(Encounter("Road"), rng=random.Random(seed))
    for line in (*cast, *lines):
        with contextlib.suppress(ActionError):
            s.apply(line)
    return s


@given(st.lists(st.sampled_from(POOL), max_size=30), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_combat_opens_once_with_what_its_start_logged(lines: list[str], seed: int) -> None:
    log = played(CAST, lines, seed).log
    numbers = list(openings(log))
    assert [n for n in numbers if n] == list(range(1, count_combats(log) + 1))
    for at, number in enumerate(numbers):
        if not number:
            continue
        # from the opening to its Round 1: one action's entries, outside any round
        rest = log[at:]
        round_one = next(i for i, e in enumerate(rest) if begins_combat(e.actor, e.text))
        assert {e.seq for e in rest[: round_one + 1]} == {log[at].seq}
        assert all(e.round == 0 for e in rest[:round_one])
        assert not any(ends_combat(e.actor, e.text) for e in rest[:round_one])
        # and the entry above it is another action's, or the end it follows
        if at:
            above = log[at - 1]
            assert above.seq != log[at].seq or ends_combat(above.actor, above.text)
