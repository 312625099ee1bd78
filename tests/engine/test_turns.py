"""The turn cycle through the engine: start, next across rounds with
persistent damage, durations and endurance recovery (003's Zalek numbers),
prev, delay/return, down combatants (RULES.md §4, §6–§10)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.rulesets import ruleset


def fight(*lines: str, seed: int = 3) -> Session:
    s = Session(Encounter("Turns"), rng=random.Random(seed))
    for line in lines:
        s.apply(line)
    return s


def c(s: Session, name: str) -> Any:
    return next(x for x in s.encounter.combatants if x.name == name)


def trio() -> Session:
    """Zalek (init 20), Goblin (15), Ogre (10): fixed initiatives."""
    return fight(
        "add Zalek player hp 38 al 15 con 17 athletics 4 init 20",
        "add Goblin hp 12 al 13 init 15",
        "add Ogre hp 40 al 11 init 10",
    )


def test_start_rolls_initiative_sorts_and_begins_round_one() -> None:
    s = fight("add A hp 5 dex 10", "add B hp 5 dex 10", "add C hp 5 init 12")
    step = s.apply("start faces 3,17")  # A rolls 3, B rolls 17; C is fixed at 12
    assert [x.name for x in s.encounter.combatants] == ["B", "C", "A"]
    assert (s.encounter.round, s.encounter.turn, s.encounter.started) == (1, 0, True)
    texts = [e.text for e in step.log]
    assert "A rolls initiative: d20 (3) + 0 = 3" in texts
    assert "C has a fixed initiative of 12" in texts
    assert "No start-of-combat Dash check (no CON and Athletics): B, C, A" in texts
    assert texts[-2:] == ["Round 1", "B's turn"]
    with pytest.raises(ActionError, match="already started"):
        s.apply("start")


def test_a_horde_without_con_is_one_short_dash_line_not_every_name() -> None:
    # 490 names of 60 characters were one log line of 30,000 characters
    long = "Zombie of the Sunken Crypt beneath the Old Mill at Dawn"
    s = fight(*[f"add '{long}{n}' count 70 hp 5 group Horde" for n in range(7)])
    texts = [e.text for e in s.apply("start").log]
    dash = next(t for t in texts if t.startswith("No start-of-combat Dash check"))
    assert dash.startswith(f"No start-of-combat Dash check (no CON and Athletics): {long}0 1–70, ")
    assert dash.endswith(f"{long}5 1–70, … (490 in all)") and len(dash) < 500


def test_start_errors_when_empty() -> None:
    with pytest.raises(ActionError, match="empty"):
        fight().apply("start")


def test_initiative_ties_players_first_then_gm_order() -> None:
    s = fight("add Goblin hp 5 init 12", "add Mira player hp 5 init 12")
    s.apply("start")
    assert [x.name for x in s.encounter.combatants] == ["Mira", "Goblin"]  # §4 ties


def test_next_wraps_rounds_and_logs_them() -> None:
    s = trio()
    s.apply("start faces 5")  # Zalek's start-of-combat Dash d20
    seen = []
    for _ in range(4):
        step = s.apply("next")
        seen.append((s.encounter.round, s.encounter.active.name))
    assert seen == [(1, "Goblin"), (1, "Ogre"), (2, "Zalek"), (2, "Goblin")]
    assert any(e.text == "Round 2" and e.round == 2 for e in s.log)
    assert step.log[-1].text == "Goblin's turn"


def test_zalek_endurance_through_the_engine() -> None:
    """003's example (RULES.md §8): CON 17, Athletics +4 → 21 points, passive
    17 ≥ 14 so the start-of-combat Dash succeeds whatever the roll; Sprint
    roll 12 → 19, 3 short of 22, paid with 3 points → 18; three rounds
    without movement actions → 21 again."""
    s = trio()
    step = s.apply("start faces 1")  # a natural 1 on the Dash check: passive still wins
    zalek = c(s, "Zalek")
    assert zalek.endurance.points == 21
    assert zalek.endurance.active["dash"] == 99  # 100 rounds, one counted at his first turn
    assert any("dash endurance check" in e.text and "success" in e.text for e in step.log)
    step = s.apply("move Zalek sprint roll 12")
    assert "3 short, spends 3 endurance (18/21 left)" in step.log[0].text
    points = []
    for _ in range(3):  # three rounds: Goblin, Ogre, Zalek each time
        for _ in range(3):
            s.apply("next")
        assert s.encounter.active.name == "Zalek"
        points.append(c(s, "Zalek").endurance.points)
    assert points == [18, 18, 21]
    assert any("endurance recovered: 3 points back (21/21)" in e.text for e in s.log)


def test_persistent_damage_ticks_at_end_of_turn_until_the_flat_check() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("persist Goblin 1d6 fire")
    s.apply("next")  # Goblin's turn starts: nothing yet
    assert c(s, "Goblin").hp == 12
    step = s.apply("next faces 4,7")  # end of Goblin's turn: 4 fire, flat 7 < 20
    assert c(s, "Goblin").hp == 8
    tick = step.log[0]
    assert tick.actor == "Goblin"
    assert tick.text == (
        "Goblin persistent fire 1d6 (4) = 4: Goblin takes 4 fire (4 HP lost, 8/12 left); "
        "flat check 7 vs DC 20: continues"
    )
    assert c(s, "Goblin").persistent
    s.apply("next")  # Ogre → Zalek (round 2)
    s.apply("next")  # Zalek → Goblin
    step = s.apply("next faces 2,20")
    assert c(s, "Goblin").hp == 6
    assert "ends" in step.log[0].text
    assert c(s, "Goblin").persistent == ()


def test_durations_tick_at_start_and_end_of_the_named_turn() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("cond Goblin frightened rounds 2")  # end of Goblin's own turn
    s.apply("bonus Ogre deflection 2 rounds 1 at start of Zalek")
    s.apply("temp Ogre 5 rounds 1")  # default: start of the target's own turn (§6)
    s.apply("next")  # → Goblin
    s.apply("next")  # Goblin's turn ends: frightened 2 → 1; → Ogre: temp HP expire
    assert c(s, "Goblin").conditions[0].duration.rounds_left == 1
    assert c(s, "Ogre").temp_hp == 0
    assert any(e.text == "Ogre's 5 temp HP expire" for e in s.log)
    assert c(s, "Ogre").bonuses
    s.apply("next")  # → Zalek (round 2): the deflection bonus ends at its start
    assert c(s, "Ogre").bonuses == ()
    assert any(e.text.startswith("Ogre loses +2 deflection") for e in s.log)
    s.apply("next")
    s.apply("next")  # Goblin's second turn ends: frightened is gone
    assert c(s, "Goblin").conditions == ()
    assert any(e.text == "Goblin is no longer frightened" for e in s.log)


def test_a_down_monster_keeps_its_place_but_its_turn_is_skipped() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("persist Goblin 1d6 bleed")
    s.apply("damage Goblin 50")
    assert c(s, "Goblin").down and c(s, "Goblin").hp == 0
    step = s.apply("next")
    assert s.encounter.active.name == "Ogre"  # Goblin passed over (§4)
    assert [x.name for x in s.encounter.combatants] == ["Zalek", "Goblin", "Ogre"]
    assert not any("Goblin" in e.text for e in step.log)
    assert c(s, "Goblin").persistent  # nothing ticked, the entry stays (§7)
    s.apply("prev")  # an undo of that next
    assert s.encounter.active.name == "Zalek"
    s.apply("next")
    s.apply("heal Goblin 5")  # back up: its turn comes again
    s.apply("next")
    s.apply("next")
    assert s.encounter.active.name == "Goblin"


def test_a_down_player_keeps_its_turn() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("damage Zalek 50")
    s.apply("next")
    s.apply("next")
    s.apply("next")
    assert (s.encounter.round, s.encounter.active.name) == (2, "Zalek")


def test_the_keep_option_gives_down_monsters_their_turns() -> None:
    s = Session(Encounter("Turns", ruleset("core", down_turns="keep")), rng=random.Random(3))
    s.apply("add Zalek player hp 38 init 20")
    s.apply("add Goblin hp 12 init 15")
    s.apply("start")
    s.apply("damage Goblin 50")
    s.apply("next")
    assert s.encounter.active.name == "Goblin"


def test_an_encounter_saved_before_the_option_keeps_down_turns() -> None:
    old = {"name": "Old", "ruleset": {"name": "core", "options": {"natural": "step"}}}
    assert Encounter.from_dict(old).ruleset["down_turns"] == "keep"
    assert Encounter("New").ruleset["down_turns"] == "skip-monsters"


def test_when_only_down_monsters_are_left_next_says_why() -> None:
    s = fight("add Goblin hp 5 init 12", "add Orc hp 5 init 10")
    s.apply("start")
    s.apply("damage Goblin,Orc 9")
    with pytest.raises(ActionError, match="down monster"):
        s.apply("next")


def test_prev_after_next_undoes_it_with_its_rolls() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("persist Zalek 1d6 fire")
    before = s.to_dict()["encounter"], [e.text for e in s.log]
    s.apply("next faces 5,3")  # Zalek takes 5
    assert c(s, "Zalek").hp == 33
    step = s.apply("prev")
    assert step.kind == "undo" and step.action["verb"] == "prev"
    assert (s.to_dict()["encounter"], [e.text for e in s.log]) == before
    s.apply("redo")  # the same rolls come back
    assert c(s, "Zalek").hp == 33
    assert s.encounter.active.name == "Goblin"


def test_prev_after_other_actions_only_moves_the_turn_back() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("next")
    s.apply("next")  # Ogre's turn
    s.apply("damage Zalek 4")
    step = s.apply("prev")
    assert step.kind == "do"
    assert s.encounter.active.name == "Goblin"
    assert c(s, "Zalek").hp == 34  # the damage stays
    assert step.log[0].text == "Turn moved back to Goblin (round 1); nothing was undone"
    s.apply("prev")  # the last action is a prev, not a next: pointer again
    assert s.encounter.active.name == "Zalek"
    with pytest.raises(ActionError, match="first turn of round 1"):
        s.apply("prev")


def test_prev_wraps_back_a_round() -> None:
    s = trio()
    s.apply("start faces 10")
    for _ in range(3):
        s.apply("next")
    s.apply("damage Ogre 1")
    s.apply("prev")
    assert (s.encounter.round, s.encounter.active.name) == (1, "Ogre")


def test_next_and_prev_need_a_started_fight() -> None:
    s = trio()
    with pytest.raises(ActionError, match="has not started"):
        s.apply("next")
    with pytest.raises(ActionError, match="has not started"):
        s.apply("prev")


def test_delay_skips_and_return_comes_back_after_the_active() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("delay Goblin")
    s.apply("next")
    assert s.encounter.active.name == "Ogre"  # Goblin is skipped
    s.apply("return Goblin")
    names = [x.name for x in s.encounter.combatants]
    assert names.index("Goblin") == names.index("Ogre") + 1
    assert c(s, "Goblin").initiative == 10  # takes the active one's initiative
    s.apply("next")
    assert s.encounter.active.name == "Goblin"
    s.apply("next")
    assert (s.encounter.round, s.encounter.active.name) == (2, "Zalek")
    with pytest.raises(ActionError, match="not delaying"):
        s.apply("return Goblin")


def test_delay_of_the_active_ends_its_turn_and_passes_it_on() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("persist Zalek 1d4 bleed")
    step = s.apply("delay Zalek faces 2,5")  # its end-of-turn damage still happens
    assert c(s, "Zalek").hp == 36
    assert s.encounter.active.name == "Goblin"
    assert s.encounter.delayed == ("Zalek",)
    assert [e.text for e in step.log][-2:] == ["Zalek delays", "Goblin's turn"]
    with pytest.raises(ActionError, match="already delaying"):
        s.apply("delay Zalek")


def test_everyone_delaying_is_an_error() -> None:
    s = fight("add A hp 5 init 3", "add B hp 5 init 2")
    s.apply("start")
    s.apply("delay B")
    with pytest.raises(ActionError, match="nobody else"):
        s.apply("delay A")


def test_a_duration_counted_on_a_removed_combatants_turns_still_runs_out() -> None:
    # RULES.md §10: the Bard's frighten lasts until the end of the Bard's
    # turn; when the Bard leaves the fight it counts on the Goblin's turns.
    import random

    from rules.engine import Session

    s = Session(rng=random.Random(5))
    for line in (
        "add Bard hp 20 init 10",
        "add Goblin hp 10 init 15",
        "start",  # the Goblin's turn: the Bard leaves before its own
        "cond Goblin frightened rounds 1 of Bard",
        "remove Bard",
    ):
        s.apply(line)
    goblin = s.encounter.combatants[0]
    assert goblin.conditions[0].duration.of == "Goblin"
    s.apply("next")  # end of the Goblin's turn: the frighten runs out
    assert s.encounter.combatants[0].conditions == ()
    assert any("no longer frightened" in entry.text for entry in s.log)


def test_removing_the_active_combatant_logs_it_then_ends_its_turn() -> None:
    # The Bard leaves on its own turn: the removal is logged first, its turn
    # ends (a frighten until the end of its turn ends with it, a longer one
    # counts one round and moves to the bearer's turns), then the turn passes.
    s = fight(
        "add Goblin hp 10 init 5",
        "add Bard hp 20 init 15",
        "add Ogre hp 30 init 10",
        "start",
        "next",
        "next",  # the Goblin's turn (round 1)
        "cond Ogre frightened rounds 1 of Goblin",
        "cond Bard prone rounds 2 of Goblin",
        "persist Goblin 1d6 bleed",
    )
    step = s.apply("remove Goblin")
    texts = [e.text for e in step.log]
    assert texts == [
        "Goblin is removed",
        "Ogre is no longer frightened",
        "Round 2",
        "Bard's turn",
    ]
    assert step.log[0].round == 1 and step.log[-1].round == 2
    assert c(s, "Ogre").conditions == ()
    prone = c(s, "Bard").conditions[0].duration
    assert (prone.rounds_left, prone.of) == (1, "Bard")  # re-homed after one tick
    assert not step.action.get("faces")  # the leaving Goblin's bleed is not rolled


def bleed_ticks(s: Session) -> list[Any]:
    return [e for e in s.log if "persistent bleed" in e.text and "flat check" in e.text]


def test_prev_then_next_does_not_process_a_turn_boundary_twice() -> None:
    s = fight(
        "add A hp 50 init 20",
        "add B hp 50 init 10 con 14 athletics 2",
        "start faces 10",  # B's start-of-combat Dash d20
        "persist A 1d6 bleed dc 21",
        "cond A frightened rounds 2",
        "next",  # end of A's turn: the bleed ticks once, frightened 2 → 1
        "heal A 1",
    )
    hp, dash = c(s, "A").hp, c(s, "B").endurance.active["dash"]
    step = s.apply("prev")  # not an undo: the heal came after the next
    assert step.kind == "do" and s.encounter.active.name == "A"
    assert s.encounter.rewound == 1
    step = s.apply("next")
    assert [e.text for e in step.log] == [
        "End of A's turn (already processed)",
        "B's turn (already processed)",
    ]
    assert len(bleed_ticks(s)) == 1 and c(s, "A").hp == hp
    assert c(s, "A").conditions[0].duration.rounds_left == 1
    assert c(s, "B").endurance.active["dash"] == dash  # B's own turn counted once
    assert s.encounter.rewound == 0
    s.apply("next")  # B → A, round 2: processed as usual
    s.apply("next")  # end of A's turn in round 2: the second tick
    assert len(bleed_ticks(s)) == 2
    assert c(s, "A").conditions == ()


def test_two_prevs_skip_two_boundaries_then_processing_resumes() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("persist Zalek 1d4 fire")
    s.apply("next")  # Zalek's bleed ticks
    s.apply("next")  # → Ogre
    s.apply("damage Ogre 1")
    s.apply("prev")
    s.apply("prev")  # back at Zalek, round 1
    assert (s.encounter.rewound, s.encounter.active.name) == (2, "Zalek")
    s.apply("next")
    s.apply("next")
    assert len([e for e in s.log if "persistent fire" in e.text]) == 1
    assert s.encounter.active.name == "Ogre" and s.encounter.rewound == 0
    step = s.apply("next")  # Ogre's end and Zalek's start (round 2) are new
    assert "(already processed)" not in " ".join(e.text for e in step.log)
    assert (s.encounter.round, s.encounter.active.name) == (2, "Zalek")


def test_rewound_survives_undo_snapshots_and_old_saves() -> None:
    s = trio()
    s.apply("start faces 10")
    s.apply("next")
    s.apply("damage Ogre 1")
    s.apply("prev")
    snap = s.to_dict()
    assert snap["encounter"]["rewound"] == 1
    again = Session.from_dict(snap, rng=random.Random(1))
    assert again.encounter.rewound == 1
    s.apply("undo")  # the prev is undone: nothing to skip any more
    assert s.encounter.rewound == 0 and "rewound" not in s.to_dict()["encounter"]
    old = dict(snap["encounter"])
    del old["rewound"]  # a save written before the field existed
    assert Encounter.from_dict(old).rewound == 0


def goblins() -> Session:
    s = fight(
        "add 'Goblin 1' hp 7 init 18",
        "add 'Goblin 2' hp 7 init 15",
        "add 'Goblin 3' hp 7 init 12",
    )
    s.apply("start")
    return s


def test_a_duration_counted_on_a_later_turn_runs_out_this_round_and_says_so() -> None:
    # RULES.md §10 is silent on whether the current round counts: it does when
    # the counting turn is still to come, and the grant says when it ends.
    s = goblins()  # Goblin 1's turn, round 1
    step = s.apply("cond 'Goblin 3' frightened rounds 1")
    assert step.log[0].text == (
        "Goblin 3 is frightened for 1 round (until the end of Goblin 3's turn, round 1)"
    )
    s.apply("next")
    s.apply("next")  # Goblin 3's turn
    assert c(s, "Goblin 3").conditions
    step = s.apply("next")
    ended = next(e for e in step.log if e.text == "Goblin 3 is no longer frightened")
    assert ended.round == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # the active combatant's own end of turn: this round
        (
            "cond 'Goblin 2' prone rounds 1 of 'Goblin 1'",
            "(until the end of Goblin 1's turn, round 1)",
        ),
        # the active's start has passed: next round
        (
            "bonus 'Goblin 2' dodge 2 rounds 1 at start of 'Goblin 1'",
            "(until the start of Goblin 1's turn, round 2)",
        ),
        # temp HP: by default at the start of the target's own turn (§6)
        ("temp 'Goblin 3' 5 rounds 1", "(until the start of Goblin 3's turn, round 1)"),
        ("temp 'Goblin 1' 5 rounds 2", "(until the start of Goblin 1's turn, round 3)"),
    ],
)
def test_grant_lines_say_when_the_duration_ends(line: str, expected: str) -> None:
    s = goblins()
    step = s.apply(line)
    assert step.log[0].text.endswith(expected), step.log[0].text


def test_the_foreseen_end_matches_the_fight_as_it_runs() -> None:
    s = goblins()
    s.apply("next")  # Goblin 2's turn: Goblin 1 has acted
    step = s.apply("cond 'Goblin 1' slowed rounds 2")
    assert step.log[0].text.endswith("(until the end of Goblin 1's turn, round 3)")
    for _ in range(6):
        s.apply("next")  # … to the end of Goblin 1's turn in round 3
    assert c(s, "Goblin 1").conditions == ()
    ended = next(e for e in s.log if e.text == "Goblin 1 is no longer slowed")
    assert ended.round == 3


def test_before_start_and_after_prev_the_end_is_still_foreseen() -> None:
    s = fight("add A hp 5 init 10", "add B hp 5 init 5")
    step = s.apply("cond B prone rounds 2")  # not started: round 1 is all ahead
    assert step.log[0].text.endswith("(until the end of B's turn, round 2)")
    s.apply("start")
    s.apply("next")  # B's turn
    s.apply("roll 1d20")
    s.apply("prev")  # back at A; A's end of turn will not be processed again
    step = s.apply("cond A dazed rounds 1")
    assert step.log[0].text.endswith("(until the end of A's turn, round 2)")


def test_second_combat_keeps_a_still_active_dash_and_the_recovery_countdown() -> None:
    """RULES.md §8: a Dash still active when a new combat starts needs no
    check and carries over as it is; the state matches the log line."""
    s = fight("add Zalek player hp 30 con 17 athletics 4 init 15", "add Orc hp 15 init 5")
    s.apply("start faces 10")
    s.apply("next")
    s.apply("next")  # Zalek's second turn
    s.apply("move Zalek run roll 1")  # passive 17 vs DL 18: 1 short, spends 1
    s.apply("next")
    s.apply("next")
    s.apply("end")
    before = c(s, "Zalek").endurance
    assert before.points == 20 and before.recovery_rounds_left is not None
    left = before.active["dash"]
    step = s.apply("start")
    after = c(s, "Zalek").endurance
    texts = [e.text for e in step.log]
    assert (
        f"Zalek start-of-combat dash: still active ({left} rounds left), no check needed" in texts
    )
    assert s.encounter.active.name == "Orc"  # end cleared initiative; Zalek rolled 8
    assert after == before  # not 100 rounds, not a restarted countdown
