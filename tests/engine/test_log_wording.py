"""What the log says, which the app, ``show`` and ``export`` all read:
a heal from 0 HP says the combatant is back up (RULES.md §4, §5), a name
ending in s owns with a bare apostrophe (``rules.text.possessive``), and a
total called out and applied with ``start`` in one step is said once."""

from __future__ import annotations

import random

from rules.encounter import Encounter
from rules.engine import Session
from rules.players_view import players_view


def fight(*lines: str, seed: int = 9) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in lines:
        s.apply(line)
    return s


def texts(s: Session, line: str) -> list[str]:
    return [e.text for e in s.apply(line).log]


# -- back up -------------------------------------------------------------------


def test_a_heal_from_zero_says_back_up_once_and_the_players_see_her_up() -> None:
    s = fight("add Mira player hp 24 al 13 init 20", "add Bram player hp 20 init 12", "start")
    assert texts(s, "damage Mira 30") == ["Mira takes 30 (24 HP lost, 0/24 left); Mira is down"]
    assert players_view(s.encounter)["combatants"][0]["down"] is True
    assert texts(s, "damage Bram 3") == ["Bram takes 3 (3 HP lost, 17/20 left)"]
    assert texts(s, "heal 'Mira,Bram' 5") == [
        "Mira heals 5 (5/24 HP); Mira is back up",
        "Bram heals 3 (20/20 HP)",  # not down: nothing to say
    ]
    mira = players_view(s.encounter)["combatants"][0]
    assert mira["name"] == "Mira" and mira["down"] is False
    assert texts(s, "heal Mira 2") == ["Mira heals 2 (7/24 HP)"]  # up already


# -- possessives ---------------------------------------------------------------


def test_names_ending_in_s_own_with_a_bare_apostrophe() -> None:
    s = fight(
        "add Ghoul count 2 hp 9 init 3 group Ghouls",
        "add Boris hp 10 init 8",
        "add Mira player hp 24 init 20",
        "start",
    )
    assert texts(s, "next")[-1] == "Boris' turn"
    assert texts(s, "add Ghast hp 7 group Ghouls")[-1] == (
        "Ghast takes group Ghouls' initiative of 3"
    )
    assert texts(s, "next")[-1] == "Ghoul 1's turn"
    assert "group Ghouls's" not in " ".join(e.text for e in s.log)


# -- called-out totals ---------------------------------------------------------


def test_totals_applied_with_start_in_one_step_are_said_once() -> None:
    s = fight(
        "add Zalek player hp 38 init 0",  # set earlier: start says it, as ever
        "set Zalek initiative none",
        "add Mira player hp 24",
        "add Tess player hp 20 init 11",
        "add Zombie count 2 hp 9 group Zombies",
    )
    log = texts(s, "init Zalek 14; init 'Zombie 2' 7; start")
    about_zalek = [t for t in log if "Zalek" in t and "initiative" in t]
    assert about_zalek == ["Zalek's initiative is now 14"]
    assert "Tess has a fixed initiative of 11" in log  # set in an earlier step
    assert [t for t in log if "Zombie" in t and "initiative" in t or "shares" in t] == [
        "Zombie 2's initiative is now 7",
        "group Zombies shares it (Zombie 1)",
    ]
    assert any(t.startswith("Mira rolls initiative: d20") for t in log)


# -- set hp says down and back up as damage and heal do ----------------------


def test_set_hp_to_zero_and_back_says_down_and_back_up_as_damage_and_heal_do() -> None:
    s = fight("add Mira player hp 24 al 13 init 20", "add Boris hp 10 init 8", "start")
    assert texts(s, "set Mira hp 0") == ["Mira: hp set to 0; Mira is down"]
    assert players_view(s.encounter)["combatants"][0]["down"] is True
    assert texts(s, "set Mira hp 0") == ["Mira: hp set to 0"]  # down already: nothing new
    assert texts(s, "set Mira hp 6") == ["Mira: hp set to 6; Mira is back up"]
    assert players_view(s.encounter)["combatants"][0]["down"] is False
    assert texts(s, "set Mira hp 7") == ["Mira: hp set to 7"]  # up already
    # each part of a batch says what it did, a name ending in s included
    assert texts(s, "set Boris hp 0; set Boris max_hp 30; set Boris hp 30") == [
        "Boris: hp set to 0; Boris is down",
        "Boris: max_hp set to 30",
        "Boris: hp set to 30; Boris is back up",
    ]
    # the undo takes the line away with the change; the redo brings both back
    s.undo()
    assert s.log[-1].text == "Mira: hp set to 7"
    s.redo()
    assert s.log[-1].text == "Boris: hp set to 30; Boris is back up"
