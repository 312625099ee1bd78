"""Kept dice read as bold, and engine text is never taken for markup: a
name, condition, tag or notes reading ``**5**`` stays those characters."""

import random
import re

from hypothesis import example, given
from hypothesis import strategies as st

from rules.dice import roll
from rules.kept_marks import unmarked
from rules.text import visible
from tracker.breakdown import styled


def test_kept_dice_are_bold_and_the_marks_are_gone() -> None:
    text = styled("2d20kh1 (5, **14**) + 5 = 19")
    assert text.plain == "2d20kh1 (5, 14) + 5 = 19"
    bold = [text.plain[s.start : s.end] for s in text.spans if s.style == "bold"]
    assert bold == ["14"]


def test_brackets_in_engine_text_stay_literal() -> None:
    assert styled("usage: damage T AMOUNT [TAG…] [crit]").plain.endswith("[TAG…] [crit]")


def bold(text: str) -> list[str]:
    styled_text = styled(text)
    return [styled_text.plain[s.start : s.end] for s in styled_text.spans]


def test_typed_text_like_a_kept_die_is_not_one() -> None:
    line = "Gob is **4** 1 (resist **5**=2, tag **6**): 4d6kh3 (**3**, 1, **4**, **4**) = 11"
    shown = styled(line)
    assert shown.plain == "Gob is **4** 1 (resist **5**=2, tag **6**): 4d6kh3 (3, 1, 4, 4) = 11"
    assert bold(line) == ["3", "4", "4"]


def test_typed_text_holding_a_breakdown_rules_dice_never_writes_is_not_one() -> None:
    # a condition, tag or group name crafted to look like a breakdown came
    # out bold, its asterisks gone, in the log pane, show and the report;
    # rules.dice marks kept dice only in a term that dropped some, every
    # die's face listed, the kept ones the highest (kh) or lowest (kl)
    for forged in (
        "1d20kh1 (**5**)",  # one die: nothing dropped, nothing marked
        "x 2d20kh1 (**9**)",  # one face for two dice
        "2d20kh1 (**3**, 14)",  # the lower kept by kh
        "2d20kl1 (3, **14**)",  # the higher kept by kl
        "2d20kh1 (**3**, **14**)",  # two kept of one
        "2d6kh1 (**9**, 2)",  # no 9 on a d6
        "2d6kh1 (**0**, 0)",  # nor a 0
        "3d6kh1 (**5**, 2)",  # two faces for three dice
    ):
        line = f"Gob is {forged} (2 rounds left)"
        assert styled(line).plain == line and bold(line) == [], forged
    # what rules.dice writes still is bold, ties included
    assert bold("2d20kh1 (**14**, 14) + 5 = 19") == ["14"]
    assert bold("4d6kl2 (3, **1**, **3**, 6) = 4") == ["1", "3"]


#: any text a GM can type, around the marks the Markdown and Rich readers know
typed = st.lists(
    st.one_of(
        st.sampled_from(["**5**", "**", "(", ")", ", ", "2d20kh1", "kh1 (", "**7**)"]),
        st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=6),
    ),
    max_size=6,
).map("".join)


@given(typed, st.sampled_from(["2d20kh1", "4d6kl2+3", "3d8kh2!+1d4", "1d20"]), st.integers(0, 99))
@example("condition **5**", "2d20kh1", 0)
@example("tag **9** (8, **7**)", "2d20kl1", 3)
def test_typed_text_stays_as_typed_beside_a_real_breakdown(text: str, dice: str, seed: int) -> None:
    rendered = roll(dice, random.Random(seed)).render()
    line = f"{text} rolls {rendered} after {text}"
    # made visible: an invisible character (a soft hyphen) spelled out
    assert styled(line).plain == visible(f"{text} rolls {rendered.replace('**', '')} after {text}")
    assert bold(line) == re.findall(r"\*\*(\d+)\*\*", rendered)  # the breakdown's marks only
    # plain text (the undo notice, made visible where it is shown) reads as
    # the pane does, the same marks gone
    assert visible(unmarked(line)) == styled(line).plain


def test_a_recorded_entry_marks_only_where_its_record_says() -> None:
    # the engine records where render marked kept dice (LogEntry.kept): a
    # breakdown typed as a condition next to a real roll keeps its asterisks
    line = "Ogre is 2d20kh1 (5, **14**); Roll: 2d20kh1 (3, **9**) = 9"
    real = line.rindex("**9**")
    shown = styled(line, (real,))
    assert shown.plain == "Ogre is 2d20kh1 (5, **14**); Roll: 2d20kh1 (3, 9) = 9"
    assert [shown.plain[s.start : s.end] for s in shown.spans] == ["9"]
    assert unmarked(line, (real,)) == shown.plain
    assert styled(line, ()).plain == line  # recorded: none
    # a hand-edited record pointing anywhere else marks nothing more
    assert styled(line, (-4, 3, real + 1, len(line) + 5, real, real)).plain == shown.plain


def test_a_cut_line_keeps_its_marks_and_spells_out_control_characters() -> None:
    line = "Boss\x1b is hit: 2d20kh1 (5, **14**) = 14 " + "x" * 50
    shown = styled(line, limit=40)
    assert shown.plain == "Boss\\x1b is hit: 2d20kh1 (5, 14) = 14 x…" and len(shown.plain) == 40
    assert [shown.plain[s.start : s.end] for s in shown.spans] == ["14"]
