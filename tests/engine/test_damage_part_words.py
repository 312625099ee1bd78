"""Damage parts typed in words (issue 11): ``plus`` and ``and`` separate
the parts of one damage entry as ``+`` does, and a tag that is dice is
refused with one message, as a number tag is, so a part is never halved by
another part's resistance."""

from __future__ import annotations

import random
import re

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.complete import Known, completions
from rules.engine.format import format_action
from rules.engine.parse import parse_action
from rules.errors import ActionError


def imp(seed: int = 5) -> Session:
    s = Session(Encounter("Pit"), rng=random.Random(seed))
    s.apply("add Imp hp 60 resist fire=5")
    return s


@pytest.mark.parametrize("joiner", ["plus", "and", "PLUS", "+"])
def test_plus_and_and_start_a_new_part_like_plus_sign(joiner: str) -> None:
    s = imp()
    step = s.apply(f"damage Imp 1d8+4 slashing {joiner} 2d6 fire faces 3,4,2")
    assert step.action["amount"] == "1d8+4" and step.action["tags"] == ["slashing"]
    assert step.action["extra"] == [{"amount": "2d6", "tags": ["fire"]}]
    # 7 slashing untouched; 6 fire halved (core: resist halves) to 3
    assert step.log[-1].text == (
        "Imp takes 7 slashing + [6 fire → resist ½ = 3] = 10 (10 HP lost, 50/60 left)"
    )
    assert s.encounter.combatants[0].hp == 50


def test_plus_inside_the_dice_continues_them_as_plus_sign_does() -> None:
    assert parse_action("damage Imp 1d8 plus 4 slashing and 2d6 fire") == parse_action(
        "damage Imp 1d8 + 4 slashing + 2d6 fire"
    )


@pytest.mark.parametrize(
    "line",
    [
        "damage Imp 1d8+4 slashing plus 2d6 fire",
        "damage Imp 2d6 fire and 1d4 cold and 3 poison crit",
        "attack Imp roll 15 damage 1d8 slashing plus 1d6 fire",
    ],
)
def test_words_read_back_as_the_same_record(line: str) -> None:
    record = parse_action(line)
    assert "plus" not in format_action(record)
    assert parse_action(format_action(record)) == record


@pytest.mark.parametrize("tag", ["2d6", "d8", "3d6+1", "D20"])
def test_a_tag_that_is_dice_is_refused_and_nothing_changes(tag: str) -> None:
    s = imp()
    before = s.to_dict()
    with pytest.raises(ActionError, match=re.escape(f"damage tag '{tag}' is dice")):
        s.apply(f"damage Imp 1d8 slashing {tag} fire")
    assert s.to_dict() == before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage Imp 5 fire and cold", "one part's tags are listed with spaces"),
        ("damage Imp 5 fire plus", "plus needs a damage part"),
        ("damage Imp 5 fire and 2d6", "needs a tag"),
        ("persist Imp 1d6 fire and", "'and' is not a damage tag"),
    ],
)
def test_a_joiner_without_a_part_is_one_message(line: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        parse_action(line)


def test_completion_after_plus_offers_the_tags() -> None:
    known = Known(["Imp"], ["fire"])
    found = completions("damage Imp 1d8 slashing plus 2d6 f", known=known)
    assert "damage Imp 1d8 slashing plus 2d6 fire" in found
    # the dice go on after a trailing plus: nothing is offered yet
    assert completions("damage Imp 1d8 plus f", known=known) == []
