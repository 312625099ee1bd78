"""What is logged outside combat (issue 11): before the first ``start`` and
after ``end``, every entry is in round 0 (shown "–", exported under
"Before combat"), never in the last round of a combat that is over."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session


def two_fights() -> Session:
    s = Session(Encounter("Road"), rng=random.Random(9))
    for line in ("add Ana hp 30 player init 15", "add Ogre hp 59", "start", "next", "next"):
        s.apply(line)
    return s


def test_lines_logged_after_end_are_in_round_zero() -> None:
    s = two_fights()
    assert s.encounter.round == 2
    end = s.apply("end")
    assert [e.round for e in end.log] == [2]  # the end line is the combat's last
    lines = [s.apply("init Ana 12"), s.apply("damage Ogre 5"), s.apply("heal Ogre 2")]
    assert {e.round for step in lines for e in step.log} == {0}
    assert "Ana's initiative is now 12" in [e.text for e in lines[0].log]
    assert s.encounter.round == 2  # the count stays, for the record


def test_the_next_start_rolls_in_round_zero_then_begins_round_one() -> None:
    s = two_fights()
    s.apply("end")
    start = s.apply("start")
    rounds = [(e.round, e.text) for e in start.log]
    # end cleared the initiatives: both roll anew, outside any round
    assert [r for r, text in rounds if "rolls initiative" in text] == [0, 0]
    assert (1, "Round 1") in rounds
    assert all(r == 1 for r, _ in rounds[rounds.index((1, "Round 1")) :])


def test_before_the_first_start_everything_is_round_zero() -> None:
    s = Session(Encounter("Road"), rng=random.Random(9))
    step = s.apply("add Ogre hp 59")
    assert {e.round for e in step.log} == {0}
