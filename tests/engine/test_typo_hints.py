"""The commonest typos in the action language get one line saying what was
wrong and, where one is close, what the GM meant: an unknown verb
(``damgae``, ``hit``), an unknown keyword (``armor``, ``crtl``), an
unknown name (``Zalk``) and a partial name with spaces typed unquoted
(``heal Brother Tom 5``).  A refused line changes nothing: not the fight,
not the log, not the dice to come."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.errors import ActionError
from rules.text import first_unsafe


def fight() -> Session:
    s = Session(Encounter("Crypt"), rng=random.Random(11))
    for line in (
        "add Zalek hp 38 al 15 init 19 player",
        "add 'Brother Tomas' hp 20 al 12 init 12 player",
        "add Goblin count 3 hp 7 al 13",
        "add Ogre hp 59 al 14 init 2",
        "add Zombie count 4 hp 10 group Zombies",
        "start",
        "damage 'Brother Tomas' 6",
    ):
        s.apply(line)
    return s


def refused(s: Session, line: str) -> str:
    """The message *line* is refused with; nothing changed."""
    before = (s.encounter, list(s.log), s.seq, s.rng.getstate())
    with pytest.raises(ActionError) as caught:
        s.apply(line)
    assert (s.encounter, list(s.log), s.seq, s.rng.getstate()) == before
    message = str(caught.value)
    assert "\n" not in message
    return message


def usage_cut(message: str) -> str:
    """*message* without the verb's usage the parser appends."""
    return message.split("  (usage: ")[0]


# -- verbs -----------------------------------------------------------------------


def test_a_misspelled_verb_is_named_with_the_verb_meant() -> None:
    assert refused(fight(), "damgae Ogre 5") == "unknown verb 'damgae'; did you mean damage?"


def test_hit_says_which_two_verbs_it_may_mean_and_never_hide() -> None:
    # the old prefix hint offered "hide" for "hit": a verb that hides the
    # combatant from the players, nothing to do with a hit
    assert refused(fight(), "hit Ogre 3") == "unknown verb 'hit'; did you mean damage or attack?"


def test_a_word_like_no_verb_lists_the_verbs_without_a_guess() -> None:
    message = refused(fight(), "frobnicate Ogre")
    assert "did you mean" not in message
    assert message.startswith("unknown verb 'frobnicate'; verbs: add, remove,")


def test_dmg_is_damage() -> None:
    typed, spelled = fight(), fight()
    step = typed.apply("dmg Ogre 2d6+1 fire")
    spelled.apply("damage Ogre 2d6+1 fire")
    assert step.action["verb"] == "damage"
    assert typed.encounter == spelled.encounter
    assert [e.text for e in typed.log] == [e.text for e in spelled.log]


# -- keywords --------------------------------------------------------------------


def test_another_games_armor_is_answered_with_al() -> None:
    message = refused(fight(), "add Orc hp 10 armor 15")
    assert usage_cut(message) == "add: unexpected 'armor'; did you mean al?"
    assert (
        usage_cut(refused(fight(), "add Orc armor 15"))
        == "add: unexpected 'armor'; did you mean al?"
    )
    assert refused(fight(), "set Ogre ac 15") == "set: unknown field 'ac'; did you mean al?"


def test_a_misspelled_keyword_is_named_with_the_keyword_meant() -> None:
    s = fight()
    assert usage_cut(refused(s, "cond Ogre prone rond 2")) == (
        "cond: unexpected 'rond'; did you mean rounds?"
    )
    assert (
        usage_cut(refused(s, "attack Ogre wiht 5"))
        == "attack: unexpected 'wiht'; did you mean with?"
    )


def test_a_bare_condition_value_is_answered_with_the_value_keyword() -> None:
    # the c prompt takes "frightened 2"; a GM who then types the same on the
    # ':' line was told only "unexpected '2'"
    s = fight()
    assert usage_cut(refused(s, "cond Ogre frightened 2 rounds 1")) == (
        "cond: unexpected '2'; did you mean value 2?"
    )
    s.apply("cond Ogre frightened value 2 rounds 1")
    ogre = next(c for c in s.encounter.combatants if c.name == "Ogre")
    assert [(x.name, x.value) for x in ogre.conditions] == [("frightened", 2)]


