"""Undo/redo at any depth, the Step journal and its replay, snapshots,
physical dice, and that a bad action changes nothing — what lets a GM close
the laptop mid-fight and resume exactly where they were."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session, Step
from rules.errors import ActionError

CAST = [
    "add Zalek player hp 38 al 15 con 17 athletics 4 dex 12",
    "add Mira player hp 24 al 13 dex 16 luck 14 init 20",
    "add Goblin count 2 hp 7 al 13 bonus 2",
    "add Ogre hp 40 al 11 resist fire=5",
]


def make(seed: int = 11, started: bool = True) -> Session:
    s = Session(Encounter("History"), rng=random.Random(seed))
    for line in CAST:
        s.apply(line)
    if started:
        s.apply("start")
    return s


def view(s: Session) -> dict[str, Any]:
    return {"encounter": s.to_dict()["encounter"], "log": [e.to_dict() for e in s.log]}


def c(s: Session, name: str) -> Any:
    return next(x for x in s.encounter.combatants if x.name == name)


def roundtrip(d: Any) -> Any:
    return json.loads(json.dumps(d))


# ---------------------------------------------------------------------------
# undo / redo


def test_undo_and_redo_any_depth() -> None:
    s = make()
    views = [view(s)]
    for line in ["damage Ogre 5", "next", "cond Zalek prone", "heal Ogre 2", "next"]:
        s.apply(line)
        views.append(view(s))
    for expected in reversed(views[:-1]):
        s.undo()
        assert view(s) == expected
    for expected in views[1:]:
        s.redo()
        assert view(s) == expected
    assert s.can_undo and not s.can_redo


def test_undo_removes_the_log_entries_and_redo_restores_them() -> None:
    s = make()
    n = len(s.log)
    step = s.apply("damage 'Goblin 1,Ogre' 2d6 fire")
    assert len(s.log) == n + 3
    undo = s.apply("undo")
    assert undo.kind == "undo" and undo.action["undone"] == step.seq
    assert undo.action["line"].startswith("damage")
    assert len(s.log) == n
    redo = s.apply("redo")
    assert redo.kind == "redo" and redo.log == step.log
    assert s.log[-3:] == list(step.log)


def test_a_new_action_clears_redo() -> None:
    s = make()
    s.apply("damage Ogre 5")
    s.undo()
    assert s.can_redo
    s.apply("damage Ogre 1")
    assert not s.can_redo
    with pytest.raises(ActionError, match="nothing to redo"):
        s.redo()


def test_nothing_to_undo() -> None:
    s = Session(Encounter("empty"), rng=random.Random(1))
    assert not s.can_undo
    with pytest.raises(ActionError, match="nothing to undo"):
        s.apply("undo")


def test_sequence_numbers_count_every_step() -> None:
    s = make()
    start = s.seq
    a = s.apply("damage Ogre 1")
    u = s.undo()
    r = s.redo()
    assert (a.seq, u.seq, r.seq) == (start + 1, start + 2, start + 3)
    assert all(e.seq == a.seq for e in a.log)


# ---------------------------------------------------------------------------
# bad actions change nothing


@pytest.mark.parametrize(
    "line",
    [
        "damage Dragon 5",
        "damage gob 5",
        "frobnicate",
        "luck Mira,Ogre",  # Mira spends and rolls, then Ogre has no luck
        "attack Ogre cover total",
        "damage Ogre 2d6 faces 9",  # a 9 on a d6
        "set Ogre hp 99",
        "start",
        {"verb": "damage", "targets": "Ogre"},
    ],
)
def test_bad_actions_change_nothing_not_even_the_dice(line: Any) -> None:
    s = make()
    before = s.to_dict()
    rng_state = s.rng.getstate()
    with pytest.raises(ActionError) as info:
        s.apply(line)
    assert str(info.value) and "\n" not in str(info.value)
    assert s.to_dict() == before
    assert s.rng.getstate() == rng_state


# ---------------------------------------------------------------------------
# steps, snapshots, replay


def test_step_round_trips_through_json() -> None:
    s = make()
    step = s.apply("damage Ogre 2d6 fire")
    again = Step.from_dict(roundtrip(step.to_dict()))
    assert again == step
    with pytest.raises(ActionError, match="not a saved step"):
        Step.from_dict({"seq": 1})


def test_resolved_action_carries_names_and_faces() -> None:
    s = make()
    step = s.apply("damage og,goblin\\ 2 2d6 fire")
    assert step.action["targets"] == ["Ogre", "Goblin 2"]
    assert len(step.action["faces"]) == 2
    step = s.apply("move zal sprint roll 12")
    assert step.action["faces"] == [12] and "roll" not in step.action


def test_reapplying_a_resolved_action_rolls_the_same() -> None:
    s = make()
    snapshot = s.to_dict()
    step = s.apply("attack Ogre with +6 damage 2d8+3 slashing")
    other = Session.from_dict(snapshot, rng=random.Random(999))
    again = other.apply(step.action)
    assert [e.text for e in again.log] == [e.text for e in step.log]
    assert view(other) == view(s)


def test_patches_are_small_in_a_big_fight() -> None:
    s = Session(Encounter("Horde"), rng=random.Random(5))
    s.apply("add Goblin count 50 hp 2d6 al 13")
    s.apply("start")
    step = s.apply("damage 'Goblin 17' 5")
    assert step.after == {"combatants": {"Goblin 17": {"hp": c(s, "Goblin 17").hp}}}
    assert step.before == {"combatants": {"Goblin 17": {"hp": c(s, "Goblin 17").hp + 5}}}
    assert len(json.dumps(step.to_dict())) < 600
    step = s.apply("next")
    assert "order" not in step.after and len(step.after.get("combatants", {})) <= 1


def test_snapshot_round_trip_then_continue_identically() -> None:
    s = make(seed=21)
    for line in ["damage Ogre 2d6", "persist Zalek 1d4 bleed", "next", "next", "undo"]:
        s.apply(line)
    snapshot = s.to_dict()
    assert "log" not in snapshot  # the undo steps hold it, once
    restored = Session.from_dict(roundtrip(snapshot), rng=random.Random(77))
    s.rng = random.Random(77)
    assert restored.to_dict() == s.to_dict()
    assert restored.can_undo and restored.can_redo
    for line in ["redo", "next", "attack Ogre,Zalek damage 1d8", "undo", "undo", "prev", "next"]:
        a, b = s.apply(line), restored.apply(line)
        assert a == b
    assert restored.to_dict() == s.to_dict()


def test_from_dict_rejects_garbage() -> None:
    with pytest.raises(ActionError, match="not a saved session"):
        Session.from_dict({"log": []})


def replay_all(snapshot: dict[str, Any], steps: list[Step]) -> Session:
    fresh = Session.from_dict(roundtrip(snapshot), rng=random.Random(0))
    for step in steps:
        fresh.replay(roundtrip(step.to_dict()))
    return fresh


def test_replay_rebuilds_the_session_including_undo_and_redo() -> None:
    s = make(started=False)
    snapshot = s.to_dict()
    steps = [
        s.apply(line) for line in ["start", "damage Ogre 8 fire", "next", "undo", "undo", "redo"]
    ]
    assert [st.kind for st in steps] == ["do", "do", "do", "undo", "undo", "redo"]
    fresh = replay_all(snapshot, steps)
    assert fresh.to_dict() == s.to_dict()
    fresh.redo()  # the undo history survived the replay
    s.redo()
    assert fresh.to_dict() == s.to_dict()


def test_replay_refuses_a_journal_that_does_not_fit() -> None:
    s = make()
    snapshot = s.to_dict()
    a = s.apply("damage Ogre 8")
    b = s.apply("damage Ogre 3")
    fresh = Session.from_dict(snapshot)
    with pytest.raises(ActionError, match="Ogre.s hp differs from the journal"):
        fresh.replay(b.to_dict())  # a is missing
    fresh.replay(a.to_dict())
    with pytest.raises(ActionError, match="already in this session"):
        fresh.replay(a.to_dict())
    with pytest.raises(ActionError, match="not on top"):
        fresh.replay({"seq": 99, "kind": "redo", "action": {"verb": "redo", "redone": 3}})


POOL = [
    "start",
    "next",
    "next",
    "prev",
    "undo",
    "undo",
    "redo",
    "damage 'Goblin 1' 1d6 fire",
    "damage Ogre,Zalek 2d4 fire",
    "heal Zalek 3",
    "persist 'Goblin 2' 1d4 bleed",
    "unpersist 'Goblin 2' bleed",
    "cond Ogre prone rounds 1",
    "uncond Ogre prone",
    "bonus Mira dodge 2 rounds 1 at start of Ogre",
    "temp Zalek 1d6 rounds 1",
    "move Zalek run",
    "move Zalek sprint nospend",
    "delay Ogre",
    "return Ogre",
    "attack Ogre with +4 damage 1d8+2 slashing",
    "add Bandit hp 2d6",
    "remove Bandit",
    "init Mira 3",
    "order Ogre up",
    "set Ogre hp 12",
    "set 'Goblin 1' name Gob",
    "roll 1d20+2 adv 1 dc 12",
    "luck Mira",
    "cinematic Zalek adv",
    "damage Nobody 3",
    "set Ogre max_hp 50; set Ogre hp 45; set Ogre al 12",
    "damage Ogre 1d6 fire; next",
    "heal Zalek 2; damage Nobody 1",
]


@given(st.lists(st.sampled_from(POOL), max_size=40), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_applied_and_replayed_sessions_are_identical(lines: list[str], seed: int) -> None:
    s = make(seed=seed, started=False)
    snapshot = s.to_dict()
    steps: list[Step] = []
    for line in lines:
        with contextlib.suppress(ActionError):
            steps.append(s.apply(line))
    fresh = replay_all(snapshot, steps)
    assert fresh.to_dict() == s.to_dict()
    # and a snapshot taken mid-way plus the rest of the journal gives the same
    half = len(steps) // 2
    mid = replay_all(snapshot, steps[:half])
    rest = replay_all(mid.to_dict(), steps[half:])
    assert rest.to_dict() == s.to_dict()


# ---------------------------------------------------------------------------
# physical dice


def test_dice_needed_lists_the_dice_without_changing_anything() -> None:
    s = make(started=False)
    before = s.to_dict()
    needed = s.dice_needed("start")
    initiative = [n for n in needed if "initiative" in n[0]]
    assert sorted(initiative) == [
        ("Goblin 1 initiative (d20)", 20),
        ("Goblin 2 initiative (d20)", 20),
        ("Ogre initiative (d20)", 20),
        ("Zalek initiative (d20)", 20),
    ]  # Mira has a fixed initiative
    assert ("Zalek start-of-combat Dash check (d20)", 20) in needed
    assert s.dice_needed("damage Ogre 2d6+1d4") == [("damage 2d6+1d4", 6)] * 2 + [
        ("damage 2d6+1d4", 4)
    ]
    assert s.dice_needed("damage Ogre 2d6 faces 3") == [("damage 2d6", 6)]
    assert s.dice_needed("undo") == []
    assert s.to_dict() == before


def test_dice_needed_face_by_face_follows_the_branch() -> None:
    s = make()
    attacker = s.encounter.active.name
    action: dict[str, Any] = {"verb": "attack", "targets": ["Ogre"], "damage": "1d8+2"}
    first = s.dice_needed(action)
    assert first[0] == (f"{attacker} attack on Ogre (d20)", 20)
    assert s.dice_needed({**action, "faces": [2]}) == []  # a miss: no damage dice
    assert s.dice_needed({**action, "faces": [19]}) == [(f"{attacker} damage 1d8+2", 8)]


def test_typed_faces_are_used_and_leftovers_noted() -> None:
    s = make()
    step = s.apply("damage Ogre 1d6 faces 6,2")
    assert c(s, "Ogre").hp == 34  # the typed 6, untagged: no resistance
    assert step.action["unused_faces"] == [2]
    assert step.log[-1].text.startswith("unused faces: 2")


def test_preview_move_shows_the_shortfall_without_spending() -> None:
    s = make()
    before = s.to_dict()
    check = s.preview_move("zal", "sprint", face=12)
    assert (check.total, check.shortfall, check.spent, check.success) == (19, 3, 0, False)
    assert s.to_dict() == before
    rolled = s.preview_move("Zalek", "run")
    assert 1 <= rolled.face <= 20
    with pytest.raises(ActionError, match="no endurance"):
        s.preview_move("Ogre", "dash")
    with pytest.raises(ActionError, match="dash, run or sprint"):
        s.preview_move("Zalek", "fly")


# ---------------------------------------------------------------------------
# batches: several actions on one line, one step


def test_a_batch_is_one_step_one_undo_one_redo() -> None:
    s = make()
    before = view(s)
    step = s.apply("set Ogre max_hp 50; set Ogre hp 45; set Ogre al 14")
    assert step.kind == "do" and step.action["verb"] == "batch"
    assert [a["field"] for a in step.action["actions"]] == ["max_hp", "hp", "al"]
    ogre = c(s, "Ogre")
    assert (ogre.max_hp, ogre.hp, ogre.al) == (50, 45, 14)
    assert [e.text for e in step.log] == [
        "Ogre: max_hp set to 50",
        "Ogre: hp set to 45",
        "Ogre: al set to 14",
    ]
    after = view(s)
    s.apply("undo")
    assert view(s) == before
    s.apply("redo")
    assert view(s) == after
    assert step.line == "set Ogre max_hp 50; set Ogre hp 45; set Ogre al 14"


def test_a_failing_part_changes_nothing_and_is_named() -> None:
    s = make()
    before = s.to_dict()
    rng_state = s.rng.getstate()
    with pytest.raises(ActionError) as info:
        s.apply("damage Ogre 2d6; set Ogre al 14; set Dragon hp 3")
    message = str(info.value)
    assert message.startswith("part 3 of 3 (set Dragon hp 3): ")
    assert 'no combatant named "Dragon"' in message and "nothing was changed" in message
    assert s.to_dict() == before and s.rng.getstate() == rng_state
    with pytest.raises(ActionError, match=r"part 2 of 2 \(al x\)"):
        s.apply("heal Ogre 1; al x")  # a part that does not parse


def test_hp_and_max_hp_in_one_batch_work_in_either_order() -> None:
    s = make()  # the Ogre has 40 of 40
    s.apply("set Ogre hp 55; set Ogre max_hp 60")
    assert (c(s, "Ogre").hp, c(s, "Ogre").max_hp) == (55, 60)
    s.apply("set Zalek max_hp 50; set Zalek hp 48")
    assert (c(s, "Zalek").hp, c(s, "Zalek").max_hp) == (48, 50)
    with pytest.raises(ActionError, match="hp 70 is above its max_hp 60 at the end of the line"):
        s.apply("set Ogre hp 70; set Ogre al 12")
    with pytest.raises(ActionError, match=r"set max_hp first, or both on one line"):
        s.apply("set Ogre hp 70")  # alone: the message says how


def test_history_verbs_are_refused_inside_a_batch() -> None:
    s = make()
    for line in ("damage Ogre 1; undo", "redo; heal Ogre 1", "damage Ogre 1; prev"):
        with pytest.raises(ActionError, match="cannot be part of a batch"):
            s.apply(line)
    with pytest.raises(ActionError, match="cannot be part of a batch"):
        s.apply({"verb": "batch", "actions": [{"verb": "next"}, {"verb": "undo"}]})


def test_a_batch_keeps_each_parts_faces_and_replays_by_patch() -> None:
    s = make()
    snapshot = s.to_dict()
    step = s.apply("damage Ogre 1d6 faces 4; damage Zalek 1d4 faces 3; next")
    parts = step.action["actions"]
    assert parts[0]["faces"] == [4] and parts[1]["faces"] == [3]
    assert c(s, "Ogre").hp == 36 and c(s, "Zalek").hp == 35
    assert s.dice_needed("damage Ogre 1d6; damage Zalek 2d4") == [
        ("damage 1d6", 6),
        ("damage 2d4", 4),
        ("damage 2d4", 4),
    ]
    fresh = replay_all(snapshot, [step])
    assert fresh.to_dict() == s.to_dict()
    fresh.undo()
    s.undo()
    assert fresh.to_dict() == s.to_dict() and view(s)["encounter"] == snapshot["encounter"]


def test_a_built_batch_dict_applies_like_the_line() -> None:
    a, b = make(), make()
    a.apply("set Ogre max_hp 30; set Ogre hp 20")
    b.apply(
        {
            "verb": "batch",
            "actions": [
                {"verb": "set", "targets": ["Ogre"], "field": "max_hp", "value": "30"},
                {"verb": "set", "targets": ["Ogre"], "field": "hp", "value": "20"},
            ],
        }
    )
    assert view(a) == view(b)
