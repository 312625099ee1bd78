"""``Session.prev_refusal``: why ``prev`` would be refused, asked without
applying it and without reading the saved steps (the ``p`` key is greyed
with it on every repaint), and the same answer ``prev`` itself gives."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.history import StepSource
from rules.errors import ActionError
from tests.engine.test_combat_openings import played

CAST = ("add Ana hp 30 player init 15", "add Ogre hp 59 init 9", "add Imp hp 5 init 3")
FIRST = "prev: already at the first turn of round 1"


def fight(*lines: str) -> Session:
    s = Session(Encounter("Road"), rng=random.Random(5))
    for line in (*CAST, *lines):
        s.apply(line)
    return s


def test_round_ones_first_turn_refuses_prev_until_a_next() -> None:
    s = fight()
    assert s.prev_refusal() == "prev: combat has not started"
    s.apply("start")
    assert s.prev_refusal() == FIRST
    s.apply("next")
    assert s.prev_refusal() is None  # it undoes that next
    s.apply("prev")
    assert s.encounter.active.name == "Ana" and s.prev_refusal() == FIRST
    s.apply("redo")
    s.apply("damage Ogre 2")  # on top now: prev would move the pointer, and can
    assert s.prev_refusal() is None
    s.apply("prev")
    assert s.prev_refusal() == FIRST


def test_a_next_landing_on_round_ones_first_turn_is_undone_by_prev() -> None:
    # the active one removed while the others delay: no turn; Ana returns
    # and next gives her round 1's first turn, which prev undoes
    s = fight("start", "delay Ana", "delay Ogre")
    s.apply("remove Imp")
    assert s.encounter.turn is None
    s.apply("return Ana")
    s.apply("next")
    assert (s.encounter.round, s.encounter.active.name) == (1, "Ana")
    assert s.prev_refusal() is None
    s.apply("prev")


class Unreadable:
    """A steps file that must not be read."""

    def read_steps(self, seqs: object) -> list[object]:
        raise AssertionError("prev_refusal read the saved steps")


def held_only_in_the_steps_file(*lines: str) -> Session:
    """A fight resumed from a bounded snapshot whose steps file must not be
    read, with the undo steps it holds in memory dropped, as undoing past
    them leaves it (the encounter kept as it is)."""
    data = json.loads(json.dumps(fight(*lines).to_dict(bounded=True)))
    source: StepSource = Unreadable()  # type: ignore[assignment]
    again = Session.from_dict(data, source=source)
    while again.history.undo_steps:
        again.history.undid(again.history.undo_steps[-1])
    assert again.history.undo_older
    return again


def test_a_top_only_in_the_saved_steps_is_not_read() -> None:
    assert held_only_in_the_steps_file("start", *["next"] * 400).prev_refusal() is None
    hits = ["damage Ogre 1", "heal Ogre 1"] * 200
    assert held_only_in_the_steps_file("start", *hits).prev_refusal() == FIRST


POOL = (
    "start",
    "next",
    "prev",
    "end",
    "damage Imp 5",
    "heal Imp 5",
    "delay Ana",
    "return Ana",
    "delay Ogre",
    "return Ogre",
    "remove Imp",
    "init Ogre 20",
    "undo",
    "redo",
)


@given(st.lists(st.sampled_from(POOL), max_size=25), st.integers(0, 10_000))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_refusal_is_the_one_prev_gives(lines: list[str], seed: int) -> None:
    s = played(CAST, lines, seed)
    said = s.prev_refusal()
    copy = Session.from_dict(json.loads(json.dumps(s.to_dict())))
    try:
        copy.apply("prev")
    except ActionError as refused:
        assert said == str(refused)
    else:
        assert said is None
