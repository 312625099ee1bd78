"""The initiative pane's conditions column, without Textual: a combatant's
conditions and persistent damage as badges (``poisoned 2·3r``: value 2,
3 rounds left; ``~fire 1d6``), and a collapsed group's as what its standing members carry
(``~necrotic``: every one of them; ``frightened 1 ×3``: three).

A badge is shown whole, or shortened to its start (``pois…2·3r``,
``~necr…``) when the whole ones do not fit; what still does not fit is
counted, ``…+2``, in this column, never a bare ``+2`` that reads as the
temp HP beside the HP.  A GM reads a badge's start or its count, never a
fragment cut at the column's edge."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text

from rules.text import visible

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.conditions import Condition
    from rules.persistent import PersistentDamage

#: The cells a shortened word keeps before its ``…`` (a word this long plus
#: one is shown whole: ``prone`` is no longer than ``pron…``).
SHORT = 4
#: How the badges that do not fit are counted (bold: not a badge of its own).
MORE = "…+{}"
#: How a condition's rounds left follow it (``frightened·2r``): the ``r``
#: tells them from a value (``frightened 2``) in one cell.
ROUNDS = "·{}r"
#: A condition's look, and persistent damage's tag and dice.
CONDITION_STYLE, PERSISTENT_STYLE, DICE_STYLE = "reverse", "bold italic", "italic"


class Badge(NamedTuple):
    """One condition or persistent damage, whole and shortened."""

    full: Text
    short: Text


def head_cells(text: str, width: int) -> str:
    """The longest start of *text* in *width* cells (a wide character is left out whole)."""
    used = 0
    for i, ch in enumerate(text):
        used += get_character_cell_size(ch)
        if used > width:
            return text[:i]
    return text


def shortened(word: str) -> str:
    """*word* whole when it is at most ``SHORT + 1`` cells, else its start and ``…``."""
    if cell_len(word) <= SHORT + 1:
        return word
    return head_cells(word, SHORT) + "…"


def condition_badge(cond: Condition) -> Badge:
    """``poisoned 2·3r`` (name, value, rounds left) and ``pois…2·3r``; the
    name is made visible (a control character is spelled out, never sent)."""
    name = visible(cond.name)
    short = shortened(name)
    rounds = "" if cond.rounds_left is None else ROUNDS.format(cond.rounds_left)
    if cond.value is None:
        return Badge(Text(name + rounds, CONDITION_STYLE), Text(short + rounds, CONDITION_STYLE))
    # a cut name's ``…`` already parts it from the value: ``pois…2``
    gap = "" if short != name else " "
    return Badge(
        Text(f"{name} {cond.value}{rounds}", CONDITION_STYLE),
        Text(f"{short}{gap}{cond.value}{rounds}", CONDITION_STYLE),
    )


def persistent_badge(entry: PersistentDamage) -> Badge:
    """``~fire 1d6`` (its tags, then its dice) and ``~fire``."""
    tag = visible("/".join(entry.tags)) or "pers"
    full = Text(f"~{tag}", PERSISTENT_STYLE)
    full.append(f" {visible(str(entry.dice))}", DICE_STYLE)
    return Badge(full, Text(f"~{shortened(tag)}", PERSISTENT_STYLE))


def combatant_badges(c: Combatant) -> list[Badge]:
    """A badge per condition, then per persistent damage, in *c*'s order."""
    return [
        *(condition_badge(cond) for cond in c.conditions),
        *(persistent_badge(entry) for entry in c.persistent),
    ]


def group_badges(members: Iterable[Combatant]) -> list[Badge]:
    """What a collapsed group's standing members carry (the row acts on
    them; a down member's bleeding is not the horde's): a badge every one
    of them has is shown as on one combatant's row, one only some have ends
    with how many (``frightened 1 ×3``).  The most carried first (what the
    whole group has leads), conditions before persistent damage among
    equals as on one row, then as met."""
    standing = [c for c in members if not c.down]
    found: dict[tuple[object, ...], tuple[int, int, Badge]] = {}
    for c in standing:
        keys: dict[tuple[object, ...], Badge] = {}
        for cond in c.conditions:
            keys[("c", cond.name, cond.value, cond.rounds_left)] = condition_badge(cond)
        for entry in c.persistent:
            keys[("p", entry.tags, entry.dice)] = persistent_badge(entry)
        for key, badge in keys.items():  # a member counts once per badge
            kind = 0 if key[0] == "c" else 1
            seen = found.get(key)
            found[key] = (kind, 1, badge) if seen is None else (kind, seen[1] + 1, seen[2])
    ordered = sorted(found.values(), key=lambda kept: (-kept[1], kept[0]))  # stable: as met
    out = []
    for _, count, badge in ordered:
        if count < len(standing):
            badge = Badge(*(_counted(text, count) for text in badge))
        out.append(badge)
    return out


def _counted(text: Text, count: int) -> Text:
    """*text* then `` ×count`` in its own look (one badge, not two)."""
    counted = text.copy()
    counted.append(f" ×{count}", text.style)
    return counted


def _joined(items: Sequence[Text]) -> Text:
    """Each item after a space (the first parts it from the AL column)."""
    out = Text()
    for item in items:
        out.append(" ")
        out.append_text(item)
    return out


def whole_width(badges: Sequence[Badge]) -> int:
    """The cells *badges* take whole (:func:`fit_badges` without a width)."""
    return _joined([b.full for b in badges]).cell_len


def fit_badges(badges: Sequence[Badge], width: int | None = None) -> Text:
    """*badges* in *width* cells: every one whole, else every one shortened,
    else as many shortened as fit and ``…+N`` for the rest (a lone ``…``
    when not even the count fits); every one whole without *width*."""
    if not badges:
        return Text()
    whole = _joined([b.full for b in badges])
    if width is None or whole.cell_len <= width:
        return whole
    short = [b.short for b in badges]
    text = _joined(short)
    if text.cell_len <= width:
        return text
    for shown in range(len(short) - 1, -1, -1):
        text = _joined(short[:shown])
        text.append(" " + MORE.format(len(short) - shown), "bold")
        if text.cell_len <= width:
            return text
    return Text(" …", "bold") if width >= 2 else Text()
