"""A refused line quotes at most a short excerpt of what was typed: any
word of any verb's line replaced by a word of thousands of characters (a
pasted paragraph, a number of twenty thousand digits, dice of a huge die,
escape sequences) gets one message a GM can read, never the word whole
(an action line may be ``rules.limits.MAX_LINE`` characters long, and the
``:`` line shows the message as it is), and never a control character."""

from __future__ import annotations

import random

import pytest

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.shell import quote_word
from rules.errors import ActionError
from rules.text import first_unsafe

#: one line of every verb, each word of which is replaced in turn
LINES = [
    "add Imp count 2 hp 2d6 al 12 init 3 bonus 2 dex 12 athletics 3 immune fire "
    "resist cold=5 weak acid susceptible poison notes hi group Imps hidden",
    "remove Goblin",
    "init Goblin 10",
    "order Goblin up",
    "set Goblin hp 5",
    "set Goblin resistances fire=5",
    "damage Goblin 5 fire crit half Ogre none Mira",
    "damage Goblin 1d8+4 slashing + 2d6 fire",
    "heal Goblin 5",
    "temp Goblin 5 rounds 2 at end of Ogre",
    "persist Goblin 1d6 fire dc 15",
    "unpersist Ogre fire",
    "cond Goblin frightened value 2 rounds 3 at start of Ogre",
    "uncond Ogre prone",
    "move Mira dash roll 5 nospend",
    "bonus Goblin morale 1 to al rounds 2 at end of Ogre",
    "unbonus Ogre morale",
    "attack Goblin with +5 adv 1 dis 1 cover half roll 12 damage 2d6 fire",
    "delay Goblin",
    "group Horde Goblin",
    "ungroup Zombies",
    "hide Goblin",
    "view monster_hp exact",
    "view show_al on",
    "roll 1d20+5 adv 1 dis 1 dc 15",
    "roll 1d20 dl hard",
    "luck Mira roll 5",
    "cinematic Mira adv",
    "damage Goblin 5 faces 3",
]

#: words of 20,000 characters and more, each a shape some field reads
LONG_WORDS = {
    "a name's start": "Goblin" + "x" * 20_000,
    "digits": "9" * 20_000,
    "a huge die": "1d" + "6" * 20_000,
    "a selector": "G" * 20_000 + "*",
    "a quoted paragraph": quote_word("ab " * 7_000),
    "escape sequences": quote_word("\x1b[2J" * 5_000),
}

#: a message as long as the longest a GM gets for an ordinary line (a
#: verb's usage, a batch part, a dozen names of a group)
LONGEST = 1_500


def fight() -> Session:
    session = Session(Encounter("Crypt"), rng=random.Random(7))
    for line in (
        "add Goblin count 3 hp 10 al 12",
        "add Ogre hp 50 al 11 resist fire=5",
        "add Mira hp 30 player dex 12 con 14 athletics 3",
        "add Zombie count 3 hp 10 group Zombies",
        "persist Ogre 1d6 fire",
        "cond Ogre prone",
        "bonus Ogre morale 1",
        "start",
    ):
        session.apply(line)
    return session


@pytest.mark.parametrize("line", LINES)
def test_a_long_word_anywhere_is_quoted_short_and_plain(line: str) -> None:
    session = fight()
    words = line.split()
    for at in range(len(words)):
        for shape, word in LONG_WORDS.items():
            typed = " ".join([*words[:at], word, *words[at + 1 :]])
            try:
                step = session.apply(typed)
            except ActionError as exc:
                message = str(exc)
                where = f"{line!r}, word {at} as {shape}: {message[:120]!r}"
                assert len(message) <= LONGEST, where
                assert first_unsafe(message) == -1, where
            else:
                if step.kind == "do":
                    session.undo()


def test_total_cover_on_a_horde_names_a_few_and_how_many() -> None:
    session = Session(Encounter("Crypt"), rng=random.Random(7))
    session.apply(f"add {quote_word('Zombie of the Sunken Crypt' + 'x' * 20)} count 100 hp 10")
    with pytest.raises(
        ActionError, match=r"x 1–100 cannot be targeted \(total cover\)$"
    ) as refused:
        session.apply("attack all cover total")
    assert len(str(refused.value)) <= LONGEST
