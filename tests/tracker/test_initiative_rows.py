"""The initiative rows without an app: what a pane of each width keeps.

A GM reads HP at a glance, so the numbers (``38/38``, ``down``) are never
cut; a narrow pane gives up the HP bar, then the badges, AL and initiative
columns, and only then cuts names, in the middle, so ``Goblin Archer 3`` and
``Goblin Archer 12`` can still be told apart (issue 9).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from rules.combatant import Combatant
from rules.engine import Session
from tracker.widgets.badges import head_cells
from tracker.widgets.initiative_rows import (
    ACTIVE_MARKER,
    BADGES_FEW,
    BADGES_MIN,
    BLOODIED_MARKER,
    NAME_SQUEEZED,
    ON_DECK_MARKER,
    Content,
    Layout,
    RowState,
    bloodied,
    content_of,
    fit_cells,
    fit_name,
    header_labels,
    hp_cell,
    layout,
    name_cell,
    row_cells,
)

ROOT = Path(__file__).resolve().parents[2]
MARK, INIT, NAME, HP, AL, BADGES = range(6)


def crypt(session: Session) -> list[RowState]:
    """The crypt fight (the crypt_fight fixture), Goblin Archer 1 also prone
    and burning."""
    for line in (
        "cond 'Goblin Archer 1' prone",
        "persist 'Goblin Archer 1' 1d6 fire",
    ):
        session.apply(line)
    encounter = session.encounter
    return [
        RowState(c, i == encounter.turn, False, False) for i, c in enumerate(encounter.combatants)
    ]


def named(rows: list[RowState], name: str) -> RowState:
    return next(row for row in rows if row.combatant.name == name)


def line(row: RowState, lay: Layout) -> str:
    """The row as the pane draws it, in plain text: its cells fitted to the
    columns, cropped to the pane (a zero-width column's leftover goes)."""
    text = Text("").join(fit_cells(row_cells(row, lay=lay), lay))
    text.truncate(sum(lay.widths), pad=True)
    return text.plain


def cell_of(row: RowState, lay: Layout, column: int) -> str:
    return fit_cells(row_cells(row, lay=lay), lay)[column].plain


def test_importing_the_rows_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "import tracker.widgets.initiative_rows\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)


def test_content_is_the_widest_name_and_hp_text(crypt_fight: Callable[[], Session]) -> None:
    rows = crypt(crypt_fight())
    assert content_of(rows) == Content(len("Goblin Archer 12"), len(" 38/38"))
    delayed = [named(rows, "Zalek")._replace(delayed=True)]
    assert content_of(delayed).name == len("Zalek (delayed)")


# (pane width, HP bar cells, name column) for the crypt fight, compact names;
# every column shows at each of these widths
WIDTHS = [(200, 20, 14), (80, 10, 14), (60, 7, 14), (45, 4, 14), (40, 4, NAME_SQUEEZED)]


@pytest.mark.parametrize(("width", "bar", "name"), WIDTHS)
def test_the_columns_a_pane_keeps(
    width: int, bar: int, name: int, crypt_fight: Callable[[], Session]
) -> None:
    lay = layout(width, content_of(crypt(crypt_fight())), compact=True)
    assert sum(lay.widths) == width
    assert lay.bar == bar
    assert lay.widths[NAME] == name
    assert lay.widths[INIT] == 3 and lay.widths[AL] == 3
    assert lay.badges >= BADGES_MIN


def test_a_wide_pane_shows_long_names_whole_when_not_compact(
    crypt_fight: Callable[[], Session],
) -> None:
    content = content_of(crypt(crypt_fight()))
    assert layout(200, content, compact=False).widths[NAME] == 1 + len("Goblin Archer 12")
    assert layout(200, content, compact=True).widths[NAME] == 14
    assert layout(59, content, compact=True).bar == 4  # the short bar below 60 cells


def test_a_narrow_pane_gives_up_the_bar_then_badges_al_and_initiative(
    crypt_fight: Callable[[], Session],
) -> None:
    content = content_of(crypt(crypt_fight()))
    seen = [layout(w, content, compact=True) for w in range(60, 9, -1)]
    # each of these goes once and does not come back as the pane narrows
    for gone in (
        lambda lay: lay.bar == 0,
        lambda lay: lay.badges < BADGES_MIN,
        lambda lay: lay.badges == 0,
        lambda lay: lay.widths[AL] == 0,
        lambda lay: lay.widths[INIT] == 0,
    ):
        flags = [gone(lay) for lay in seen]
        first = flags.index(True)
        assert all(flags[first:]), flags
    at = {w: layout(w, content, compact=True) for w in (38, 30, 20, 19)}
    assert at[38].bar == 4 and at[38].badges == 10  # badges shrink before the bar goes
    assert at[30].bar == 0 and at[30].badges >= BADGES_FEW and at[30].widths[AL] == 3
    assert at[20].badges == 0 and at[20].widths[AL] == 0 and at[20].widths[INIT] == 3
    assert at[19].widths[INIT] == 0 and at[19].widths[HP] == len(" 38/38")


@pytest.mark.parametrize("width", [200, 80, 60, 45, 40, 30, 20, 12, 10])
def test_hp_is_never_cut_and_down_stays_whole(
    width: int, crypt_fight: Callable[[], Session]
) -> None:
    rows = crypt(crypt_fight())
    lay = layout(width, content_of(rows), compact=True)
    for row in rows:
        c = row.combatant
        text = line(row, lay)
        assert cell_len(text) == width
        hp = cell_of(row, lay, HP).rstrip()
        numbers = " down" if c.down else f" {c.hp}/{c.max_hp}"
        assert hp.endswith(numbers) and numbers in text, (width, text)
    assert any(" down" in line(row, lay) for row in rows)


@pytest.mark.parametrize("width", [200, 80, 60, 45, 40, 30, 20])
def test_the_goblins_can_be_told_apart_at_every_width(
    width: int, crypt_fight: Callable[[], Session]
) -> None:
    rows = crypt(crypt_fight())
    lay = layout(width, content_of(rows), compact=True)
    names = [cell_of(row, lay, NAME) for row in rows]
    assert len(set(names)) == len(names), names
    goblins = [n for n in names if n.strip().startswith("Gob")]
    assert len(goblins) == 12
    assert all(n.rstrip().split(" ")[-1].isdigit() for n in goblins), goblins


def test_a_row_shows_the_active_turn_and_the_badges(crypt_fight: Callable[[], Session]) -> None:
    rows = crypt(crypt_fight())
    lay = layout(80, content_of(rows), compact=True)
    archer = named(rows, "Goblin Archer 1")  # first in the order: the active turn
    assert archer.active and not named(rows, "Zalek").active
    assert cell_of(archer, lay, MARK) == "▶ "
    assert cell_of(named(rows, "Zalek"), lay, MARK) == "  "
    assert cell_of(named(rows, "Zalek"), lay, INIT) == " 19"
    assert cell_of(named(rows, "Zalek"), lay, NAME).rstrip() == " Zalek"
    # room for every badge whole at 80 cells; at 60 each shortened to its start
    assert cell_of(archer, lay, BADGES).rstrip() == " poisoned 2·3r prone ~fire 1d6"
    narrow = layout(60, content_of(rows), compact=True)
    assert cell_of(archer, narrow, BADGES).rstrip() == " pois…2·3r prone ~fire"
    # without a layout: every badge in full, the name whole
    full = row_cells(archer)
    assert full[NAME].plain == " Goblin Archer 1"
    assert full[BADGES].plain == " poisoned 2·3r prone ~fire 1d6"


def test_fit_name_keeps_the_number_of_a_group() -> None:
    assert fit_name("Goblin Archer 12", 16) == "Goblin Archer 12"  # fits: whole
    assert fit_name("Goblin Archer 12", 9) == "Gobli… 12"
    assert fit_name("Goblin Archer 12", 5) == "G… 12"  # the number before the head
    assert fit_name("Goblin Archer 12", 4) == "Gob…"  # no room for " 12" and a letter
    assert fit_name("Goblin Archer B", 9) == "Goblin… B"
    assert fit_name("Goblin Archer", 9) == "Goblin A…"  # a long last word is not kept
    assert fit_name("Goblin ambush at the old mill", 26) == "Goblin ambush at the old…"
    assert fit_name("Ogre", 1) == "…" and fit_name("Ogre", 0) == ""
    assert fit_name("漢字漢字漢字", 5) == "漢字…"  # cells, not characters
    for width in range(7, 17):
        cut = {fit_name(f"Goblin Archer {n}", width) for n in range(1, 13)}
        assert len(cut) == 12, width
        assert all(cell_len(name) <= width for name in cut)


def test_delayed_shortens_before_the_name_is_cut() -> None:
    assert name_cell("Zalek", True, 20) == " Zalek (delayed)"
    assert name_cell("Zalek", True, 10) == " Zalek (d)"
    assert name_cell("Goblin Archer 12", True, 9) == " Gobl… 12"  # no room for (d)
    assert name_cell("Zalek", False, 3) == " Z…"


def test_hp_numbers_and_temp_hp() -> None:
    from rich.style import Style

    hurt = Combatant("Zalek", 38, 20, temp_hp=5)
    assert hp_cell(hurt, Style(), 4).plain == " ██░░ 20/38 +5"
    assert hp_cell(hurt, Style(), 0).plain == " 20/38 +5"
    # at half or below: bloodied, in words (½) besides the bar's colour
    bloodied = Combatant("Zalek", 38, 19, temp_hp=5)
    assert hp_cell(bloodied, Style(), 0).plain == " 19/38 ½ +5"
    assert hp_cell(Combatant("Ogre", 59, 0), Style(), 4).plain == " ░░░░ down"


@given(st.integers(1, 1000).flatmap(lambda top: st.tuples(st.just(top), st.integers(0, top))))
def test_the_bar_is_empty_only_when_down_and_full_only_unhurt(hp: tuple[int, int]) -> None:
    # a glance at the bar tells down from standing and hurt from unhurt: Mira
    # at 1 of 24 HP drew the empty bar of a down combatant (4 and 9 cells)
    from rich.style import Style

    top, now = hp
    for bar in (1, 4, 9):
        drawn = hp_cell(Combatant("Mira", top, now), Style(), bar).plain[1 : 1 + bar]
        filled = drawn.count("█")
        assert (filled == 0) == (now == 0), (now, top, bar, drawn)
        if bar > 1:
            assert (filled == bar) == (now == top), (now, top, bar, drawn)


def test_the_header_says_cond_when_narrow_and_counts_marks(
    crypt_fight: Callable[[], Session],
) -> None:
    content = content_of(crypt(crypt_fight()))
    wide = [t.plain for t in header_labels(layout(80, content, compact=True))]
    assert wide == ["", "Ini", " Name", " HP", " AL", " Conditions"]
    narrow = layout(30, content, compact=True)
    assert header_labels(narrow)[BADGES].plain == " Cond."
    assert header_labels(layout(80, content, True), marks=3)[BADGES].plain == (
        " ● 3 marked · Esc clears"
    )
    assert cell_len(header_labels(narrow, marks=3)[BADGES].plain) <= narrow.badges


@pytest.mark.parametrize(("marks", "down", "said"), [(17, 17, ("down", "↓")), (20, 17, ("17",))])
def test_the_header_says_how_many_marked_are_down_at_every_width(
    crypt_fight: Callable[[], Session], marks: int, down: int, said: tuple[str, ...]
) -> None:
    """A fully downed marked group's mark stands for every member: the count
    grows, and the header says they are down wherever a cell or two allow."""
    content = content_of(crypt(crypt_fight()))
    for width in range(20, 121):
        lay = layout(width, content, compact=True)
        note = header_labels(lay, marks, down=down)[BADGES].plain
        assert cell_len(note) <= max(lay.badges, len(f" ●{marks}")), (width, note)
        if lay.badges >= len(f" ●{marks}↓{down}"):
            assert any(word in note for word in said), (width, note)
    wide = header_labels(layout(120, content, True), 17, down=17)[BADGES].plain
    assert wide == " ● 17 marked, all down · Esc clears"


# -- issue 11: bloodied and down in words, on deck, wide names ------------------


def test_bloodied_is_half_hp_or_less_and_not_down() -> None:
    assert not bloodied(Combatant("Ogre", 59, 30))
    assert bloodied(Combatant("Ogre", 59, 29)) and bloodied(Combatant("Ogre", 60, 30))
    assert bloodied(Combatant("Ogre", 59, 1))
    assert not bloodied(Combatant("Ogre", 59, 0))  # down says so instead
    assert not bloodied(Combatant("Odd", 0, 0))


@pytest.mark.parametrize("width", [120, 80, 60, 45, 40, 30, 20])
def test_bloodied_and_down_read_in_words_at_every_width(
    width: int, crypt_fight: Callable[[], Session]
) -> None:
    # a GM who cannot tell the bar's colours apart reads ½ and down
    session = crypt_fight()
    session.apply("damage 'Goblin Archer 5' 20")  # 18/38: bloodied
    session.apply("damage 'Goblin Archer 6' 5")  # 33/38: not
    rows = crypt(session)
    lay = layout(width, content_of(rows), compact=True)
    bloody, hurt, down = (named(rows, f"Goblin Archer {n}") for n in (5, 6, 3))
    assert cell_of(bloody, lay, HP).rstrip().endswith(" 18/38 ½")
    assert BLOODIED_MARKER in line(bloody, lay)
    assert cell_of(hurt, lay, HP).rstrip().endswith(" 33/38")
    assert cell_of(down, lay, HP).rstrip().endswith(" down")
    for row in rows:
        assert cell_len(line(row, lay)) == width


def test_the_gutter_shows_the_turn_then_who_is_on_deck() -> None:
    c = Combatant("Goblin 2", 7, 7)
    gutter = row_cells(RowState(c, False, False, False, on_deck=True))[MARK]
    assert gutter.plain == ON_DECK_MARKER + " "
    marked = row_cells(RowState(c, False, True, False, on_deck=True))[MARK]
    assert marked.plain == ON_DECK_MARKER + "●"
    active = row_cells(RowState(c, True, False, False))[MARK]
    assert active.plain == ACTIVE_MARKER + " " and ON_DECK_MARKER != ACTIVE_MARKER
    assert row_cells(RowState(c, False, False, False))[MARK].plain == "  "


WIDE = ("ゴブリン弓兵 12", "🐉🐉 Wyrm 3", "火龍 Ancient Red Dragon", "Zoë Ω 2")


@pytest.mark.parametrize("name", WIDE)
@pytest.mark.parametrize("width", range(1, 22))
def test_wide_names_are_cut_by_screen_cells(name: str, width: int) -> None:
    cut = fit_name(name, width)
    assert cell_len(cut) <= width
    if cell_len(name) <= width:
        assert cut == name
    else:
        assert cut.endswith("…") or "… " in cut
        assert cell_len(cut) >= width - 1  # at most the half of a wide character lost
    if width >= 8 and name.rsplit(" ", 1)[-1].isdigit():
        assert cut.endswith(" " + name.rsplit(" ", 1)[-1])  # the number stays


def test_head_cells_never_splits_a_wide_character() -> None:
    assert head_cells("ゴブリン", 5) == "ゴブ"
    assert head_cells("ゴブリン", 4) == "ゴブ"
    assert head_cells("ゴブリン", 1) == ""
    assert head_cells("🐉x", 2) == "🐉" and head_cells("ab", 9) == "ab"


@pytest.mark.parametrize("width", [80, 60, 45, 30])
def test_rows_of_wide_names_fill_the_pane_exactly(width: int) -> None:
    rows = [
        RowState(Combatant(name, 20, 20 - i * 6, initiative=10 - i), i == 0, False, i == 2)
        for i, name in enumerate(WIDE)
    ]
    lay = layout(width, content_of(rows), compact=True)
    for row in rows:
        text = line(row, lay)
        assert cell_len(text) == width, (width, text)
        name = cell_of(row, lay, NAME)
        assert cell_len(name) == lay.widths[NAME]
    assert content_of(rows).name == max(
        cell_len(n) + (10 if i == 2 else 0) for i, n in enumerate(WIDE)
    )
