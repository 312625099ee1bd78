"""A carriage return is a line end's, never a space (README, Decisions):
one at the end of a line (what a Windows CR LF leaves once the newline is
cut) is harmless, as a trailing newline is; one inside a line is refused
with one message naming it, and nothing changes, rather than read as a
space that would join what the GM wrote as two lines into one action."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import Session
from rules.errors import ActionError
from tests.engine.test_log_wording import fight as fought

#: lines of every shape a GM's file holds: quotes, a batch, a spaced name
LINES = [
    "add Goblin count 3 hp 7 al 13",
    "damage 'Imp 1' 2d6+3 fire",
    'cond "Brother Tomas" frightened value 2 rounds 3',
    "set Ogre hp 20; heal Ogre 5",
    "damage Brother Tomas 4",
    "roll 2d20kh1+5",
]


def fight() -> Session:
    return fought(
        "add Ogre hp 40 init 12", "add 'Brother Tomas' player hp 24 init 15", "add Imp count 2 hp 9"
    )


@given(st.sampled_from(LINES), st.data())
def test_a_carriage_return_inside_a_line_is_refused_and_changes_nothing(line, data) -> None:
    # anywhere before the line's last word: in the middle, at its start,
    # for a space, inside quotes
    at = data.draw(st.integers(0, len(line.rstrip()) - 1))
    replace = data.draw(st.booleans()) and line[at] == " "
    bad = line[:at] + "\r" + line[at + 1 if replace else at :]
    s = fight()
    before, seq, logged = s.encounter, s.seq, len(s.log)
    with pytest.raises(ActionError) as refused:
        s.apply(bad)
    assert str(refused.value) == (
        f"the line contains U+000D CARRIAGE RETURN at character {at + 1}: "
        "a carriage return belongs only at the end of a line (a Windows CR LF)"
    )
    assert s.encounter is before and s.seq == seq and len(s.log) == logged


@given(st.sampled_from(LINES), st.sampled_from(["\r", "\r\r", " \r", "\r \t", "\r\n"]))
def test_a_carriage_return_ending_a_line_is_harmless(line, end) -> None:
    plain, crlf = fight(), fight()
    expected = plain.apply(line)
    step = crlf.apply(line + end)
    assert step.log == expected.log and crlf.encounter == plain.encounter
