"""Endurance: dash, run, sprint (RULES.md §8, source 003)."""

from __future__ import annotations

import pytest

from rules.combatant import Combatant
from rules.endurance import (
    MOVEMENT,
    endurance_check,
    endurance_for,
    endurance_of,
    start_of_turn,
)


def test_movement_table() -> None:
    assert {k: (m.dl, m.active_rounds, m.speed) for k, m in MOVEMENT.items()} == {
        "walk": (None, None, 1),
        "dash": (14, 100, 2),
        "run": (18, 10, 3),
        "sprint": (22, 1, 4),
    }


def test_zalek_example_from_003() -> None:
    """003's worked example, every number of it (RULES.md §8)."""
    state = endurance_for(17, 4)
    assert (state.points, state.max_points, state.passive, state.check_bonus) == (21, 21, 17, 7)

    # Start of combat: passive 17 >= DL 14, so the Dash succeeds whatever the roll.
    for face in (1, 5, 20, None):
        dashed, check = endurance_check(state, "dash", face)
        assert check.success and check.spent == 0 and dashed.active["dash"] == 100
    state, check = endurance_check(state, "dash", 1)
    assert check.used_passive and check.total == 17
    assert state.recovery_rounds_left is None  # nothing spent

    # His next turn: Sprint, rolls 12 → 19, 3 short of 22, pays 3 of 21 → 18.
    state, _ = start_of_turn(state)
    preview, check = endurance_check(state, "sprint", 12, spend=False)
    assert (check.total, check.shortfall, check.success) == (19, 3, False)
    assert preview == state  # the GM has not confirmed: nothing changes
    state, check = endurance_check(state, "sprint", 12)
    assert (check.total, check.dl, check.shortfall, check.spent, check.success) == (
        19,
        22,
        3,
        3,
        True,
    )
    assert state.points == 18 and state.active["sprint"] == 1
    assert state.recovery_rounds_left == 3  # 3 × the Sprint's 1 round
    assert "3 short, spends 3 endurance (18/21 left)" in check.text

    # Three of his turns without movement actions: 21 again.
    state, lines = start_of_turn(state)
    assert state.points == 18 and "sprint is no longer active" in lines
    state, _ = start_of_turn(state)
    assert state.points == 18
    state, lines = start_of_turn(state)
    assert state.points == 21 and state.recovery_rounds_left is None
    assert any("3 points back (21/21)" in line for line in lines)
    assert state.active["dash"] == 96  # the start-of-combat Dash is still active


def test_using_a_movement_action_restarts_recovery() -> None:
    state = endurance_for(17, 4)
    state, _ = endurance_check(state, "sprint", 12)  # spends 3
    state, _ = start_of_turn(state)
    state, _ = start_of_turn(state)
    state, check = endurance_check(state, "sprint", 20)  # 27: no spend, but a use
    assert check.spent == 0 and state.recovery_rounds_left == 3
    for _ in range(2):
        state, _ = start_of_turn(state)
        assert state.points == 18
    state, _ = start_of_turn(state)
    assert state.points == 21


def test_active_dash_needs_no_check_but_counts_as_use() -> None:
    state = endurance_for(10, 0)  # passive 10, bonus 0, 10 points
    state, check = endurance_check(state, "dash", 10)  # 10, 4 short → spends 4
    assert state.points == 6 and state.recovery_rounds_left == 300
    state, _ = start_of_turn(state)
    state, check = endurance_check(state, "dash", None)
    assert check.already_active and check.success and check.spent == 0
    assert "no check needed" in check.text
    assert state.recovery_rounds_left == 300 and state.points == 6
    assert state.active["dash"] == 99  # no check, so the window is not renewed


def test_carried_over_dash_is_not_a_use() -> None:
    """A new combat's Dash while one is still active (RULES.md §8)."""
    state = endurance_for(10, 0)
    state, _ = endurance_check(state, "dash", 10)  # spends 4
    for _ in range(30):
        state, _ = start_of_turn(state)
    new, check = endurance_check(state, "dash", None, use=False)
    assert new == state and check.already_active
    assert check.text == "dash: still active (70 rounds left), no check needed"


def test_not_enough_points_fails_and_changes_nothing() -> None:
    state = endurance_for(10, 0)
    new, check = endurance_check(state, "sprint", 1)  # total 10, 12 short, 10 points
    assert not check.success and check.shortfall == 12 and check.spent == 0
    assert new == state and "sprint" not in new.active
    assert "only 10 endurance left" in check.text


def test_roll_beats_passive() -> None:
    state = endurance_for(12, 2)  # passive 13, bonus 3
    _, check = endurance_check(state, "run", 15)
    assert check.total == 18 and not check.used_passive and check.success


def test_active_window_counts_own_turns() -> None:
    state = endurance_for(20, 5)
    state, _ = endurance_check(state, "run", 20)
    for _ in range(9):
        state, _ = start_of_turn(state)
        assert "run" in state.active
    state, lines = start_of_turn(state)
    assert "run" not in state.active and lines == ["run is no longer active"]


def test_walk_needs_no_check() -> None:
    state = endurance_for(3, 0)
    new, check = endurance_check(state, "Walk", None)
    assert check.success and new == state


@pytest.mark.parametrize(
    ("action", "face", "match"),
    [
        ("fly", 10, "unknown movement action"),
        ("dash", 0, "1 to 20"),
        ("dash", 21, "1 to 20"),
    ],
)
def test_bad_input(action: str, face: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        endurance_check(endurance_for(10, 0), action, face)


def test_endurance_of_needs_con_and_athletics() -> None:
    zalek = Combatant("Zalek", 30, 30, abilities={"con": 17}, athletics=4)
    assert endurance_of(zalek) == endurance_for(17, 4)
    assert endurance_of(Combatant("Goblin", 7, 7, abilities={"con": 10})) is None
    assert endurance_of(Combatant("Imp", 7, 7, athletics=2)) is None


def test_state_round_trips_through_dict() -> None:
    from rules.endurance import Endurance

    state, _ = endurance_check(endurance_for(17, 4), "sprint", 12)
    assert Endurance.from_dict(state.to_dict()) == state


def test_declined_spend_reads_as_a_failed_movement_not_a_question() -> None:
    # RULES.md §8: the GM confirms the spend; declining it fails the action.
    state = endurance_for(17, 4)  # 21 points, bonus +7
    new, check = endurance_check(state, "sprint", 12, spend=False)  # 19: 3 short
    assert new == state and not check.success
    assert check.text.endswith(
        "3 short: fails, no sprint (the GM chose not to spend 3 of 21 endurance)"
    )
    assert "to succeed" not in check.text


def test_a_shortfall_the_pool_cannot_cover_says_the_movement_failed() -> None:
    state = endurance_for(10, 0)
    _, check = endurance_check(state, "sprint", 1)  # 12 short, 10 points
    assert check.text.endswith("12 short: fails, no sprint (only 10 endurance left, 12 needed)")


def test_a_preview_states_the_shortfall_without_a_verdict() -> None:
    state = endurance_for(17, 4)
    _, check = endurance_check(state, "sprint", 12, spend=False, preview=True)
    assert check.shortfall == 3 and check.text.endswith("3 short (21/21 endurance left)")
