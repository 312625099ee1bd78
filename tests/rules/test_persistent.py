"""Persistent damage (RULES.md §7)."""

from __future__ import annotations

import pytest

from rules.combatant import Combatant
from rules.damage import Defenses
from rules.persistent import (
    PersistentDamage,
    add_persistent,
    ending_tag,
    persistent_entry,
    remove_persistent,
    tick_persistent,
)
from rules.rulesets import ruleset

CORE = ruleset("core")


def goblin(**kw: object) -> Combatant:
    base: dict[str, object] = {"name": "Goblin", "max_hp": 20, "hp": 20}
    base.update(kw)
    return Combatant(**base)  # type: ignore[arg-type]


BLEED = PersistentDamage("1d6", ("bleed",), 20, "Ogre")


def test_add_entry() -> None:
    c, text = add_persistent(goblin(), BLEED)
    assert c.persistent == (BLEED,)
    assert text == "Goblin takes persistent 1d6 bleed (DC 20, from Ogre)"


def test_higher_average_replaces_and_says_so() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    stronger = PersistentDamage("2d6", ("Bleed",), 20, "Troll")
    c, text = add_persistent(c, stronger)
    assert c.persistent == (stronger,)
    assert "replaces 1d6 (avg 3.5)" in text and "avg 7" in text


def test_lower_or_equal_average_keeps_existing_and_says_so() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    for weaker in (PersistentDamage("1d4", ("bleed",)), PersistentDamage("1d6", ("bleed",))):
        same, text = add_persistent(c, weaker)
        assert same.persistent == (BLEED,)
        assert "keeps persistent 1d6" in text and "not higher" in text


def test_different_tags_coexist() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    fire = PersistentDamage("1d4", ("fire",))
    c, _ = add_persistent(c, fire)
    assert c.persistent == (BLEED, fire)


def test_bad_dice_rejected_on_add() -> None:
    with pytest.raises(ValueError):
        add_persistent(goblin(), PersistentDamage("3d0", ("fire",)))


def test_entry_takes_default_dc_from_ruleset() -> None:
    assert persistent_entry("1d6", "Fire", CORE).dc == 20
    e = persistent_entry("1d6", ["fire"], ruleset("core", persistent_dc=15), source="Imp")
    assert (e.dc, e.tags, e.source) == (15, ("fire",), "Imp")
    assert persistent_entry("1d6", "fire", CORE, dc=12).dc == 12
    with pytest.raises(ValueError, match="flat DC"):
        persistent_entry("1d6", "fire", CORE, dc=0)


def test_gm_removes_by_tag_any_case() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    c, text = remove_persistent(c, "BLEED")
    assert c.persistent == () and "ends" in text


def test_the_ending_tag_of_an_entry_ends_that_entry_alone() -> None:
    acid_fire = PersistentDamage("2d4", ("Fire", "acid"))
    untyped = PersistentDamage("1d4")
    c = goblin()
    for entry in (BLEED, acid_fire, untyped):
        c, _ = add_persistent(c, entry)
    assert [ending_tag(p) for p in c.persistent] == ["bleed", "acid", "untyped"]
    for entry in (acid_fire, untyped, BLEED):
        left = [p for p in c.persistent if p != entry]
        c, text = remove_persistent(c, ending_tag(entry))
        assert list(c.persistent) == left and text.endswith(" ends")


def test_remove_absent_is_clear_error() -> None:
    with pytest.raises(ValueError, match="Goblin has no persistent fire damage"):
        remove_persistent(goblin(), "fire")


def test_tick_applies_damage_through_defenses_and_continues() -> None:
    c = goblin(temp_hp=2, defenses=Defenses(resistances={"bleed": 1}))
    c, _ = add_persistent(c, BLEED)
    new, tick = tick_persistent(c, BLEED, 5, 19, ruleset("forge"))
    assert tick.damage.final == 4 and tick.damage.temp_absorbed == 2
    assert new.hp == 18 and not tick.ended and new.persistent == (BLEED,)
    assert (tick.face, tick.dc) == (19, 20)
    assert "flat check 19 vs DC 20: continues" in tick.text


def test_tick_flat_check_success_ends_entry() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    new, tick = tick_persistent(c, BLEED, 3, 20, CORE)
    assert tick.ended and new.persistent == () and new.hp == 17
    assert tick.text.endswith("ends")


def test_tick_flat_check_has_no_natural_rules() -> None:
    # §3: a flat check is the bare face against the DC; a 1 against DC 1 succeeds.
    entry = PersistentDamage("1d4", ("acid",), 1)
    c, _ = add_persistent(goblin(), entry)
    assert tick_persistent(c, entry, 1, 1, CORE)[1].ended


def test_immune_target_takes_nothing_but_still_checks() -> None:
    c = goblin(defenses=Defenses(immunities=frozenset({"bleed"})))
    c, _ = add_persistent(c, BLEED)
    new, tick = tick_persistent(c, BLEED, 6, 3, CORE)
    assert new.hp == 20 and tick.damage.final == 0 and not tick.ended


def test_tick_bad_input() -> None:
    c, _ = add_persistent(goblin(), BLEED)
    with pytest.raises(ValueError, match="1 to 20"):
        tick_persistent(c, BLEED, 3, 21, CORE)
    with pytest.raises(ValueError, match="no persistent"):
        tick_persistent(goblin(), BLEED, 3, 10, CORE)
