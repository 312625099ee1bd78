"""The combatant pane: everything about the selected combatant, AL with how
its bonuses stacked (RULES.md §9), abilities (§4), defenses (§5), conditions
(§10), persistent damage (§7) and endurance (§8).  It only formats (every
number comes from the rules core) and redraws only for a different object."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import partial

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip

from rules.abilities import modifier
from rules.bonuses import effective_al
from rules.combatant import Combatant
from rules.durations import Duration
from rules.rulesets import Ruleset
from rules.text import possessive, visible
from tracker.defenses import defense_parts
from tracker.lines import ABILITY_FIELDS
from tracker.widgets.plain import plain
from tracker.widgets.steady import SteadyScrollView, safe_strip, text_segments


def _duration(d: Duration | None, owner: str) -> str:
    if d is None:
        return ""
    whose = d.of or owner
    return f"{d.rounds_left} rnd, {d.tick} of {possessive(whose)} turn"


def _al(c: Combatant, ruleset: Ruleset) -> str:
    """Effective AL and how the bonuses stacked (§9), e.g. ``15 = 12 base +2 dodge …``."""
    value, text = effective_al(c, ruleset)
    if not c.bonuses:
        return str(value)
    _, _, explained = text.partition(" = ")
    return f"{value} = {explained}" if explained else str(value)


def _modifier(score: int) -> str:
    return f"{modifier(score):+d}"


class _Rows:
    """Label / value rows (a Rich renderable), each value wrapped to the room
    left: a two-column ``Table.grid``, cheaper, since it is on the first frame."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, Text]] = []

    def add_row(self, label: str, value: str | Text) -> None:
        """*value*: plain text (names, tags, notes), shown made visible."""
        self.rows.append((label, Text(visible(value)) if isinstance(value, str) else value))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.rows:
            return
        label_width = max(len(label) for label, _ in self.rows)
        room = max(1, options.max_width - label_width - 1)
        bold, new_line = Style(bold=True), Segment.line()
        indent = Segment(" " * (label_width + 1), bold)
        for label, value in self.rows:
            base = console.get_style(value.style) if value.style else None
            for n, line in enumerate(value.wrap(console, room)):
                yield Segment(label.ljust(label_width + 1), bold) if n == 0 else indent
                yield from text_segments(line, console)
                yield Segment(" " * (room - line.cell_len), base)  # the cell's width, as a grid's
                yield new_line


def pack(items: list[str], width: int | None, gap: str = "  ") -> list[str]:
    """*items* on lines of at most *width* cells (two per line when it is not known)."""
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
    """Every detail of *c* (*width*: the pane's, so lists wrap between items)."""
    head = Text(visible(c.name), "bold")
    if c.player:
        head.append("  player", "italic")
    if c.down:
        head.append("  DOWN", "bold reverse")
    if delayed:
        head.append("  delayed", "italic")
    grid = _Rows()
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
            for name in ABILITY_FIELDS
            if name in c.abilities
        ]
        grid.add_row("Abil", Text("\n".join(pack(scores, room))))
    if c.athletics is not None:
        grid.add_row("Athl", f"{c.athletics:+d}")
    defenses = defense_parts(c.defenses, ruleset)
    if defenses:
        grid.add_row("Def", Text("\n".join(defenses)))
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


class AtWidth:
    """What *describe* draws at the width it is rendered at, so lists wrap at the pane's."""

    def __init__(self, describe: Callable[[int], RenderableType]) -> None:
        self._describe = describe
        self._cache: tuple[int, RenderableType] | None = None

    def at(self, width: int) -> RenderableType:
        if self._cache is None or self._cache[0] != width:
            self._cache = (width, self._describe(width))
        return self._cache[1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.at(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.at(options.max_width))


class CombatantPane(SteadyScrollView):
    """One combatant (or a hint), rendered at the pane's width, scrolled with ``[`` / ``]``."""

    DEFAULT_CSS = """
    CombatantPane {
        overflow-x: hidden;
        overflow-y: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._body: RenderableType = Text()
        self._lines: list[Strip] = []
        self._width = 0
        self._shown: tuple[object, ...] | None = None
        self._title: str | None = None

    def show(self, c: Combatant | None, ruleset: Ruleset, delayed: bool = False) -> bool:
        """Show *c*; returns False when it was already shown (nothing redrawn)."""
        shown = self._shown
        if shown is not None and len(shown) == 2 and shown[0] is c and shown[1] == delayed:
            return False
        self._shown = (c, delayed)
        if c is None:
            title = "Combatant"
            self._body = Text.styled("No combatant selected.\nPress a to add one.", "italic")
        else:
            title, self._body = c.name, AtWidth(partial(describe, c, ruleset, delayed))
        return self._show_body(title)

    def show_group(
        self, members: Sequence[Combatant], active: str | None, marked: Collection[str]
    ) -> bool:
        """Show a collapsed group's members; False when already shown."""
        marks = frozenset(c.name for c in members if c.name in marked)
        key = (tuple(members), active if any(c.name == active for c in members) else None, marks)
        if self._shown == key:
            return False
        self._shown = key
        from tracker.widgets.group_details import describe_group

        self._body = AtWidth(partial(describe_group, members, key[1], marks))
        return self._show_body(f"{members[0].group} ×{len(members)}")

    def _show_body(self, title: str) -> bool:
        if title != self._title:
            self._title = title
            self.set_titles(plain(title), plain(""))  # repaints its border row alone
        if self._width:
            self._render_body()
        return True

    @property
    def text(self) -> str:
        """The lines shown (all of them, scrolled or not), as plain text."""
        return "\n".join(line.text.rstrip() for line in self._lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Render the description once the pane knows its width, and on a new one."""
        width = self.scrollable_content_region.width
        if width > 0 and width != self._width:
            self._width = width
            self._render_body()
        return super().render_lines(crop)

    def _render_body(self) -> None:
        console = self.app.console
        options = console.options.update_width(self._width)
        old = self._lines
        self._lines = [
            safe_strip(Strip(line), self._width)
            for line in console.render_lines(self._body, options, pad=True)
        ]
        if old and self.scroll_offset.y == 0:
            # another combatant (the turn moved on): most rows (labels,
            # blank lines) read the same, so only the changed ones repaint
            if len(old) != len(self._lines):
                self._set_line_count(len(self._lines))
            for y in range(max(len(old), len(self._lines))):
                before = old[y] if y < len(old) else None
                after = self._lines[y] if y < len(self._lines) else None
                if before is None or after is None or list(before) != list(after):
                    self.refresh_line(y)
            return
        self._set_line_count(len(self._lines))
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if 0 <= index < len(self._lines):
            return self._lines[index].apply_style(self.pane_style)
        return Strip.blank(width, self.pane_style)
