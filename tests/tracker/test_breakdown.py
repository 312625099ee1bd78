"""Kept dice read as bold, and engine text is never taken for markup."""

from hypothesis import given
from hypothesis import strategies as st

from tracker.breakdown import plain, styled


def test_kept_dice_are_bold_and_the_marks_are_gone() -> None:
    text = styled("2d20kh1 (5, **14**) + 5 = 19")
    assert text.plain == "2d20kh1 (5, 14) + 5 = 19"
    bold = [text.plain[s.start : s.end] for s in text.spans if s.style == "bold"]
    assert bold == ["14"]


def test_brackets_in_engine_text_stay_literal() -> None:
    assert styled("usage: damage T AMOUNT [TAG…] [crit]").plain.endswith("[TAG…] [crit]")


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs"))))
def test_any_text_survives(text: str) -> None:
    assert styled(text).plain == plain(text)
