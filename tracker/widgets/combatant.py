"""The combatant pane: everything about the selected combatant.

HP / max / temp, AL with how its bonuses stacked (RULES.md §9, via
``rules.bonuses.effective_al``), abilities and modifiers (§4, via
``rules.abilities.modifier``), defenses (§5), conditions and durations (§10),
persistent damage with its DC (§7), endurance (§8) and notes.  The pane only
formats: every number comes from the rules core.  It redraws only when the
selected combatant (a frozen value) is a different object.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from rules.abilities import modifier
from rules.bonuses import effective_al
from rules.combatant import Combatant
from rules.durations import Duration
from rules.rulesets import Ruleset

ABILITY_ORDER = ("dex", "per", "str", "con", "int", "wis", "cha", "luck")


def _duration(d: Duration | None, owner: str) -> str:
    if d is None:
        return ""
    whose = d.of or owner
    return f"{d.rounds_left} rnd, {d.tick} of {whose}'s turn"


def _al(c: Combatant, ruleset: Ruleset) -> str:
    """Effective AL and how the bonuses stacked (§9), e.g. ``15 = 12 base +2 dodge …``."""
    value, text = effective_al(c, ruleset)
    if not c.bonuses:
        return str(value)
    _, _, explained = text.partition(" = ")
    return f"{value} = {explained}" if explained else str(value)


def _modifier(score: int) -> str:
    return f"{modifier(score):+d}"


class _Grid(Table):
    """A two-column grid whose cells are plain text (never Rich markup)."""

    def add_row(self, *cells: Any, **kw: Any) -> None:  # type: ignore[override]
        super().add_row(*(Text(c) if isinstance(c, str) else c for c in cells), **kw)


def pack(items: list[str], width: int | None, gap: str = "  ") -> list[str]:
    """*items* on lines at most *width* cells wide, breaking only between
    items (``DEX 14 (+2)`` never splits); two per line when the width is
    not known."""
    lines: list[str] = []
    for n, item in enumerate(items):
        if lines and (
            len(lines[-1]) + len(gap) + len(item) <= width if width is not None else n % 2 == 1
        ):
            lines[-1] += gap + item
        else:
            lines.append(item)
    return lines


def describe(
    c: Combatant, ruleset: Ruleset, delayed: bool = False, width: int | None = None
) -> RenderableType:
    """A Rich renderable with every detail of *c* (*width*: the pane's, so
    lists wrap between items)."""
    head = Text(c.name, "bold")
    if c.player:
        head.append("  player", "italic")
    if c.down:
        head.append("  DOWN", "bold reverse")
    if delayed:
        head.append("  delayed", "italic")
    grid = _Grid.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    hp = f"{c.hp} / {c.max_hp}"
    if c.temp_hp:
        hp += f"   temp {c.temp_hp}"
        if c.temp_hp_duration is not None:
            hp += f" ({_duration(c.temp_hp_duration, c.name)})"
    grid.add_row("HP", hp)
    grid.add_row("AL", _al(c, ruleset))
    init = "not rolled" if c.initiative is None else str(c.initiative)
    if c.init_bonus:
        init += f"  (bonus {c.init_bonus:+d})"
    grid.add_row("Init", init)
    # the value column: the width less the label (4) and the gap (1)
    room = None if width is None else width - 5
    if c.abilities:
        scores = [
            f"{name.upper()} {c.abilities[name]} ({_modifier(c.abilities[name])})"
            for name in ABILITY_ORDER
            if name in c.abilities
        ]
        grid.add_row("Abil", Text("\n".join(pack(scores, room))))
    if c.athletics is not None:
        grid.add_row("Athl", f"{c.athletics:+d}")
    d = c.defenses
    defenses = []
    if d.immunities:
        defenses.append("immune " + ", ".join(sorted(d.immunities)))
    if d.resistances:
        defenses.append("resist " + ", ".join(f"{k} {v}" for k, v in sorted(d.resistances.items())))
    if d.weaknesses:
        defenses.append("weak " + ", ".join(sorted(d.weaknesses)))
    if d.susceptibilities:
        defenses.append("susceptible " + ", ".join(sorted(d.susceptibilities)))
    if defenses:
        grid.add_row("Def", "; ".join(defenses))
    for cond in c.conditions:
        label = cond.name if cond.value is None else f"{cond.name} {cond.value}"
        until = _duration(cond.duration, c.name)
        grid.add_row("Cond", f"{label}" + (f"  — {until}" if until else ""))
    for entry in c.persistent:
        tags = " ".join(entry.tags)
        source = f", from {entry.source}" if entry.source else ""
        grid.add_row("Pers", f"{entry.dice} {tags}  DC {entry.dc}{source}")
    for bonus in c.bonuses:
        until = _duration(bonus.duration, c.name)
        grid.add_row(
            "Bon",
            f"{bonus.type} {bonus.value:+d} to {bonus.applies_to}"
            + (f"  — {until}" if until else ""),
        )
    e = c.endurance
    if e is not None:
        parts = [
            f"{e.points}/{e.max_points} pts",
            f"passive {e.passive}",
            f"check {e.check_bonus:+d}",
        ]
        parts += [f"{action} {left} rnd" for action, left in e.active.items()]
        if e.recovery_rounds_left is not None:
            left = e.recovery_rounds_left
            parts.append(f"recovers in {left} round{'' if left == 1 else 's'}")
        grid.add_row("End", Text("\n".join(pack(parts, room, " · "))))
    else:
        grid.add_row("End", Text("no CON + Athletics", "dim"))
    if c.luck_points is not None:
        grid.add_row("Luck", f"{c.luck_points} points")
    if c.notes:
        grid.add_row("Note", c.notes)
    return Group(head, grid)


class CombatantPane(VerticalScroll):
    """Shows one combatant; ``show(None)`` shows a hint instead."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._body = Static(id="combatant-body", markup=False)
        self._height: tuple[int, int] | None = None
        self._shown: tuple[Combatant | None, bool] | None = None
        self._ruleset: Ruleset | None = None
        self._width = 0

    def compose(self):  # type: ignore[no-untyped-def]
        yield self._body

    def show(self, c: Combatant | None, ruleset: Ruleset, delayed: bool = False) -> bool:
        """Show *c*; returns False when it was already shown (nothing redrawn)."""
        if self._shown is not None and self._shown[0] is c and self._shown[1] == delayed:
            return False
        self._shown = (c, delayed)
        self._ruleset = ruleset
        self._width = self._text_width()
        if c is None:
            title, body = "Combatant", Text("No combatant selected.\nPress a to add one.", "italic")
        else:
            title, body = c.name, describe(c, ruleset, delayed, self._text_width() or None)
        if self.border_title != title:
            self.border_title = title
        self._update(body)
        return True

    def _text_width(self) -> int:
        """The body's width, less the scrollbar's cell whether or not it shows
        (so lists wrap the same once the pane needs scrolling)."""
        return max(0, self.outer_size.width - 5)  # border 2, padding 2, scrollbar 1

    def on_resize(self) -> None:
        """Re-describe at the new width (lists wrap between their items)."""
        width = self._text_width()
        if width != self._width and self._shown is not None and self._ruleset is not None:
            c, delayed = self._shown
            self._shown = None
            self.show(c, self._ruleset, delayed)

    def _update(self, body: RenderableType) -> None:
        """Replace the body; re-layout only when its height changes (a
        layout pass costs the whole screen a reflow)."""
        width = self._body.content_region.width
        if not width:
            self._height = None
            self._body.update(body)
            return
        lines = self.app.console.render_lines(
            body, self.app.console.options.update_width(width), pad=False
        )
        key = (width, len(lines))
        self._body.update(body, layout=key != self._height)
        self._height = key
