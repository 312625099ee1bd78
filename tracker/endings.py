"""The keys that end something the targets carry: ``C`` picks one of their
conditions (RULES.md §10), ``X`` one of their persistent damage entries
(§7: the GM ends an entry at any time, someone stopped the bleeding).  Both
offer what the targets have, each once, and end the choice on every target
that carries it, one undoable step (``unpersist 'Goblin 1,Ogre' bleed``):
only on those, as a target without it would refuse the whole line."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from tracker.lines import ending_line

if TYPE_CHECKING:
    from rules.combatant import Combatant


class Ending(NamedTuple):
    """What one such key ends, and how it says so."""

    #: the action word that ends one (``uncond T NAME``, ``unpersist T TAG``)
    verb: str
    #: the choice's title, before the targets' names
    title: str
    #: why the key is greyed: the targets carry none
    nothing: str
    #: what a combatant carries: (the choice as the GM reads it, the word the verb takes)
    carried: Callable[[Combatant], Iterator[tuple[str, str]]]


def _conditions(c: Combatant) -> Iterator[tuple[str, str]]:
    for condition in c.conditions:
        yield condition.name, condition.name


def _persistent(c: Combatant) -> Iterator[tuple[str, str]]:
    from rules.persistent import describe, ending_tag

    # as the log names it: "1d6 bleed (DC 20, from Ogre)"; the same entry
    # given to several targets (one ``persist`` on the marks) is one choice
    for entry in c.persistent:
        yield describe(entry), ending_tag(entry)


#: key action → what it ends
ENDINGS = {
    "uncondition": Ending("uncond", "Remove condition", "no conditions to remove", _conditions),
    "unpersist": Ending(
        "unpersist", "End persistent damage", "no persistent damage to end", _persistent
    ),
}


def choices(action: str, chosen: Sequence[Combatant]) -> list[str]:
    """What key *action* offers on *chosen*: each thing one of them carries,
    once, in the order the combatant pane lists them (each combatant's own
    order, the first of *chosen* first), so the GM's ``1`` ends the first
    one they read there, not the first by name."""
    carried = ENDINGS[action].carried
    return list(dict.fromkeys(label for c in chosen for label, _ in carried(c)))


def end_line(action: str, chosen: Sequence[Combatant], choice: str) -> str:
    """End *choice* on each of *chosen* that carries it, one batch ('' for
    nobody): one action on all who carry it by the same word (a horde of a
    hundred in one line, not a hundred actions past the line's length)."""
    ending = ENDINGS[action]
    ends: dict[str, list[str]] = {}
    for c in chosen:
        word = next((w for label, w in ending.carried(c) if label == choice), None)
        if word is not None:
            ends.setdefault(word, []).append(c.name)
    return ending_line(ending.verb, [(names, word) for word, names in ends.items()])