def test_crtl_is_refused_not_dealt_as_a_plain_hit_tagged_crtl() -> None:
    # any word after the amount is a damage tag: "crtl" used to deal the
    # damage uncritical with a warning about an unknown tag
    s = fight()
    assert usage_cut(refused(s, "damage Ogre 5 crtl")) == (
        "damage: unexpected 'crtl'; did you mean crit?"
    )
    assert usage_cut(refused(s, "damage Ogre,Zalek 10 fire nonee Zalek")) == (
        "damage: unexpected 'nonee'; did you mean none?"
    )


def test_a_tag_the_fight_defends_against_is_never_taken_for_a_keyword() -> None:
    # "hail" is as near "half" as "crtl" is to "crit", but an Ogre here
    # resists hail: the GM means the tag, and refusing it left no way at
    # all to deal hail damage to the Ogre, or wither damage with an attack
    assert usage_cut(refused(fight(), "damage Ogre 5 hail")) == (
        "damage: unexpected 'hail'; did you mean half?"
    )  # where nobody resists it, still a likely typo
    s = fight()
    s.apply("set Ogre resistances hail=3,wither=2")
    s.apply("damage Ogre 5 hail")
    assert s.log[-1].text == "Ogre takes 5 hail → resist ½ = 2 (2 HP lost, 57/59 left)"
    s.apply("attack Ogre roll 20 damage 4 wither")
    assert s.log[-1].text.startswith("Ogre takes 8 wither → resist ½ = 4")
    # a likely typo of a keyword is refused as before, a missed attack too
    assert usage_cut(refused(s, "damage Ogre 5 hail crtl")) == (
        "damage: unexpected 'crtl'; did you mean crit?"
    )
    assert usage_cut(refused(s, "attack Ogre roll 1 damage 2d6 wither rolled")) == (
        "attack: unexpected 'rolled'; did you mean roll?"
    )


def test_a_tag_merely_like_a_keyword_is_still_a_tag() -> None:
    # conservative: not one letter from a keyword with the same first letter
    s = fight()
    s.apply("damage Ogre 5 bone")  # bone is no "none"
    s.apply("damage Ogre 5 holy")  # half by its first letter, but only half alike
    ogre = next(c for c in s.encounter.combatants if c.name == "Ogre")
    assert ogre.hp == 49


# -- names -----------------------------------------------------------------------


def test_a_misspelled_name_is_answered_with_the_combatant() -> None:
    s = fight()
    assert refused(s, "damage Zalk 5") == 'no combatant named "Zalk"; did you mean "Zalek"?'
    assert refused(s, "damage Ogre 5 half Zalk") == (
        'no combatant named "Zalk"; did you mean "Zalek"?'
    )


def test_a_misspelled_group_is_answered_with_the_group() -> None:
    assert refused(fight(), "damage Zombis 3") == (
        'no combatant named "Zombis"; did you mean "Zombies"?'
    )


def test_a_name_as_near_two_combatants_gets_no_guess() -> None:
    message = refused(fight(), "damage 'Goblin 7' 3")
    assert "did you mean" not in message
    assert message.startswith('no combatant named "Goblin 7" (combatants: Zalek,')


def test_a_suggested_name_is_plain_text_with_its_control_characters_spelled_out() -> None:
    s = fight()
    ogre = next(c for c in s.encounter.combatants if c.name == "Ogre")
    planted = replace(ogre, name="Ogre\x1b[2J")  # from a hand-edited file
    s.encounter = replace(
        s.encounter,
        combatants=tuple(planted if c is ogre else c for c in s.encounter.combatants),
    )
    message = refused(s, "damage Ogrre 5")
    assert message == 'no combatant named "Ogrre"; did you mean "Ogre\\x1b[2J"?'
    assert first_unsafe(message) < 0


