"""Which keys the footer draws when it has not room for all of them.

A greyed key does nothing now; a GM mid-fight at 80 columns needs ``t``,
``x`` and ``space`` more than a greyed ``s Start``.  The footer's rule: a
greyed key only takes room no key that applies wants, ``?`` Help and ``q``
Quit are always there, and the keys keep their order.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_keys import fight, make_app, select

from tracker.widgets.footer import Item, KeyFooter, fit

#: the encounter footer mid-fight (no marks, nobody delaying, nothing to redo)
MID_FIGHT: list[Item] = [
    ("s", "s", "Start", False),
    ("n", "n", "Next", True),
    ("p", "p", "Prev", True),
    ("g", "g", "Turn", True),
    ("space", "space", "Mark", True),
    ("escape", "esc", "Unmark", False),
    ("a", "a", "Add", True),
    ("d", "d", "Dmg", True),
    ("h", "h", "Heal", True),
    ("t", "t", "Temp", True),
    ("x", "x", "Persist", True),
    ("c", "c", "Cond", True),
    ("C", "C", "Uncond", False),
    ("m", "m", "Move", True),
    ("i", "i", "Init", True),
    ("A", "A", "Attack", True),
    ("w", "w", "Delay", True),
    ("W", "W", "Return", False),
    ("r", "r", "Roll", True),
    ("e", "e", "Edit", True),
    ("delete", "del", "Remove", True),
    ("colon", ":", "Cmd", True),
    ("ctrl+z", "^z", "Undo", True),
    ("ctrl+y", "^y", "Redo", False),
    ("ctrl+s", "^s", "Save", True),
    ("question_mark", "?", "Help", True),
    ("q", "q", "Quit", True),
]
WIDE = {"g", "space", "escape", "t", "x", "c", "C", "m", "i", "A", "w", "W", "r", "e"}
WIDE |= {"delete", "ctrl+y", "ctrl+s"}
PINNED = {"question_mark", "q"}


def labels(items: list[Item]) -> list[str]:
    return [label for _key, _shown, label, _enabled in items]


def width_of(items: list[Item]) -> int:
    """Columns the footer draws them in, a space after each."""
    return sum(
        len(shown) + len(label) + 2 if label else len(shown) + 1 for _, shown, label, _ in items
    )


def test_at_80_columns_a_greyed_start_gives_its_room_to_the_wide_keys() -> None:
    shown = fit(MID_FIGHT, WIDE, PINNED, 80)
    assert "Start" not in labels(shown)
    assert labels(shown) == [
        *("Next", "Prev", "Turn", "Mark", "Add", "Dmg", "Heal", "Cmd", "Undo"),
        *("Help", "Quit"),
    ]
    assert width_of(shown) <= 80


def test_at_120_columns_the_room_goes_to_keys_that_apply_in_order() -> None:
    shown = fit(MID_FIGHT, WIDE, PINNED, 120)
    assert labels(shown) == [
        *("Next", "Prev", "Turn", "Mark", "Add", "Dmg", "Heal", "Temp", "Persist", "Cond"),
        *("Move", "Init", "Cmd", "Undo", "Help", "Quit"),
    ]
    assert not any(label in labels(shown) for label in ("Start", "Unmark", "Uncond"))


def test_at_60_columns_keys_go_from_the_end_but_help_and_quit_stay() -> None:
    shown = fit(MID_FIGHT, WIDE, PINNED, 60)
    assert labels(shown) == ["Next", "Prev", "Add", "Dmg", "Heal", "Cmd", "Help", "Quit"]


def test_a_greyed_key_is_shown_only_in_room_left_over() -> None:
    every = [("s", "s", "Start", False), *MID_FIGHT[1:]]
    shown = fit(every, WIDE, PINNED, 400)  # room for all: greyed keys are shown too
    assert shown == every
    few = [("s", "s", "Start", False), ("n", "n", "Next", True), ("q", "q", "Quit", True)]
    assert labels(fit(few, set(), {"q"}, 30)) == ["Start", "Next", "Quit"]
    assert labels(fit(few, set(), {"q"}, 14)) == ["Next", "Quit"]


items_st = st.lists(
    st.tuples(st.text("abc", min_size=1, max_size=6), st.text("xyz", max_size=8), st.booleans()),
    max_size=20,
    unique_by=lambda t: t[0],
)


@given(items_st, st.sets(st.text("abc", min_size=1, max_size=6)), st.integers(0, 120))
def test_greyed_keys_never_cost_a_key_that_applies(
    raw: list[tuple[str, str, bool]], extra: set[str], width: int
) -> None:
    """Whatever the keys and the width: the keys that apply shown are those
    shown with no greyed key at all, pinned keys are always there, and the
    order is the footer's."""
    items: list[Item] = [(key, key, label, enabled) for key, label, enabled in raw]
    pinned = {key for key, *_ in items[-2:]}
    shown = fit(items, extra, pinned, width)
    applying = [i for i in items if i[3] or i[0] in pinned]
    assert [i for i in shown if i[3] or i[0] in pinned] == fit(applying, extra, pinned, width)
    assert pinned <= {i[0] for i in shown}
    assert shown == [i for i in items if i in shown]
    if width_of([i for i in items if i[0] in pinned]) <= width:
        assert width_of(shown) <= width


async def test_mid_fight_at_80_columns_the_footer_shows_mark_not_a_greyed_start() -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        line = footer.render_line(0).text
        every = footer.items
        shown = footer.shown(80)
    assert any(label == "Start" and not on for _k, _s, label, on in every)
    assert "Start" not in line
    assert "space Mark" in line  # a wide key that applies, in the room Start had
    assert line.rstrip().endswith("? Help q Quit")
    dropped = [i for i in every if i not in shown]
    assert all(on for *_, on in shown) and any(on for *_, on in dropped)
    assert shown == [i for i in every if i in shown]  # the footer's order


async def test_the_footer_follows_the_selection_and_the_marks() -> None:
    # keys greyed by whom they act on change with the cursor and the marks,
    # not only when the fight changes
    app = make_app(fight(started=True))
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.screen.query_one(KeyFooter)

        def applies(key: str) -> bool:
            return next(on for k, _shown, _label, on in footer.items if k == key)

        await select(pilot, app, "Zalek")
        assert applies("m")
        await select(pilot, app, "Goblin 1")  # no endurance pool: m does not apply
        assert not applies("m") and not applies("escape")
        await pilot.press("space")
        assert applies("escape")
        await pilot.press("escape")
        assert not applies("escape")
