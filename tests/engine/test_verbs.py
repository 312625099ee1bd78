"""Every verb of the action language through ``Session.apply``: what it does
to the fight, what it logs, and that undo and redo of it restore exactly the
state before and after (compared via ``to_dict``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.rulesets import ruleset

CAST = [
    "add Zalek player hp 38 al 15 con 17 athletics 4 dex 12 per 11 wis 10",
    "add Mira player hp 24 al 13 dex 16 per 14 wis 13 luck 14 init 20",
    "add Goblin count 3 hp 7 al 13 bonus 2",
    "add Ogre hp 40 al 11 resist fire=5 weak cold immune poison con 16 athletics 2",
]


def make(started: bool = True, rules: str = "core", seed: int = 7) -> Session:
    s = Session(Encounter("Ambush", ruleset(rules)), rng=random.Random(seed))
    for line in CAST:
        s.apply(line)
    if started:
        s.apply("start")
    return s


def state(s: Session) -> dict[str, Any]:
    return {"encounter": s.to_dict()["encounter"], "log": [e.to_dict() for e in s.log]}


def c(s: Session, name: str) -> Any:
    return next(x for x in s.encounter.combatants if x.name == name)


# (setup lines, the verb's line, started?) — one case per verb
CASES: dict[str, tuple[list[str], str, bool]] = {
    "add": ([], "add Bandit hp 11 al 12 dex 14", True),
    "add-count": ([], "add Goblin count 2 hp 2d6", True),
    "remove": ([], "remove 'Goblin 3'", True),
    "remove-active": ([], "remove Mira", True),
    "remove-defeated": (["damage 'Goblin 1,Goblin 3' 20"], "remove defeated", True),
    "init": ([], "init Ogre 25", True),
    "order": ([], "order Ogre up", True),
    "set": ([], "set Ogre hp 30", True),
    "set-name": ([], "set Ogre name 'Big Ogre'", True),
    "start": ([], "start", False),
    "next": ([], "next", True),
    "prev": (["next", "damage Ogre 3"], "prev", True),
    "prev-undoes-next": (["next"], "prev", True),
    "end": (["next", "damage Ogre 3"], "end", True),
    "damage": ([], "damage 'Goblin 1,Goblin 2' 2d6 fire", True),
    "heal": (["damage Zalek 10"], "heal Zalek 1d4+1", True),
    "temp": ([], "temp Mira 6 rounds 1", True),
    "persist": ([], "persist Ogre 1d6 bleed", True),
    "unpersist": (["persist Ogre 1d6 bleed"], "unpersist Ogre bleed", True),
    "cond": ([], "cond Ogre frightened value 2 rounds 2", True),
    "uncond": (["cond Ogre prone"], "uncond Ogre prone", True),
    "move": ([], "move Zalek sprint roll 12", True),
    "bonus": ([], "bonus Ogre deflection 2 rounds 3", True),
    "unbonus": (["bonus Ogre deflection 2"], "unbonus Ogre deflection", True),
    "attack": ([], "attack Ogre with +5 roll 15 damage 1d8+3 slashing", True),
    "delay": ([], "delay Ogre", True),
    "delay-active": ([], "delay Mira", True),
    "return": (["delay Ogre"], "return Ogre", True),
    "group": ([], "group Raiders Goblin*,Ogre", True),
    "group-before-start": ([], "group Raiders Goblin*", False),
    "add-group": ([], "add Wolf count 3 hp 11 group", True),
    "ungroup": (["group Raiders Goblin*"], "ungroup Raiders", True),
    "roll": ([], "roll 1d20+5 adv 1 dc 15", True),
    "luck": ([], "luck Mira", True),
    "cinematic": ([], "cinematic Mira adv", True),
    "hide": ([], "hide 'Goblin 1,Ogre'", True),
    "mask": (["hide Ogre"], "mask Ogre", True),
    "reveal": (["hide Goblin*"], "reveal Goblin*", True),
    "hide-group": (["group Raiders Goblin*"], "hide Raiders", False),
    "add-hidden": ([], "add Spy hp 9 hidden", True),
    "view": ([], "view monster_hp exact", True),
    "view-bool": ([], "view show_al on", False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_undo_and_redo_of_every_verb_restore_exact_states(case: str) -> None:
    setup, line, started = CASES[case]
    s = make(started)
    for pre in setup:
        s.apply(pre)
    before = state(s)
    step = s.apply(line)
    after = state(s)
    assert after != before, f"{line} changed nothing"
    assert step.kind in ("do", "undo")
    if step.kind == "undo":  # prev right after next is an undo of the next
        return
    s.undo()
    assert state(s) == before
    s.redo()
    assert state(s) == after
    s.undo()
    s.undo()  # and one more: any depth
    s.redo()
    s.redo()
    assert state(s) == after


def test_every_verb_is_covered() -> None:
    from rules.engine.grammar import VERBS

    covered = {CASES[k][1].split()[0] for k in CASES}
    assert covered | {"undo", "redo"} == set(VERBS)


# ---------------------------------------------------------------------------
# add / remove / init / order / set


def test_add_count_numbers_and_continues_numbering() -> None:
    s = make(started=False)
    assert [x.name for x in s.encounter.combatants if x.name.startswith("Goblin")] == [
        "Goblin 1",
        "Goblin 2",
        "Goblin 3",
    ]
    s.apply("add Goblin count 1 hp 5")
    s.apply("add goblin count 2 hp 5")
    names = {x.name for x in s.encounter.combatants}
    assert {"Goblin 4", "goblin 5", "goblin 6"} <= names
    s.apply("add Orc hp 5")
    s.apply("add Orc count 1 hp 5")
    assert {"Orc", "Orc 2"} <= {x.name for x in s.encounter.combatants}


def test_add_sets_up_endurance_luck_and_defenses() -> None:
    s = make(started=False)
    zalek = c(s, "Zalek")
    assert zalek.endurance.points == 21 and zalek.endurance.passive == 17  # §8, 003's Zalek
    assert c(s, "Mira").luck_points == 2  # LUCK 14 → +2 (§11)
    assert c(s, "Goblin 1").endurance is None
    ogre = c(s, "Ogre")
    assert ogre.defenses.resistances == {"fire": 5}
    assert ogre.defenses.weaknesses == frozenset({"cold"})
    assert ogre.defenses.immunities == frozenset({"poison"})


def test_add_hp_from_dice_rolls_or_averages() -> None:
    s = Session(Encounter("x"), rng=random.Random(1))
    s.apply("add Ogre hp 7d10+21 avg")
    assert c(s, "Ogre").max_hp == 59  # average 59.5 rounded down (§4)
    s.apply("add Troll hp 2d6 faces 3,4")
    assert c(s, "Troll").hp == 7


def test_add_mid_combat_rolls_initiative_and_is_placed_by_it() -> None:
    s = make()
    active = s.encounter.active.name
    s.apply("add Bandit hp 11 init 19")
    names = [x.name for x in s.encounter.combatants]
    assert names.index("Bandit") == names.index("Mira") + 1  # Mira has 20
    assert s.encounter.active.name == active
    step = s.apply("add Scout hp 5 dex 14 faces 9")
    scout = c(s, "Scout")
    assert scout.initiative == 9 + 2
    assert any("Scout rolls initiative" in e.text for e in step.log)


def test_add_needs_hp_and_rejects_commas() -> None:
    s = make(started=False)
    with pytest.raises(ActionError, match="hp is needed"):
        s.apply("add Bandit al 12")
    with pytest.raises(ActionError, match="comma"):
        s.apply({"verb": "add", "name": "A,B", "hp": 3})


def test_remove_takes_the_combatant_out_and_keeps_the_turn() -> None:
    s = make()
    active = s.encounter.active.name
    s.apply("remove goblin\\ 2,ogre")
    names = [x.name for x in s.encounter.combatants]
    assert "Goblin 2" not in names and "Ogre" not in names
    assert s.encounter.active.name == active


def test_remove_active_starts_the_next_turn() -> None:
    s = make()
    order = [x.name for x in s.encounter.combatants]
    first = s.encounter.active.name
    step = s.apply(f"remove {first}")
    assert s.encounter.active.name == order[1]
    assert any(e.text == f"{order[1]}'s turn" for e in step.log)


def test_init_resorts_and_keeps_the_active_combatant() -> None:
    s = make()
    active = s.encounter.active.name
    s.apply("init Ogre 30")
    assert s.encounter.combatants[0].name == "Ogre"
    assert s.encounter.active.name == active
    assert c(s, "Ogre").initiative == 30


def test_order_swaps_neighbours() -> None:
    s = make()
    names = [x.name for x in s.encounter.combatants]
    second = names[1]
    s.apply(f"order '{second}' up")
    assert [x.name for x in s.encounter.combatants][:2] == [second, names[0]]
    with pytest.raises(ActionError, match="already first"):
        s.apply(f"order '{second}' up")


def test_set_fields() -> None:
    s = make()
    s.apply("set Ogre max_hp 20")
    assert (c(s, "Ogre").max_hp, c(s, "Ogre").hp) == (20, 20)
    s.apply("set Ogre hp 5")
    assert c(s, "Ogre").hp == 5
    with pytest.raises(ActionError, match="above max_hp"):
        s.apply("set Ogre hp 50")
    s.apply("set Ogre al 14")
    s.apply("set Ogre temp 6")
    s.apply("set Ogre notes 'has the key'")
    s.apply("set Ogre weak fire,acid")
    s.apply("set Ogre resist none")
    ogre = c(s, "Ogre")
    assert (ogre.al, ogre.temp_hp, ogre.notes) == (14, 6, "has the key")
    assert ogre.defenses.weaknesses == frozenset({"fire", "acid"})
    assert ogre.defenses.resistances == {}
    s.apply("set Ogre con 10")
    assert c(s, "Ogre").endurance.max_points == 12  # CON 10 + athletics 2 (§8)
    s.apply("set Mira luck 18")
    assert c(s, "Mira").luck_points == 4
    with pytest.raises(ActionError, match="unknown field"):
        s.apply("set Ogre colour red")


def test_rename_follows_turn_delay_and_durations() -> None:
    s = make()
    s.apply("cond Ogre frightened rounds 2 at end of Mira")
    s.apply("set Mira name Mirabel")
    assert s.encounter.active.name == "Mirabel"
    assert c(s, "Ogre").conditions[0].duration.of == "Mirabel"
    with pytest.raises(ActionError, match="already a combatant"):
        s.apply("set Ogre name zalek")


# ---------------------------------------------------------------------------
# damage, heal, temp HP, persistent


def test_damage_is_rolled_once_for_all_targets_and_applies_defenses() -> None:
    s = make()
    step = s.apply("damage 'Goblin 1,Ogre' 2d6 fire faces 3,5")
    assert c(s, "Goblin 1").hp == 0  # 8 ≥ 7: down, stays in the order
    assert c(s, "Goblin 1").down
    assert c(s, "Ogre").hp == 40 - 4  # core: resistance halves (§5)
    assert step.log[0].text.startswith("Damage fire: 2d6 (3, 5) = 8")
    assert "Goblin 1 is down" in step.log[1].text


def test_damage_crit_doubles_per_ruleset() -> None:
    s = make(rules="core")  # double-total
    s.apply("damage Zalek 1d6+2 crit faces 4")
    assert c(s, "Zalek").hp == 38 - 12
    f = make(rules="forge")  # double-dice: 2d6+2
    f.apply("damage Zalek 1d6+2 crit faces 4,5")
    assert c(f, "Zalek").hp == 38 - 11


def test_heal_never_exceeds_max_and_temp_absorbs_first() -> None:
    s = make()
    s.apply("damage Zalek 10")
    s.apply("heal Zalek 50")
    assert c(s, "Zalek").hp == 38
    s.apply("temp Zalek 5")
    s.apply("damage Zalek 8")
    z = c(s, "Zalek")
    assert (z.temp_hp, z.hp) == (0, 35)


def test_temp_keep_higher_by_default() -> None:
    s = make()
    s.apply("temp Zalek 5")
    s.apply("temp Zalek 3")
    assert c(s, "Zalek").temp_hp == 5


def test_persist_defaults_dc_and_source() -> None:
    s = make()
    s.apply("persist Ogre 1d6 bleed")
    entry = c(s, "Ogre").persistent[0]
    assert (entry.dc, entry.source, entry.tags) == (20, s.encounter.active.name, ("bleed",))
    s.apply("persist Ogre 2d6 bleed dc 15")
    assert c(s, "Ogre").persistent[0].dc == 15  # higher average replaces (§7)
    with pytest.raises(ActionError, match="no persistent fire"):
        s.apply("unpersist Ogre fire")


def test_persist_of_names_the_source_whoever_acts() -> None:
    """The goblin whose blade caused the bleeding is its source, though it
    is Mira's turn: in the entry, the journaled action and the log lines
    that describe the entry; the name follows a rename (§7)."""
    s = make()
    assert s.encounter.active.name == "Mira"
    step = s.apply("persist Mira 1d6 bleed of 'goblin 2'")
    assert c(s, "Mira").persistent[0].source == "Goblin 2"
    assert step.action["of"] == "Goblin 2"  # the full name, as cond's of
    assert step.log[0].text == "Mira takes persistent 1d6 bleed (DC 20, from Goblin 2)"
    s.apply("set 'Goblin 2' name Snik")
    ended = s.apply("unpersist Mira bleed")
    assert ended.log[0].text == "Mira's persistent 1d6 bleed (DC 20, from Snik) ends"
    s.apply("undo")
    s.apply("undo")
    s.apply("undo")
    assert c(s, "Mira").persistent == ()


def test_persist_of_takes_one_combatant_and_a_refusal_changes_nothing() -> None:
    s = make()
    before = state(s)
    with pytest.raises(ActionError, match="of: takes one combatant"):
        s.apply("persist Ogre 1d6 bleed of monsters")
    with pytest.raises(ActionError, match='no combatant named "Nobody"'):
        s.apply("persist Ogre 1d6 bleed of Nobody")
    assert state(s) == before


# ---------------------------------------------------------------------------
# conditions, bonuses, cinematic


def test_cond_default_duration_is_the_targets_own_turn_end() -> None:
    s = make()
    s.apply("cond Ogre frightened value 2 rounds 2")
    cond = c(s, "Ogre").conditions[0]
    assert (cond.name, cond.value) == ("frightened", 2)
    assert (cond.duration.rounds_left, cond.duration.tick, cond.duration.of) == (2, "end", "Ogre")
    s.apply("cond Ogre prone at start of mira")
    prone = c(s, "Ogre").conditions[1]
    assert (prone.duration.rounds_left, prone.duration.tick, prone.duration.of) == (
        1,
        "start",
        "Mira",
    )
    with pytest.raises(ActionError, match="not stunned"):
        s.apply("uncond Ogre stunned")


def test_bonus_stacks_into_effective_al_for_attacks() -> None:
    s = make()
    s.apply("bonus Ogre dodge 2")
    s.apply("bonus Ogre dodge 3")  # dodge: only the highest counts (§9)
    step = s.apply("attack Ogre roll 10 with +3")  # 13 vs AL 11 + 3 = 14
    assert "failure" in step.log[0].text
    assert "AL 14" in step.log[0].text
    with pytest.raises(ActionError, match="unknown type"):
        s.apply("bonus Ogre shiny 2")
    with pytest.raises(ActionError, match="AL only"):
        s.apply("bonus Ogre dodge 2 to attacks")
    s.apply("unbonus Ogre dodge")
    assert c(s, "Ogre").bonuses == ()


def test_cinematic_advantage_is_used_by_the_next_attack() -> None:
    s = make()
    attacker = s.encounter.active.name
    s.apply(f"cinematic {attacker} adv")
    step = s.apply("attack Ogre faces 3,18")
    assert "2d20kh1" in step.log[0].text
    assert c(s, attacker).bonuses == ()
    step = s.apply("attack Ogre faces 3")
    assert "2d20" not in step.log[0].text


# ---------------------------------------------------------------------------
# attack, move, roll, luck


def test_attack_hit_miss_crit_and_cover() -> None:
    s = make()
    step = s.apply("attack Ogre with +5 roll 2 damage 1d8+3 slashing")  # 7 vs 11: miss
    assert c(s, "Ogre").hp == 40 and len(step.log) == 1
    assert "1d20 (2) + 5 = 7 vs AL 11: failure" in step.log[0].text
    s.apply("attack Ogre with +5 roll 8 damage 1d8+3 slashing faces 4")  # 13: hit
    assert c(s, "Ogre").hp == 33
    s.apply("attack Ogre with +5 roll 16 damage 1d8+3 slashing faces 4")  # 21 ≥ 21: crit
    assert c(s, "Ogre").hp == 33 - 14  # core: double-total
    step = s.apply("attack Ogre with +5 roll 4 cover three-quarters")  # 9 vs 16
    assert "AL 16" in step.log[0].text and "+5 three-quarters cover" in step.log[0].text
    with pytest.raises(ActionError, match="cannot be targeted"):
        s.apply("attack Ogre cover total")


def test_attack_advantage_follows_the_ruleset() -> None:
    s = make(rules="core")  # alternate: adv 2 = 2d20 +2
    step = s.apply("attack Ogre adv 2 faces 5,6")
    assert "2d20kh1" in step.log[0].text and "+ 2" in step.log[0].text
    f = make(rules="forge")  # stack: adv 2 = 3d20
    step = f.apply("attack Ogre adv 2 faces 5,6,7")
    assert "3d20kh1" in step.log[0].text


def test_move_spends_endurance_unless_nospend() -> None:
    s = make()
    step = s.apply("move Zalek sprint roll 12 nospend")
    assert c(s, "Zalek").endurance.points == 21
    assert "3 short: fails, no sprint (the GM chose not to spend 3 of 21" in step.log[0].text
    s.apply("move Zalek sprint roll 12")
    assert c(s, "Zalek").endurance.points == 18
    with pytest.raises(ActionError, match="no endurance"):
        s.apply("move 'Goblin 1' dash")


def test_constant_damage_logs_no_roll_line() -> None:
    s = make()
    step = s.apply("damage Ogre 10")
    # no "Damage: 10 = 10" line for a constant
    assert [e.text for e in step.log] == ["Ogre takes 10 (10 HP lost, 30/40 left)"]
    step = s.apply("damage Ogre 1d4 faces 3")  # dice: the roll line stays
    assert step.log[0].text == "Damage: 1d4 (3) = 3"


def test_roll_free_with_dl_name() -> None:
    s = make()
    step = s.apply("roll 1d20+5 dl heroic faces 19")
    assert step.log[0].text == "Roll: 1d20 (19) + 5 = 24 vs DC 24: success (Heroic)"
    assert step.after == {}  # only the log changed
    with pytest.raises(ActionError, match="difficulty level"):
        s.apply("roll 1d20 dl legendary")


def test_luck_spends_a_point_and_rolls_the_extra_d20() -> None:
    s = make()
    step = s.apply("luck Mira roll 17")
    assert c(s, "Mira").luck_points == 1
    assert "the extra d20 shows 17" in step.log[0].text
    s.apply("luck Mira")
    with pytest.raises(ActionError, match="no luck points left"):
        s.apply("luck Mira")
    with pytest.raises(ActionError, match="no luck points"):
        s.apply("luck Ogre")


# ---------------------------------------------------------------------------
# targets


def test_targets_by_prefix_any_case_and_ambiguity() -> None:
    s = make()
    s.apply("damage og 1")
    assert c(s, "Ogre").hp == 39
    s.apply("damage 'goblin 3' 1")
    assert c(s, "Goblin 3").hp == 6
    with pytest.raises(ActionError, match='"gob" matches 3 combatants: .*Goblin 1.*type more'):
        s.apply("damage gob 1")
    with pytest.raises(ActionError, match='no combatant named "Dragon" \\(combatants: '):
        s.apply("damage Dragon 1")


def test_exact_name_wins_over_prefix() -> None:
    s = Session(Encounter("x"), rng=random.Random(1))
    s.apply("add Gob hp 5")
    s.apply("add Goblin hp 5")
    s.apply("damage gob 1")
    assert c(s, "Gob").hp == 4 and c(s, "Goblin").hp == 5


def test_size_limits_are_the_same_typed_or_applied() -> None:
    s = make()
    for line in ("damage Ogre 99999999999999999999", "temp Ogre 100000000000000000000"):
        with pytest.raises(ActionError, match=r"too large \(at most 1,000,000\)"):
            s.apply(line)
    with pytest.raises(ActionError, match=r"max_hp .* is too large \(at most 1,000,000\)"):
        s.apply("set Ogre max_hp 99999999999999999999")
    s.apply("set Ogre max_hp 1000000")
    assert c(s, "Ogre").max_hp == 1_000_000


def test_a_persistent_dc_above_20_says_only_unpersist_ends_it() -> None:
    s = make()
    step = s.apply("persist Ogre 1d6 bleed dc 21")
    assert c(s, "Ogre").persistent[0].dc == 21
    assert step.log[0].text.endswith("it can only be ended by unpersist")
    step = s.apply("persist Zalek 1d6 bleed dc 20")
    assert "unpersist" not in step.log[0].text
