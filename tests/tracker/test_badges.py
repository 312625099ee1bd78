"""The conditions column without an app: every badge whole when they fit,
else each shortened to its start (``pois…2·3r``), else ``…+N`` for the ones
left out — in the conditions column, where it cannot be read as the temp
HP's ``+5`` beside the HP.  A GM reads a condition's start or its count,
never a fragment cut at the column's edge, and a condition's name — the
GM's text — is shown as typed: never markup, control characters spelled
out."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.style import Style

from rules.combatant import Combatant
from rules.conditions import Condition
from rules.durations import Duration
from rules.persistent import PersistentDamage
from rules.text import first_unsafe, visible
from tracker.widgets.badges import (
    CONDITION_STYLE,
    DICE_STYLE,
    PERSISTENT_STYLE,
    Badge,
    combatant_badges,
    condition_badge,
    fit_badges,
    persistent_badge,
    shortened,
)
from tracker.widgets.initiative_rows import RowState, content_of, fit_cells, layout, row_cells

HP, BADGES = 3, 5


def lasting(name: str, value: int | None = None, rounds: int | None = None) -> Condition:
    duration = None if rounds is None else Duration(rounds, "end", "Zalek")
    return Condition(name, value, duration)


def test_a_short_name_stays_whole_and_a_long_one_keeps_its_start() -> None:
    # "pron" would read as a word of its own: prone is no longer than pron…
    assert condition_badge(lasting("prone")).short.plain == "prone"
    assert condition_badge(lasting("frightened", 2, 3)).short.plain == "frig…2·3r"
    assert condition_badge(lasting("frightened", 2, 3)).full.plain == "frightened 2·3r"
    assert condition_badge(lasting("dazed", 1)).short.plain == "dazed 1"
    assert condition_badge(lasting("毒状態")).short.plain == "毒状…"  # cells, not characters
    fire = persistent_badge(PersistentDamage("1d6", ("fire",)))
    assert (fire.full.plain, fire.short.plain) == ("~fire 1d6", "~fire")
    necrotic = persistent_badge(PersistentDamage("2d4", ("necrotic",)))
    assert (necrotic.full.plain, necrotic.short.plain) == ("~necrotic 2d4", "~necr…")


def test_whole_then_shortened_then_counted_in_the_column() -> None:
    zalek = Combatant(
        "Zalek",
        27,
        10,
        conditions=(lasting("prone"), lasting("frightened", 2, 3)),
        persistent=(PersistentDamage("1d6", ("fire",)),),
    )
    found = combatant_badges(zalek)
    assert fit_badges(found).plain == " prone frightened 2·3r ~fire 1d6"
    assert fit_badges(found, 32).plain == " prone frightened 2·3r ~fire 1d6"
    assert fit_badges(found, 31).plain == " prone frig…2·3r ~fire"
    assert fit_badges(found, 21).plain == " prone frig…2·3r …+1"
    assert fit_badges(found, 9).plain == " …+3"
    assert fit_badges(found, 3).plain == " …"  # there is more, not what
    assert fit_badges(found, 1).plain == ""
    assert fit_badges([], 10).plain == ""


def test_hidden_conditions_cannot_be_read_as_temp_hp() -> None:
    # the QA pass: "10/27 ½ 16 +1" read as one more temp HP
    mira = Combatant("Mira", 24, 24, temp_hp=5, conditions=(lasting("blinded"), lasting("prone")))
    row = RowState(mira, False, False, False)
    lay = layout(30, content_of([row]), compact=True)
    cells = [cell.plain for cell in fit_cells(row_cells(row, lay=lay), lay)]
    assert cells[HP].rstrip().endswith(" 24/24 +5")
    assert cells[BADGES].strip() in ("…+2", "blin… …+1")
    assert not re.search(r"(?<!…)\+\d", cells[BADGES])  # a count always says it is one


NAMES = st.one_of(
    st.sampled_from(["prone", "frightened", "[bold]hex[/]", "毒状態", "a\x1b[2Jb", "on fire"]),
    st.text(min_size=1, max_size=24),
)
VALUES = st.one_of(st.none(), st.integers(-1000, 1000))
ROUNDS = st.one_of(st.none(), st.integers(1, 1000))


@st.composite
def carriers(draw: st.DrawFn) -> Combatant:
    """A combatant with typed conditions and persistent damage (any text)."""
    conditions = tuple(
        lasting(draw(NAMES), draw(VALUES), draw(ROUNDS)) for _ in range(draw(st.integers(0, 5)))
    )
    persistent = tuple(
        PersistentDamage(draw(st.sampled_from(["1d6", "2d4+1"])), tuple(draw(st.lists(NAMES))))
        for _ in range(draw(st.integers(0, 3)))
    )
    return Combatant("Imp", 7, 7, conditions=conditions, persistent=persistent)


OUR_STYLES = {Style.parse(s) for s in (CONDITION_STYLE, PERSISTENT_STYLE, DICE_STYLE, "bold")}


def joined(items: list[str]) -> str:
    return "".join(" " + item for item in items)


@given(carriers(), st.integers(0, 60))
def test_typed_badges_fit_read_as_typed_and_never_reach_the_terminal(
    c: Combatant, width: int
) -> None:
    found = combatant_badges(c)
    text = fit_badges(found, width)
    plain = text.plain
    assert cell_len(plain) <= width
    assert first_unsafe(plain) == -1  # control characters spelled out
    # the text's looks are the badges' own: nothing a name holds became markup
    spans = {Style.parse(str(span.style)) for span in text.spans}
    assert spans <= OUR_STYLES, spans
    whole = [b.full.plain for b in found]
    short = [b.short.plain for b in found]
    if cell_len(joined(whole)) <= width:
        assert plain == joined(whole)
        return
    # shortened badges from the first, then how many are left out, or "…"
    candidates = {joined(short)} | {
        joined(short[:k]) + f" …+{len(short) - k}" for k in range(len(short))
    }
    assert plain in candidates | {" …", ""}, (plain, short)


@given(NAMES, VALUES, ROUNDS)
def test_a_shortened_name_is_the_start_of_the_name_as_typed(
    name: str, value: int | None, rounds: int | None
) -> None:
    badge = condition_badge(lasting(name, value, rounds))
    shown = visible(name)
    tail = ("" if value is None else str(value)) + ("" if rounds is None else f"·{rounds}r")
    assert badge.full.plain.startswith(shown) and badge.full.plain.endswith(tail)
    short = badge.short.plain
    assert short.endswith(tail) and cell_len(short) <= cell_len(badge.full.plain)
    # (the space before the tail goes; so does a name's own trailing blank)
    head, whole = short[: len(short) - len(tail)].rstrip(), shown.rstrip()
    assert head == whole or (head.endswith("…") and shown.startswith(head[:-1]))
    assert head == whole or cell_len(head) <= 5
    assert first_unsafe(short) == -1 and first_unsafe(badge.full.plain) == -1


def test_a_name_that_looks_like_markup_or_holds_an_escape_is_shown_as_typed() -> None:
    hex_ = condition_badge(lasting("[bold]hex[/]"))
    assert hex_.full.plain == "[bold]hex[/]" and hex_.short.plain == "[bol…"
    assert hex_.full.spans == [] and str(hex_.full.style) == CONDITION_STYLE
    clear = condition_badge(lasting("a\x1b[2Jb"))
    assert clear.full.plain == "a\\x1b[2Jb" and clear.short.plain == "a\\x1…"
    assert isinstance(clear, Badge)


def test_shortened_keeps_a_word_no_longer_than_its_cut() -> None:
    assert [shortened(w) for w in ("fire", "acid", "prone", "slowed", "")] == [
        "fire",
        "acid",
        "prone",
        "slow…",
        "",
    ]
