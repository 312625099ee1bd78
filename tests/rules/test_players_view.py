"""The players' view (issue 12): what the redaction shows for every
setting, masked and hidden combatants, the hidden-turn rule, HP bands at
their edges, and durations in words.  Fights are built as frozen
encounters (turn and round set by hand) so each rule is seen alone."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from rules.bonuses import Bonus
from rules.combatant import Combatant
from rules.conditions import Condition
from rules.durations import Duration
from rules.encounter import Encounter
from rules.persistent import PersistentDamage
from rules.players_view import UNKNOWN, UNTOLD, hp_band, players_view
from rules.rulesets import ruleset
from rules.view_settings import ViewSettings


def pc(name: str, hp: int = 20, **kw: Any) -> Combatant:
    return Combatant(name=name, max_hp=kw.pop("max_hp", hp), hp=hp, player=True, **kw)


def npc(name: str, hp: int = 10, **kw: Any) -> Combatant:
    return Combatant(name=name, max_hp=kw.pop("max_hp", hp), hp=hp, **kw)


def fight(*combatants: Combatant, turn: int | None = 0, round: int = 1, **kw: Any) -> Encounter:
    started = turn is not None
    return Encounter(
        "Crypt",
        combatants=tuple(combatants),
        turn=turn,
        round=round if started else 0,
        started=started,
        **kw,
    )


def names(view: dict[str, Any]) -> list[str]:
    return [c["name"] for c in view["combatants"]]


def active_name(view: dict[str, Any]) -> str | None:
    i = view["active"]
    return None if i is None else view["combatants"][i]["name"]


def next_name(view: dict[str, Any]) -> str | None:
    i = view["next"]
    return None if i is None else view["combatants"][i]["name"]


# ---------------------------------------------------------------------------
# bands (README "Decisions": Bloodied; RULES.md §4 down, §6 temp HP)


@pytest.mark.parametrize(
    ("hp", "max_hp", "band"),
    [
        (10, 10, "healthy"),  # full
        (9, 10, "hurt"),  # just below full
        (6, 10, "hurt"),  # above half
        (5, 10, "bloodied"),  # exactly half
        (6, 11, "hurt"),  # 6 of 11 is above half
        (5, 11, "bloodied"),
        (1, 10, "bloodied"),
        (0, 10, "down"),
        (1, 1, "healthy"),
        (1, 2, "bloodied"),
    ],
)
def test_hp_bands_at_their_edges(hp: int, max_hp: int, band: str) -> None:
    assert hp_band(npc("Ogre", hp, max_hp=max_hp)) == band


@pytest.mark.parametrize("hp", [10, 7, 5, 1, 0])
def test_temp_hp_never_change_the_band(hp: int) -> None:
    plain = npc("Ogre", hp, max_hp=10)
    assert hp_band(replace(plain, temp_hp=12)) == hp_band(plain)


def test_band_is_what_the_players_see_of_a_monster_by_default() -> None:
    enc = fight(npc("Ogre", 5, max_hp=10, temp_hp=4), pc("Mira", 7, max_hp=24, temp_hp=3))
    ogre, mira = players_view(enc)["combatants"]
    assert ogre["hp"] == {"kind": "band", "band": "bloodied"}
    assert mira["hp"] == {"kind": "exact", "hp": 7, "max": 24, "temp": 3}


# ---------------------------------------------------------------------------
# every setting


@pytest.mark.parametrize("mode", ["band", "exact", "hidden"])
def test_monster_and_player_hp_settings_are_separate(mode: str) -> None:
    enc = fight(npc("Ogre", 30, max_hp=40), pc("Mira", 8, max_hp=24))
    ogre_shown = {
        "band": {"kind": "band", "band": "hurt"},
        "exact": {"kind": "exact", "hp": 30, "max": 40, "temp": 0},
        "hidden": None,
    }
    mira_shown = {
        "band": {"kind": "band", "band": "bloodied"},
        "exact": {"kind": "exact", "hp": 8, "max": 24, "temp": 0},
        "hidden": None,
    }
    ogre, mira = players_view(enc, ViewSettings(monster_hp=mode))["combatants"]
    assert ogre["hp"] == ogre_shown[mode]
    assert mira["hp"] == mira_shown["exact"]  # the players' own setting: default
    ogre, mira = players_view(enc, ViewSettings(player_hp=mode, monster_hp="exact"))["combatants"]
    assert ogre["hp"] == ogre_shown["exact"]
    assert mira["hp"] == mira_shown[mode]


def test_hidden_hp_leaves_no_number_in_the_view() -> None:
    enc = fight(npc("Ogre", 4321, max_hp=8765, temp_hp=1234, al=17, initiative=3))
    text = json.dumps(players_view(enc, ViewSettings(monster_hp="hidden")))
    for number in ("4321", "8765", "1234"):
        assert number not in text


def test_al_shows_only_when_asked_and_with_its_al_bonuses() -> None:
    shield = Bonus("deflection", 2, "al")
    enc = fight(npc("Ogre", al=14, bonuses=(shield,)), pc("Mira", al=13))
    hidden = players_view(enc)
    assert [c["al"] for c in hidden["combatants"]] == [None, None]
    assert hidden["shows"]["al"] is False
    shown = players_view(enc, ViewSettings(show_al=True))
    assert [c["al"] for c in shown["combatants"]] == [16, 13]
    assert shown["shows"]["al"] is True
    odd = fight(npc("Ogre", al=14, bonuses=(Bonus("made-up", 2, "al"),)))  # a hand-edited file
    assert players_view(odd, ViewSettings(show_al=True))["combatants"][0]["al"] == 14


def test_initiative_shows_unless_turned_off() -> None:
    enc = fight(pc("Mira", initiative=18), npc("Ogre", initiative=7))
    assert [c["initiative"] for c in players_view(enc)["combatants"]] == [18, 7]
    off = players_view(enc, ViewSettings(show_initiative=False))
    assert [c["initiative"] for c in off["combatants"]] == [None, None]
    assert off["shows"]["initiative"] is False


def test_the_encounters_own_settings_are_used_by_default() -> None:
    enc = fight(npc("Ogre", 30, max_hp=40), view=ViewSettings(monster_hp="exact"))
    assert players_view(enc)["combatants"][0]["hp"]["kind"] == "exact"
    assert players_view(enc, ViewSettings())["combatants"][0]["hp"]["kind"] == "band"


def test_settings_that_only_the_gm_needs_are_not_in_the_view() -> None:
    # "new monsters start hidden" would tell the players there may be some
    settings = ViewSettings(new_monsters="hidden", reveal_on_turn=True)
    text = json.dumps(players_view(fight(pc("Mira")), settings))
    assert "new_monsters" not in text and "reveal" not in text


# ---------------------------------------------------------------------------
# masked and hidden


def test_a_hidden_combatant_is_absent_and_leaves_no_gap() -> None:
    enc = fight(
        pc("Mira", initiative=20),
        npc("Assassin", visibility="hidden", initiative=15),
        npc("Ogre", initiative=10),
    )
    view = players_view(enc)
    assert names(view) == ["Mira", "Ogre"]
    assert [c["id"] for c in view["combatants"]] == ["c1", "c2"]
    assert "Assassin" not in json.dumps(view)


def test_a_masked_combatant_shows_its_place_and_nothing_of_itself() -> None:
    lurker = npc(
        "Lurker",
        33,
        max_hp=40,
        al=19,
        initiative=12,
        visibility="masked",
        conditions=(Condition("invisible"),),
        persistent=(PersistentDamage("1d6", ("acid",)),),
    )
    enc = fight(pc("Mira", initiative=20), lurker)
    view = players_view(enc, ViewSettings(monster_hp="exact", show_al=True))
    masked = view["combatants"][1]
    assert masked == {
        "id": "c2",
        "name": UNKNOWN,
        "player": False,
        "masked": True,
        "active": False,
        "next": True,
        "delayed": False,
        "down": False,
        "hp": None,
        "al": None,
        "initiative": 12,  # the order shows where it acts anyway
        "conditions": [],
        "persistent": [],
    }
    text = json.dumps(view)
    for secret in ("Lurker", "invisible", "acid", "33", "40", "19"):
        assert secret not in text


def test_a_player_is_shown_whatever_its_visibility_says() -> None:
    enc = fight(pc("Mira", visibility="hidden"), pc("Zalek", visibility="masked"))
    assert names(players_view(enc)) == ["Mira", "Zalek"]


def test_down_and_delayed_show_also_for_a_masked_combatant() -> None:
    enc = fight(
        pc("Mira"),
        npc("Lurker", 0, max_hp=30, visibility="masked"),
        npc("Ogre"),
        delayed=("Ogre",),
    )
    _, lurker, ogre = players_view(enc)["combatants"]
    assert lurker["down"] is True and lurker["hp"] is None
    assert ogre["delayed"] is True


def test_text_is_made_safe_and_persistent_damage_shows_by_tag_only() -> None:
    enc = fight(
        npc(
            "Gob\x1b[31mlin",
            conditions=(Condition("po\u202eisoned", value=2),),
            persistent=(PersistentDamage("2d6+3", ("fire", "acid"), dc=15, source="Mira"),),
        ),
        pc("Mira"),
    )
    view = players_view(enc)
    goblin = view["combatants"][0]
    assert goblin["name"] == "Gob\\x1b[31mlin"
    assert goblin["conditions"] == [{"name": "po\\u202eisoned", "value": 2, "duration": None}]
    assert goblin["persistent"] == ["fire/acid"]
    text = json.dumps(view, ensure_ascii=False)
    assert "2d6" not in text and "\x1b" not in text and "\u202e" not in text


# ---------------------------------------------------------------------------
# whose turn, who is next, and the hidden-turn rule


def order() -> tuple[Combatant, ...]:
    return (
        pc("Mira", initiative=20),
        npc("Assassin", visibility="hidden", initiative=16),
        npc("Ogre", initiative=12),
        pc("Zalek", initiative=8),
    )


def test_active_and_next_follow_the_turn() -> None:
    view = players_view(fight(*order(), turn=2, round=3))
    assert active_name(view) == "Ogre" and next_name(view) == "Zalek"
    assert view["round"] == 3
    flags = [(c["active"], c["next"]) for c in view["combatants"]]
    assert flags == [(False, False), (True, False), (False, True)]


def test_next_never_names_a_hidden_combatant() -> None:
    view = players_view(fight(*order(), turn=0, round=2))
    assert active_name(view) == "Mira"
    assert next_name(view) == "Ogre"  # not the Assassin, who acts first


def test_while_a_hidden_combatant_acts_the_last_visible_turn_stays_highlighted() -> None:
    during_mira = players_view(fight(*order(), turn=0, round=2))
    during_assassin = players_view(fight(*order(), turn=1, round=2))
    assert during_assassin == during_mira  # nothing tells the turns apart


def test_a_hidden_turn_at_the_top_of_a_round_shows_the_round_before() -> None:
    cs = (npc("Assassin", visibility="hidden"), pc("Mira"), npc("Ogre"))
    during_ogre = players_view(fight(*cs, turn=2, round=3))
    during_assassin = players_view(fight(*cs, turn=0, round=4))
    assert active_name(during_assassin) == "Ogre"
    assert during_assassin["round"] == 3  # the round of the turn shown
    assert during_assassin == during_ogre


def test_a_hidden_first_turn_of_the_fight_shows_the_first_visible_turn() -> None:
    # nobody visible has acted yet: a started fight with nobody's turn would
    # tell the players that someone unseen acts first, so the view shows the
    # turn to come (as it will look when it comes), with its durations
    cond = Condition("prone", duration=Duration(1, "end", "Mira"))
    cs = (npc("Assassin", visibility="hidden"), pc("Mira"), npc("Ogre", conditions=(cond,)))
    during_assassin = players_view(fight(*cs, turn=0, round=1))
    during_mira = players_view(fight(*cs, turn=1, round=1))
    assert active_name(during_assassin) == "Mira" and next_name(during_assassin) == "Ogre"
    assert during_assassin["round"] == 1
    assert during_assassin == during_mira
    (shown,) = during_assassin["combatants"][1]["conditions"]
    assert shown["duration"] == "until the end of Mira's current turn"


def test_a_hidden_turn_after_one_passed_over_shows_the_turn_to_come() -> None:
    # Wolf delays just before the hidden turn (or is a down monster): going
    # back to the turn before Wolf's would show the turn moving backwards
    cs = (pc("Mira"), npc("Wolf"), npc("Assassin", visibility="hidden"), npc("Ogre"))
    during_assassin = players_view(fight(*cs, turn=2, round=2, delayed=("Wolf",)))
    assert during_assassin == players_view(fight(*cs, turn=3, round=2, delayed=("Wolf",)))
    down = (pc("Mira"), npc("Wolf", 0), npc("Assassin", visibility="hidden"), npc("Ogre"))
    assert active_name(players_view(fight(*down, turn=2, round=2))) == "Ogre"


def test_the_turn_to_come_may_be_in_the_next_round() -> None:
    cs = (pc("Mira"), npc("Ogre"), npc("Assassin", visibility="hidden"))
    during_assassin = players_view(fight(*cs, turn=2, round=2, delayed=("Ogre",)))
    assert active_name(during_assassin) == "Mira" and during_assassin["round"] == 3
    assert during_assassin == players_view(fight(*cs, turn=0, round=3, delayed=("Ogre",)))


def test_next_skips_down_monsters_only_when_the_ruleset_skips_them() -> None:
    cs = (pc("Mira"), npc("Goblin", 0, max_hp=7), npc("Ogre"))
    assert next_name(players_view(fight(*cs))) == "Ogre"
    keep = fight(*cs, ruleset=ruleset("core", down_turns="keep"))
    assert next_name(players_view(keep)) == "Goblin"


def test_next_skips_delaying_combatants_and_a_down_player_still_acts() -> None:
    cs = (pc("Mira"), npc("Ogre"), pc("Zalek", 0, max_hp=30))
    view = players_view(fight(*cs, delayed=("Ogre",)))
    assert next_name(view) == "Zalek"  # Ogre delays; a down player keeps turns


def test_nobody_is_next_when_the_one_highlighted_is_the_only_one_to_act() -> None:
    cs = (pc("Mira"), npc("Assassin", visibility="hidden"))
    assert players_view(fight(*cs, turn=0, round=2))["next"] is None
    assert players_view(fight(*cs, turn=1, round=2))["next"] is None


def test_before_and_after_the_fight() -> None:
    before = players_view(fight(pc("Mira"), npc("Ogre"), turn=None))
    assert before["started"] is False and before["ended"] is False
    assert before["active"] is None and before["next"] is None
    after = Encounter("Crypt", combatants=(pc("Mira"),), round=4, started=False)
    ended = players_view(after)
    assert ended["ended"] is True and ended["round"] == 0 and ended["active"] is None


# ---------------------------------------------------------------------------
# durations in words (RULES.md §10)


def cond_on(of: str, rounds: int, tick: str = "end") -> Condition:
    return Condition("prone", duration=Duration(rounds, "start" if tick == "start" else "end", of))


@pytest.mark.parametrize(
    ("rounds", "tick", "turn", "words"),
    [
        (1, "end", 1, "until the end of Mira's next turn"),
        (2, "end", 1, "until the end of Mira's turn after next"),
        (3, "end", 1, "until the end of Mira's 3rd turn from now"),
        (1, "start", 1, "until the start of Mira's next turn"),
        # during Mira's own turn its end is still to come
        (1, "end", 0, "until the end of Mira's current turn"),
        (2, "end", 0, "until the end of Mira's next turn"),
        (1, "start", 0, "until the start of Mira's next turn"),
    ],
)
def test_a_duration_is_worded_from_where_the_fight_is(
    rounds: int, tick: str, turn: int, words: str
) -> None:
    enc = fight(pc("Mira"), npc("Ogre", conditions=(cond_on("Mira", rounds, tick),)), turn=turn)
    (cond,) = players_view(enc)["combatants"][1]["conditions"]
    assert cond == {"name": "prone", "value": None, "duration": words}


def test_a_duration_on_a_masked_or_hidden_combatant_names_nobody() -> None:
    cs = (
        pc("Mira", conditions=(cond_on("Lurker", 2), cond_on("Assassin", 3))),
        npc("Lurker", visibility="masked"),
        npc("Assassin", visibility="hidden"),
    )
    (mira, _) = players_view(fight(*cs))["combatants"]
    durations = [c["duration"] for c in mira["conditions"]]
    assert durations == ["until the end of an unknown creature's turn after next", UNTOLD]


def test_ordinals_read_as_english() -> None:
    def words(n: int) -> str:
        enc = fight(pc("Mira"), npc("Ogre", conditions=(cond_on("Mira", n),)), turn=1)
        return str(players_view(enc)["combatants"][1]["conditions"][0]["duration"])

    assert [words(n).split("'s ")[1] for n in (3, 4, 11, 12, 13, 21, 22, 23, 101)] == [
        f"{o} turn from now"
        for o in ("3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st")
    ]
