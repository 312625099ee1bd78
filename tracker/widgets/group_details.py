"""The combatant pane for a collapsed group (issue 11): one line per member
(the turn, the mark, the name, HP and conditions), so the GM sees the horde
without expanding it.  A member's conditions fit the line as the
initiative pane's conditions column fits them (``frig…2·3``, ``…+2``):
never cut at the pane's edge, where ``frightened 2…`` hid the rounds left
that tell one member from the next."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from rules.text import possessive, visible
from tracker.widgets.badges import combatant_badges, fit_badges
from tracker.widgets.initiative_rows import ACTIVE_MARKER, fit_name, hp_text

if TYPE_CHECKING:
    from rules.combatant import Combatant

#: the member names' column: at most this many cells, the rest for HP and conditions
NAME_MAX = 16


def hp_words(c: Combatant) -> str:
    """``8/14``, ``3/9 ½`` or ``down``, with ``+N`` temp HP (the pane's text)."""
    return "".join(hp_text(c)).lstrip()


def describe_group(
    members: Sequence[Combatant],
    active: str | None,
    marked: Collection[str],
    width: int | None = None,
) -> RenderableType:
    """*members* in *width* cells (names cut in the middle: ``Zombie 11`` keeps its number)."""
    first = members[0]
    up = sum(1 for c in members if not c.down)
    head = Text(visible(first.group or ""), "bold")
    head.append(f"  group of {len(members)}, {up} standing", "italic")
    lines: list[Text] = [head]
    acting = next((c for c in members if c.name == active), None)
    if acting is not None:  # in view even when the list below is not
        lines.append(Text(f"{ACTIVE_MARKER} {possessive(visible(acting.name))} turn", "bold"))
    als = sorted({c.al for c in members})
    lines.append(Text(f"AL {als[0]}" if len(als) == 1 else f"AL {als[0]}–{als[-1]}"))
    longest = max(cell_len(visible(c.name)) for c in members)
    name_width = min(NAME_MAX, longest)
    if width is not None:
        name_width = max(4, min(name_width, width - 3 - 1 - 6))
    for c in members:
        line = Text()
        line.append(ACTIVE_MARKER if c.name == active else " ", "bold")
        line.append("● " if c.name in marked else "  ")
        name = fit_name(visible(c.name), name_width)
        line.append(name + " " * (name_width - cell_len(name)), "bold" if c.name == active else "")
        line.append(" " + hp_words(c), "italic" if c.down else "")
        badges = combatant_badges(c)
        if badges:  # as the conditions column: whole, else each one's start, else …+N
            room = None if width is None else width - line.cell_len - 1
            fitted = fit_badges(badges, room) if room is None or room > 0 else Text()
            line.append(" " + fitted.plain, "dim")
        if width is not None:
            line.truncate(width, overflow="ellipsis")
        lines.append(line)
    lines.append(Text("o expands the group; keys act on its standing members", "dim italic"))
    return Group(*lines)
