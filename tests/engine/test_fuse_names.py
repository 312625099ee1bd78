"""Unquoted full names read in one pass (``rules.engine.fuse``): the runs
of words that spell names are the ones the plain definition gives (every
comma piece a full name or a selector, one a full name with a space), the
quoting hint finds the same words, and a line of any length made of name
words is read with one clear answer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.fuse import Spelled, begun_name, run_ends
from rules.engine.parse import parse_action
from rules.engine.targets import is_selector
from rules.errors import ActionError
from rules.limits import MAX_LINE
from rules.text import name_key

NAMES = ["Goblin Boss", "Goblin", "Ogre 2", "Ogre", "Brother Tomas", "Big Bad Wolf"]
GROUPS = ["Horde Of Doom"]
WORDS = [
    *[
        "Goblin",
        "Boss",
        "Ogre",
        "2",
        "5",
        "fire",
        "half",
        "x",
        "Brother",
        "Tom",
        "Tomas",
        "Big",
        "Bad",
        "Wolf",
        "Horde",
        "Of",
        "Doom",
    ],
    *["Boss,Goblin", ",", "", " ", "B*", "Gob*", "Bad*", "*", "x*", "all", "Boss,", ",Ogre"],
    *["Wolf,Big", "Goblin ", " Boss", "goblin", "BOSS", "2,", "2,Ogre"],
]


def spells_names(text: str, spelled: Spelled) -> bool:
    """The plain definition, run by run: every comma piece a full name or a
    selector (one of several words only when its words before the last
    begin a name), one piece a full name with a space."""
    pieces = [p.strip() for p in text.split(",")]
    if not all(pieces):
        return False
    for piece in pieces:
        if name_key(piece) in spelled.keys:
            continue
        if not is_selector(piece):
            return False
        if " " in piece and name_key(piece.rsplit(" ", 1)[0]) not in spelled.begins:
            return False
    return any(" " in p and name_key(p) in spelled.keys for p in pieces)


def begins_a_name(rest: list[str], start: int, names: list[str]) -> int | None:
    """The plain definition of the quoting hint's run: the longest whose
    last comma piece has a space and begins a name."""
    for end in range(len(rest), start + 1, -1):
        piece = name_key(" ".join(rest[start:end]).rsplit(",", 1)[-1].strip())
        if " " in piece and any(name_key(n).startswith(piece) for n in names):
            return end
    return None


@settings(max_examples=2000)
@given(st.lists(st.sampled_from(WORDS), max_size=9), st.integers(0, 3))
def test_the_runs_read_in_one_pass_are_the_runs_that_spell_names(
    rest: list[str], start: int
) -> None:
    spelled = Spelled(NAMES, GROUPS)
    if start >= len(rest):
        return
    ends = [end for end, _, _ in run_ends(rest, start, spelled)]
    plain = [
        end
        for end in range(start + 2, len(rest) + 1)
        if spells_names(" ".join(rest[start:end]), spelled)
    ]
    assert ends == plain
    assert begun_name(rest, start, spelled) == begins_a_name(rest, start, [*NAMES, *GROUPS])


def spaced_fight() -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(4))
    session.apply("add 'Goblin Boss' count 100 hp 30")
    session.apply("add Goblin hp 7")
    session.apply("add 'Brother Tomas' hp 20")
    return session


def test_an_unquoted_comma_list_of_sixty_full_names_is_read_as_targets() -> None:
    session = spaced_fight()
    names = [f"Goblin Boss {n}" for n in range(1, 61)]
    step = session.apply(f"damage {', '.join(names)} 5 fire half {','.join(names[::2])}")
    assert step.action["targets"] == names
    assert step.action["half"] == names[::2]
    hp = {c.name: c.hp for c in session.encounter.combatants}
    assert hp["Goblin Boss 1"] == 28 and hp["Goblin Boss 2"] == 25 and hp["Goblin"] == 7


@pytest.mark.parametrize(
    ("head", "piece", "tail", "message"),
    [
        # words of a name, over and over: read as the name, then what follows
        ("damage ", "Goblin Boss ", "5", "damage: unexpected 'Boss'; a name with spaces"),
        ("damage ", "Goblin Boss 1 ", "5", 'damage amount: "G"'),
        ("damage ", "Goblin Boss 1,", "Goblin x 5", 'damage amount: "x"'),
        ("heal Brother ", "Tom ", "5", "heal: unexpected 'Tom'; a name with spaces"),
        ("damage 'Goblin Boss 1' 5 ", "half Goblin Boss 1 ", "", "damage: half given twice"),
        ("cond 'Goblin Boss 1' prone ", "of ", "Goblin Boss 1", "cond: of given twice"),
    ],
)
def test_a_line_of_name_words_as_long_as_the_bound_gets_one_message(
    head: str, piece: str, tail: str, message: str
) -> None:
    session = spaced_fight()
    line = head + piece * ((MAX_LINE - len(head) - len(tail)) // len(piece)) + tail
    assert MAX_LINE - len(piece) < len(line) <= MAX_LINE
    before = session.to_dict()
    with pytest.raises(ActionError) as caught:
        session.apply(line)
    said = str(caught.value)
    assert said.startswith(message) and "\n" not in said and len(said) < 400
    assert session.to_dict() == before
    with pytest.raises(ActionError, match=f"too long \\({MAX_LINE + 1:,} characters"):
        session.apply(line + " " * (MAX_LINE + 1 - len(line)))


def test_only_the_fights_longest_name_bounds_a_run_not_the_line() -> None:
    # a run never grows past the words of the longest name: "Goblin Boss 1
    # Goblin" begins no name, so the first name ends the run
    spelled = Spelled(["Goblin Boss 1", "Goblin"])
    rest = ["Goblin", "Boss", "1", "Goblin", "Boss", "1", "5"]
    assert [end for end, _, _ in run_ends(rest, 0, spelled)] == [3]
    assert parse_action("damage Goblin Boss 1 5", ["Goblin Boss 1", "Goblin"])["targets"] == [
        "Goblin Boss 1"
    ]