# -- a partial name with spaces --------------------------------------------------


def test_a_partial_name_with_spaces_is_told_to_go_in_quotes() -> None:
    s = fight()
    message = refused(s, "heal Brother Tom 5")
    assert usage_cut(message) == (
        "heal: unexpected 'Tom'; a name with spaces goes in quotes (heal \"Brother Tom\" 5)"
    )
    s.apply('heal "Brother Tom" 5')  # what the hint says to type works
    assert next(c for c in s.encounter.combatants if c.name == "Brother Tomas").hp == 19


def test_a_mistyped_last_word_of_a_name_with_spaces_is_named_with_the_name_meant() -> None:
    # quoting "Brother" would leave "Tmoas" where the amount goes: the hint
    # names the whole name the words misspell, and what it says to type works
    s = fight()
    message = refused(s, "heal Brother Tmoas 5")
    assert message == 'no combatant named "Brother Tmoas"; did you mean "Brother Tomas"?'
    assert refused(s, "damage Zalek,Brother Tmoas 5").startswith("damage amount: ")  # not guessed
    s.apply("heal Brother Tomas 5")
    assert next(c for c in s.encounter.combatants if c.name == "Brother Tomas").hp == 19
    # three words: quoting the two that begin the name would not read either
    s.apply("add 'Grukk the Warchief' hp 60 al 16")
    message = refused(s, "damage Grukk the Warchif 5")
    assert message == 'no combatant named "Grukk the Warchif"; did you mean "Grukk the Warchief"?'


def test_the_quotes_hint_only_when_the_words_begin_a_name() -> None:
    # "Zalek fire" begins no name: the GM forgot the amount
    assert refused(fight(), "heal Zalek fire").startswith('heal amount: "f"')


# -- any garbled line ------------------------------------------------------------

LINES = [
    "damage Zalek 2d6+3 fire crit",
    "heal 'Brother Tomas' 5",
    "add Orc count 2 hp 2d8 al 13 init 3",
    "cond Ogre frightened value 2 rounds 3",
    "attack Ogre with +5 cover half damage 1d8 slashing",
    "damage Zombies 8d6 fire half 'Zombie 2' none Ogre",
    "move Zalek sprint roll 12",
]

#: an edit a GM's fingers make: a character dropped, doubled, swapped with
#: the next, or one typed in (control and bidi characters among them)
EDIT = st.tuples(
    st.sampled_from(["drop", "double", "swap", "insert"]),
    st.integers(0, 200),
    st.sampled_from([*"abcdeioprstz ,'\";+-0123456789", "\x1b", "\u202e", "\x00", "\t", "é"]),
)


def garble(line: str, edits: list[tuple[str, int, str]]) -> str:
    for kind, at, ch in edits:
        i = at % (len(line) or 1)
        if kind == "drop":
            line = line[:i] + line[i + 1 :]
        elif kind == "double":
            line = line[: i + 1] + line[i:]
        elif kind == "swap" and i + 1 < len(line):
            line = line[:i] + line[i + 1] + line[i] + line[i + 2 :]
        else:
            line = line[:i] + ch + line[i:]
    return line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LINES), st.lists(EDIT, min_size=1, max_size=4))
def test_a_garbled_line_is_applied_or_one_plain_action_error(
    line: str, edits: list[tuple[str, int, str]]
) -> None:
    s = fight()
    garbled = garble(line, edits)
    before = (s.encounter, list(s.log), s.seq)
    try:
        s.apply(garbled)
    except ActionError as exc:
        message = str(exc)
        assert message and "\n" not in message
        assert first_unsafe(message) < 0, repr(message)
        assert (s.encounter, list(s.log), s.seq) == before


def test_dmg_is_completed_as_damage() -> None:
    from rules.engine.complete import complete, known_in

    s = fight()
    assert complete("dmg Zal", known=known_in(s.encounter)) == "dmg Zalek"
    assert complete("dmg Ogre 5 cr", known=known_in(s.encounter)) == "dmg Ogre 5 crit"
