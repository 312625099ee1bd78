"""Downed combatants, ending combat and the engine's small refusals and
warnings (RULES.md §4, §5, §6, §7): ``end``, ``remove defeated``, the
``down_persistent`` option, a heal at full HP, re-adding a name, an
initiative change that skips or repeats a turn, the temp HP wording."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.rulesets import ruleset


def fight(*lines: str, seed: int = 5, **options: Any) -> Session:
    s = Session(Encounter("Crypt", ruleset("core", **options)), rng=random.Random(seed))
    for line in lines:
        s.apply(line)
    return s


def c(s: Session, name: str) -> Any:
    return next(x for x in s.encounter.combatants if x.name == name)


def names(s: Session) -> list[str]:
    return [x.name for x in s.encounter.combatants]


def state(s: Session) -> dict[str, Any]:
    return {"encounter": s.to_dict()["encounter"], "log": [e.to_dict() for e in s.log]}


def party() -> Session:
    """Mira (player, 20), Goblin 1–2 (15), Ogre (10): fixed initiatives."""
    return fight(
        "add Mira player hp 30 al 14 init 20",
        "add Goblin count 2 hp 7 al 13 init 15",
        "add Ogre hp 40 al 11 init 10",
    )


# --- end --------------------------------------------------------------------


def test_end_stops_the_turn_order_says_so_and_start_begins_a_new_combat() -> None:
    s = party()
    s.apply("start")
    for _ in range(4):
        s.apply("next")  # round 2, Mira
    s.apply("damage 'Goblin 1' 3")
    step = s.apply("end")
    assert [e.text for e in step.log] == [
        "Combat ends after 2 rounds (initiative cleared: start begins a new combat)"
    ]
    enc = s.encounter
    assert (enc.started, enc.turn, enc.active, enc.round) == (False, None, None, 2)
    assert [x.initiative for x in enc.combatants] == [None] * 4
    assert c(s, "Goblin 1").hp == 4  # the fight's state stays
    with pytest.raises(ActionError, match="not started"):
        s.apply("next")
    step = s.apply("start faces 11,2,19,8")  # everyone rolls anew
    assert s.encounter.started and s.encounter.round == 1
    assert "Round 1" in [e.text for e in step.log]
    assert all(x.initiative is not None for x in s.encounter.combatants)
    # the new combat's rolls come before its round 1, never labelled round 2
    rolls = [e.round for e in step.log if "initiative" in e.text]
    assert rolls and set(rolls) == {0}
    assert [e.round for e in step.log if e.text == "Round 1"] == [1]


def test_end_is_refused_before_start_and_undone_exactly() -> None:
    s = party()
    with pytest.raises(ActionError, match="end: combat has not started"):
        s.apply("end")
    s.apply("start")
    s.apply("delay Ogre")
    before = state(s)
    step = s.apply("end")
    assert step.log[0].text.startswith("Combat ends after 1 round ")
    assert s.encounter.delayed == ()
    s.undo()
    assert state(s) == before
    s.redo()
    assert not s.encounter.started


def test_an_ended_fight_survives_a_save_and_resume() -> None:
    s = party()
    s.apply("start")
    s.apply("end")
    again = Session.from_dict(s.to_dict())
    assert again.encounter == s.encounter
    assert again.log[-1].text.startswith("Combat ends")


def test_end_rolls_nothing_of_the_active_turn() -> None:
    s = party()
    s.apply("start")
    s.apply("persist Mira 1d6 fire")
    step = s.apply("end")  # Mira is active: her fire does not tick
    assert c(s, "Mira").hp == 30 and len(c(s, "Mira").persistent) == 1
    assert len(step.log) == 1


# --- remove defeated ---------------------------------------------------------


def test_remove_defeated_takes_every_down_monster_in_one_undoable_step() -> None:
    s = party()
    s.apply("start")
    s.apply("damage 'Goblin 1,Goblin 2,Mira' 40")  # Mira (a player) is down too
    before = state(s)
    step = s.apply("remove defeated")
    assert names(s) == ["Mira", "Ogre"]
    assert step.action["targets"] == ["Goblin 1", "Goblin 2"]  # journaled as resolved
    assert [e.text for e in step.log] == ["Goblin 1 is removed", "Goblin 2 is removed"]
    s.undo()
    assert state(s) == before


def test_remove_defeated_with_none_down_is_refused_and_changes_nothing() -> None:
    s = party()
    s.apply("damage Mira 30")
    before = state(s)
    with pytest.raises(ActionError) as err:
        s.apply("remove defeated")
    assert (
        str(err.value)
        == "remove defeated: no monster is down (at 0 HP) (Mira down, but players stay)"
    )
    assert state(s) == before


def test_remove_defeated_passes_the_turn_when_the_active_one_goes() -> None:
    s = party()
    s.apply("start")
    s.apply("next")  # Goblin 1's turn
    s.apply("damage 'Goblin 1' 10")
    s.apply("remove DEFEATED")
    assert s.encounter.active.name == "Goblin 2"


def test_a_combatant_named_defeated_is_still_removed_by_name() -> None:
    s = fight("add Defeated hp 5", "add Orc hp 5", "damage Orc 5")
    s.apply("remove defeated")
    assert names(s) == ["Orc"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=8))
def test_remove_defeated_removes_exactly_the_down_non_players(
    roster: list[tuple[int, bool]],
) -> None:
    s = fight()
    for i, (hp, player) in enumerate(roster):
        s.apply(f"add 'C{i}' hp 3{' player' if player else ''}")
        if hp < 3:
            s.apply(f"set C{i} hp {hp}")
    down = [f"C{i}" for i, (hp, player) in enumerate(roster) if hp == 0 and not player]
    if not down:
        with pytest.raises(ActionError, match="no monster is down"):
            s.apply("remove defeated")
        return
    s.apply("remove defeated")
    assert sorted(names(s)) == sorted(f"C{i}" for i in range(len(roster)) if f"C{i}" not in down)


# --- persistent damage while down (§7) ----------------------------------------


def test_persistent_damage_stops_on_a_down_combatant_by_default() -> None:
    s = party()
    s.apply("start")  # Mira's turn
    s.apply("persist Mira 1d6 bleed")
    s.apply("damage Mira 30")
    assert s.dice_needed("next") == []  # neither the bleed nor its flat check
    step = s.apply("next")
    assert "Mira is down: persistent bleed does not tick (it stays)" in [e.text for e in step.log]
    assert c(s, "Mira").hp == 0 and len(c(s, "Mira").persistent) == 1


def test_down_persistent_tick_keeps_it_rolling() -> None:
    s = fight("add Mira player hp 30 init 20", "add Ogre hp 40 init 10", down_persistent="tick")
    s.apply("start")
    s.apply("persist Mira 1d6 bleed")
    s.apply("damage Mira 30")
    assert [sides for _, sides in s.dice_needed("next")] == [6, 20]
    step = s.apply("next faces 4,7")
    assert any(e.text.startswith("Mira persistent bleed") for e in step.log)


def test_a_down_monster_that_keeps_its_turns_does_not_tick_either() -> None:
    s = fight("add Mira player hp 30 init 20", "add Ogre hp 40 init 10", down_turns="keep")
    s.apply("start")
    s.apply("persist Ogre 2d6 fire")
    s.apply("damage Ogre 40")
    s.apply("next")  # the Ogre keeps its turn (down_turns=keep)
    step = s.apply("next")
    assert "Ogre is down: persistent fire does not tick (it stays)" in [e.text for e in step.log]


def test_encounters_saved_before_the_option_keep_ticking() -> None:
    old = {"name": "Old", "ruleset": {"name": "core", "options": {"down_turns": "keep"}}}
    assert Encounter.from_dict(old).ruleset["down_persistent"] == "tick"
    assert Encounter("New").ruleset["down_persistent"] == "stop"


# --- heal at full HP (§5) -----------------------------------------------------


def test_a_heal_at_full_hp_is_refused_and_not_logged() -> None:
    s = party()
    before = state(s)
    with pytest.raises(ActionError) as err:
        s.apply("heal Mira 2d8")
    assert str(err.value) == "heal: Mira (30/30) is at full HP; nothing to heal"
    with pytest.raises(ActionError, match="are all at full HP"):
        s.apply("heal 'Mira,Ogre' 5")
    assert state(s) == before
    with pytest.raises(ActionError, match="full HP"):  # refused before any die is asked for
        s.dice_needed("heal Mira 2d8")
    s.apply("damage Ogre 3")
    step = s.apply("heal 'Mira,Ogre' 5")  # one of them can heal: applied
    assert [e.text for e in step.log] == [
        "Mira is already at full HP (30/30)",
        "Ogre heals 3 (40/40 HP)",
    ]


# --- re-adding a name ---------------------------------------------------------


def test_re_adding_an_existing_name_asks_how() -> None:
    s = party()
    before = state(s)
    with pytest.raises(ActionError) as err:
        s.apply("add Ogre hp 30")
    assert str(err.value) == (
        "add: Ogre is already in the fight (Ogre): add Ogre count 1 … adds Ogre 2, "
        "or choose another name"
    )
    with pytest.raises(ActionError, match=r"\(Goblin 1, Goblin 2\).*adds goblin 3"):
        s.apply("add goblin hp 7")
    assert state(s) == before
    s.apply("add Goblin count 1 hp 7")
    s.apply("add Goblin count 2 hp 7")
    s.apply("add Ogre count 1 hp 30")
    assert names(s)[-4:] == ["Goblin 3", "Goblin 4", "Goblin 5", "Ogre 2"]


def test_a_name_with_spaces_is_quoted_in_the_advice() -> None:
    s = fight("add 'Cave Bear' hp 30")
    with pytest.raises(
        ActionError, match=r'\(Cave Bear\): add "cave bear" count 1 … adds cave bear 2'
    ):
        s.apply("add 'cave bear' hp 30")


# --- an initiative change mid-round (§4) --------------------------------------


def test_moving_ahead_of_the_active_combatant_warns_it_gets_no_turn() -> None:
    s = party()
    s.apply("start")
    s.apply("next")  # Goblin 1's turn; Goblin 2 and the Ogre are still to come
    step = s.apply("init Ogre 25")
    assert step.log[-1].actor == "GM"
    assert step.log[-1].text == (
        "Ogre now acts before Goblin 1, whose turn it is: "
        "Ogre gets no turn in the rest of this round"
    )
    assert names(s)[0] == "Ogre" and s.encounter.active.name == "Goblin 1"


def test_moving_behind_the_active_combatant_warns_it_takes_a_turn_later() -> None:
    s = party()
    s.apply("start")
    s.apply("next")
    s.apply("next")  # Goblin 2's turn; Mira has acted
    step = s.apply("init Mira 1")
    assert step.log[-1].text == (
        "Mira now acts after Goblin 2, whose turn it is: Mira takes a turn later this round"
    )


def test_the_active_combatant_moving_down_warns_for_those_it_passes() -> None:
    s = party()
    s.apply("start")  # Mira's turn
    step = s.apply("order Mira down")
    assert step.log[-1].text == (
        "Goblin 1 now acts before Mira, whose turn it is: "
        "Goblin 1 gets no turn in the rest of this round"
    )


def test_no_warning_before_start_or_when_nothing_shifts() -> None:
    s = party()
    step = s.apply("init Ogre 25")
    assert [e.text for e in step.log] == ["Ogre's initiative is now 25"]
    s.apply("start")
    step = s.apply("init 'Goblin 2' 14")  # still after the active Ogre... and Goblin 1
    assert all(e.actor != "GM" for e in step.log)


# --- temp HP wording (§6) -----------------------------------------------------


def test_the_log_says_what_temp_hp_absorbed_and_what_came_off_hp() -> None:
    s = party()
    s.apply("temp Mira 3")
    step = s.apply("damage Mira 5")
    assert step.log[-1].text == "Mira takes 5 (3 absorbed by temp HP, 2 HP lost, 28/30 left)"
    s.apply("temp Mira 8")
    step = s.apply("damage Mira 5")
    assert step.log[-1].text == "Mira takes 5 (5 absorbed by temp HP, 0 HP lost, 28/30 left)"
