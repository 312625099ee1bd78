"""The players' view in the action language (issue 12): ``hide``,
``mask``, ``reveal`` and ``view`` are logged, undone, redone and replayed
like every action; a player is never hidden; ``add`` follows the
``new_monsters`` setting; ``reveal_on_turn`` reveals a hidden monster in
the ``next`` that gives it its turn; and what the players' view shows
follows the fight, hidden turns included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.players_view import players_view


def make(*lines: str, seed: int = 11) -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(seed))
    for line in (
        "add Mira player hp 24 al 13 init 20",
        "add Assassin hp 30 al 16 init 15",
        "add Ogre hp 40 al 11 init 10",
        "add Zalek player hp 38 al 15 init 5",
        *lines,
    ):
        s.apply(line)
    return s


def shown(s: Session, name: str) -> str:
    return next(c.visibility for c in s.encounter.combatants if c.name == name)


def state(s: Session) -> dict[str, Any]:
    return {"encounter": s.to_dict()["encounter"], "log": [e.to_dict() for e in s.log]}


def last_log(s: Session) -> list[str]:
    return [e.text for e in s.log if e.seq == s.seq]


# ---------------------------------------------------------------------------
# hide, mask, reveal


def test_hide_mask_and_reveal_are_logged_and_shown_on_the_view() -> None:
    s = make("start")
    s.apply("hide Assassin")
    assert shown(s, "Assassin") == "hidden"
    assert last_log(s) == ["Assassin is hidden from the players"]
    assert "Assassin" not in json.dumps(players_view(s.encounter))
    s.apply("mask Assassin")
    assert last_log(s) == ['Assassin shows to the players as "Unknown creature"']
    names = [c["name"] for c in players_view(s.encounter)["combatants"]]
    assert names == ["Mira", "Unknown creature", "Ogre", "Zalek"]
    s.apply("reveal Assassin")
    assert last_log(s) == ["Assassin is revealed to the players"]
    assert shown(s, "Assassin") == "visible"


def test_each_is_undone_redone_and_replayed_exactly() -> None:
    s = make("start")
    snapshot = s.to_dict()
    states = [state(s)]
    steps = []
    for line in ("hide Assassin,Ogre", "mask Ogre", "reveal monsters", "view monster_hp exact"):
        steps.append(s.apply(line))
        states.append(state(s))
    for expected in reversed(states[:-1]):
        steps.append(s.undo())
        assert state(s) == expected
    for expected in states[1:]:
        steps.append(s.redo())
        assert state(s) == expected
    fresh = Session.from_dict(json.loads(json.dumps(snapshot)), rng=random.Random(0))
    for step in steps:
        fresh.replay(json.loads(json.dumps(step.to_dict())))
    assert fresh.to_dict() == s.to_dict()
    assert shown(fresh, "Assassin") == "visible" and fresh.encounter.view.monster_hp == "exact"


def test_targets_are_read_as_every_verb_reads_them_and_groups_by_name() -> None:
    s = make("add Zombie count 3 hp 8 group")
    s.apply("hide Zomb*")
    assert [shown(s, f"Zombie {n}") for n in (1, 2, 3)] == ["hidden"] * 3
    s.apply("reveal Zombie")  # the group's name: every member
    assert [shown(s, f"Zombie {n}") for n in (1, 2, 3)] == ["visible"] * 3
    s.apply("mask Og")  # a unique prefix
    assert shown(s, "Ogre") == "masked"
    step = s.apply("hide monsters")
    assert step.action["targets"] == ["Assassin", "Ogre", "Zombie 1", "Zombie 2", "Zombie 3"]


@pytest.mark.parametrize("line", ["hide Mira", "mask Zalek", "hide all", "mask Ogre,Mira"])
def test_a_player_is_never_hidden_or_masked(line: str) -> None:
    s = make("start")
    before, seq = state(s), s.seq
    verb = line.split()[0]
    with pytest.raises(ActionError, match="always visible to the players") as err:
        s.apply(line)
    assert f"{verb} monsters" in str(err.value)  # says how to do what was meant
    assert state(s) == before and s.seq == seq


def test_a_change_that_changes_nothing_is_refused() -> None:
    s = make("hide Assassin")
    with pytest.raises(ActionError, match="hide: Assassin is hidden already"):
        s.apply("hide Assassin")
    with pytest.raises(ActionError, match="reveal: all 2 are visible already"):
        s.apply("reveal Mira,Ogre")
    s.apply("hide Assassin,Ogre")  # some already: the others change
    assert last_log(s) == ["Ogre is hidden from the players"]


def test_making_a_hidden_combatant_a_player_reveals_it() -> None:
    s = make("hide Ogre")
    s.apply("set Ogre player true")
    assert shown(s, "Ogre") == "visible"
    assert last_log(s)[-1] == "Ogre is a player character now: revealed to the players"
    s.undo()
    assert shown(s, "Ogre") == "hidden"


# ---------------------------------------------------------------------------
# add and the new_monsters setting


def test_add_follows_new_monsters_for_non_players_and_can_override_it() -> None:
    s = make("view new_monsters hidden")
    s.apply("add Spy hp 9")
    assert shown(s, "Spy") == "hidden"
    assert "hidden from the players" in last_log(s)[0]
    s.apply("add Rook player hp 20")
    assert shown(s, "Rook") == "visible"  # players always show
    s.apply("add Guard count 2 hp 9 visible")
    assert shown(s, "Guard 1") == shown(s, "Guard 2") == "visible"
    s.apply("add Shade hp 9 masked")
    assert shown(s, "Shade") == "masked"
    s.apply("view new_monsters visible")
    s.apply("add Cultist hp 9 hidden")
    assert shown(s, "Cultist") == "hidden"


def test_add_refuses_a_hidden_player_and_two_visibilities() -> None:
    s = make()
    with pytest.raises(ActionError, match="always visible to the players, never hidden"):
        s.apply("add Rook player hp 20 hidden")
    with pytest.raises(ActionError, match="one of visible, masked or hidden"):
        s.apply("add Spy hp 9 hidden masked")
    assert "Rook" not in [c.name for c in s.encounter.combatants]


# ---------------------------------------------------------------------------
# the view verb


def test_view_changes_a_setting_in_words_and_undo_restores_it() -> None:
    s = make()
    s.apply("view show_al yes")
    assert s.encounter.view.show_al is True
    assert last_log(s) == ["Players' view: the players see AL"]
    assert s.undo_stack[-1].line == "view show_al on"  # journaled canonically
    s.undo()
    assert s.encounter.view.show_al is False
    with pytest.raises(ActionError, match="view: show_al is off already"):
        s.apply("view show_al no")
    with pytest.raises(ActionError, match="monster_hp is band, exact, hidden, not 'numbers'"):
        s.apply("view monster_hp numbers")
    with pytest.raises(ActionError, match="unknown setting 'colour'"):
        s.apply("view colour red")


def test_the_view_settings_are_saved_with_the_fight() -> None:
    s = make("view monster_hp hidden", "hide Ogre")
    again = Session.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again.encounter.view.monster_hp == "hidden"
    assert shown(again, "Ogre") == "hidden"


# ---------------------------------------------------------------------------
# reveal_on_turn (through next)


def test_reveal_on_turn_reveals_a_hidden_monster_as_its_turn_comes() -> None:
    s = make("hide Assassin", "view reveal_on_turn on", "start")
    assert s.encounter.active is not None and s.encounter.active.name == "Mira"
    assert shown(s, "Assassin") == "hidden"
    s.apply("next")
    assert shown(s, "Assassin") == "visible"
    assert last_log(s)[:2] == ["Assassin's turn", "Assassin is revealed to the players"]
    view = players_view(s.encounter)
    assert view["combatants"][view["active"]]["name"] == "Assassin"
    s.undo()  # one step: undoing the next hides it again
    assert shown(s, "Assassin") == "hidden"


def test_reveal_on_turn_also_on_the_first_turn_of_the_fight() -> None:
    s = make("hide Assassin", "init Assassin 30", "view reveal_on_turn on")
    s.apply("start")
    assert s.encounter.active is not None and s.encounter.active.name == "Assassin"
    assert shown(s, "Assassin") == "visible"


def test_without_reveal_on_turn_a_hidden_monster_stays_hidden() -> None:
    s = make("hide Assassin", "start", "next")
    assert s.encounter.active is not None and s.encounter.active.name == "Assassin"
    assert shown(s, "Assassin") == "hidden"


def test_masked_monsters_are_not_revealed_by_their_turn() -> None:
    s = make("mask Assassin", "view reveal_on_turn on", "start", "next")
    assert shown(s, "Assassin") == "masked"


# ---------------------------------------------------------------------------
# the view through a fight


def test_a_hidden_turn_looks_like_the_turn_before_it_on_the_view() -> None:
    s = make("hide Assassin", "start")
    during_mira = players_view(s.encounter)
    s.apply("next")
    assert s.encounter.active is not None and s.encounter.active.name == "Assassin"
    assert players_view(s.encounter) == during_mira
    s.apply("next")
    view = players_view(s.encounter)
    assert view["combatants"][view["active"]]["name"] == "Ogre"


def test_a_hidden_monster_is_skipped_by_next_on_the_view_across_rounds() -> None:
    s = make("hide Assassin", "start")
    for _ in range(9):  # a few rounds: Mira, (Assassin), Ogre, Zalek
        view = players_view(s.encounter)
        active = view["combatants"][view["active"]]["name"]
        upcoming = view["combatants"][view["next"]]["name"]
        assert {active, upcoming} <= {"Mira", "Ogre", "Zalek"}
        assert active != upcoming
        s.apply("next")


# ---------------------------------------------------------------------------
# a hidden turn never shows: the view is the one of the same fight without it


def twin(*lines: str, hidden: str | None = None) -> tuple[Session, Session]:
    """The fight of *lines* with a hidden ambusher (*hidden*, an ``add``
    line, taken as hidden) and the same fight without it at all: what the
    players see of the first must be what they would see of the second."""
    with_it = Session(Encounter("Crypt"), rng=random.Random(5))
    without = Session(Encounter("Crypt"), rng=random.Random(5))
    for line in lines:
        if line == "HIDDEN":
            assert hidden is not None
            with_it.apply(f"{hidden} hidden")
            continue
        with_it.apply(line)
        without.apply(line)
    return with_it, without


FIGHT = (
    "add Mira player hp 24 init 20",
    "add Wolf hp 30 init 15",
    "HIDDEN",
    "add Ogre hp 40 init 10",
    "add Zalek player hp 38 init 5",
)


def test_an_ambusher_acting_first_looks_like_the_first_visible_turn() -> None:
    # the hidden assassin acts first in round 1: the players must not see a
    # fight that started with nobody's turn (nothing else starts that way)
    with_it, without = twin(*FIGHT, "start", hidden="add Assassin hp 30 init 25")
    assert with_it.encounter.active is not None and with_it.encounter.active.name == "Assassin"
    assert players_view(with_it.encounter) == players_view(without.encounter)
    with_it.apply("next")  # Mira's turn, in both fights now
    assert players_view(with_it.encounter) == players_view(without.encounter)


def test_a_delay_just_before_a_hidden_turn_moves_the_turn_on_not_back() -> None:
    with_it, without = twin(*FIGHT, "start", "next", hidden="add Assassin hp 30 init 12")
    with_it.apply("delay Wolf")  # the assassin's turn comes: the view shows Ogre's
    without.apply("delay Wolf")
    assert with_it.encounter.active is not None and with_it.encounter.active.name == "Assassin"
    view = players_view(with_it.encounter)
    assert view["combatants"][view["active"]]["name"] == "Ogre"  # never back to Mira
    assert view == players_view(without.encounter)
    with_it.apply("next")
    assert players_view(with_it.encounter) == players_view(without.encounter)


def test_a_long_delay_before_a_hidden_turn_is_passed_over_as_without_it() -> None:
    with_it, without = twin(
        *FIGHT, "start", "next", "delay Wolf", hidden="add Assassin hp 30 init 12"
    )
    for _ in range(3):  # Ogre, Zalek, then round 2: Mira's turn (and the assassin's first)
        with_it.apply("next")
    for _ in range(2):
        without.apply("next")
    assert players_view(with_it.encounter) == players_view(without.encounter)
    with_it.apply("next")  # Wolf still delays: the hidden assassin's turn comes
    without.apply("next")
    assert with_it.encounter.active is not None and with_it.encounter.active.name == "Assassin"
    assert players_view(with_it.encounter) == players_view(without.encounter)


def test_ending_the_fight_on_a_hidden_turn_tells_no_round() -> None:
    # the assassin acts first each round; the GM ends the fight on its turn
    # of round 2, while the page still shows round 1's last visible turn: a
    # round count jumping to 2 at the end would give the assassin away
    with_it, without = twin(*FIGHT, "start", hidden="add Assassin hp 30 init 25")
    for _ in range(5):  # Mira, Wolf, Ogre, Zalek, then the assassin's round 2
        with_it.apply("next")
    for _ in range(3):  # Wolf, Ogre, Zalek
        without.apply("next")
    assert with_it.encounter.round == 2 and without.encounter.round == 1
    assert players_view(with_it.encounter) == players_view(without.encounter)
    with_it.apply("end")
    without.apply("end")
    assert players_view(with_it.encounter) == players_view(without.encounter)
    assert players_view(with_it.encounter)["ended"] is True
