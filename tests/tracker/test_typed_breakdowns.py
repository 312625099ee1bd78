"""Text a GM typed is never taken for a dice breakdown's kept die, even
typed to look exactly like one: ``cond Ogre "2d20kh1 (5, **14**)"`` reads
as typed in the log pane, ``show``, the undo notice and the Markdown
report, while the fight's own rolls keep their bold kept dice.  The engine
records where ``rules.dice`` marked a kept die (``LogEntry.kept``, kept in
the journal), so no reader has to guess from the text.

Each fight is played twice with the same seed: once with a token where the
typed text goes, once with the typed text.  Every reader must show the
second exactly as the first with the token replaced: no mark more, no
mark less, no asterisk lost."""

from __future__ import annotations

import random
import re
import unicodedata

from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.shell import quote_word
from rules.errors import ActionError
from rules.kept_marks import unmarked
from saves.live import LiveEncounter
from tracker.commands.report import markdown_report
from tracker.widgets.log import entry_text

TOKEN = "zq0q"

#: each field's fight: rolls with kept dice beside the typed text ``{t}``,
#: in the same action and in the lines the fight logs later
FIGHTS = {
    "condition": [
        "add Ogre hp 90 init 5",
        "start",
        "roll 2d20kh1+1; cond Ogre {t} rounds 1",
        "damage Ogre 4d6kh3",
        "next",
        "cond Ogre {t} value 2",
        "uncond Ogre {t}",
    ],
    "notes": ["add Ogre hp 90 init 5", "roll 4d6kh3; set Ogre notes {t}", "roll 2d20kl1"],
    "name": [
        "add {t} hp 90 init 5",
        "start",
        "roll 2d20kh1; damage {t} 4d6kh3",
        "cond {t} prone",
        "next",
    ],
    "tag": [
        "add Ogre hp 90 init 5",
        "damage Ogre 4d6kh3 {t}",
        "persist Ogre 2d20kh1 {t}",
        "start",
        "next",
    ],
}

#: what a breakdown is made of, and any other text a GM might type
PIECES = ["2d20kh1 (", "4d6kh3 (", "2d20kl1 (", "5", "14", ", ", "**14**", "**5**", "**6**", ")"]
typed = st.lists(
    st.one_of(
        st.sampled_from([*PIECES, " = 19", "*", " "]),
        st.text(
            st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_categories=["Cc"]),
            max_size=3,
        ),
    ),
    min_size=1,
    max_size=8,
).map("".join)


def as_field(field: str, text: str) -> str:
    """*text* as the field takes it: a name holds no comma, a tag no space
    and is folded to lower case; each is NFC-normalised and stripped (the
    engine's rules, not this test's)."""
    if field == "name":
        text = f"Orc {text.replace(',', '')} x"  # one way to own ("Orc … x's turn")
    if field == "tag":
        text = re.sub(r"[\s,=]", "", text).lower()
    return unicodedata.normalize("NFC", text).strip()


def play(field: str, text: str) -> Session:
    """The field's fight with *text* typed, saved and read back (the
    journal keeps where the kept dice are)."""
    s = Session(Encounter("Crypt"), rng=random.Random(11))
    for line in FIGHTS[field]:
        s.apply(line.replace("{t}", quote_word(text)))
    return Session.from_dict(s.to_dict())


def pane(s: Session) -> list[tuple[str, list[str]]]:
    """Each log line as the log pane draws it: its text, and what is bold."""
    out = []
    for entry in s.log:
        shown = entry_text(entry)
        out.append(
            (
                shown.plain,
                [shown.plain[sp.start : sp.end] for sp in shown.spans if sp.style == "bold"],
            )
        )
    return out


def report_marks(s: Session) -> list[str]:
    """The kept dice the Markdown report makes bold (a typed ``*`` is ``\\*``)."""
    report = markdown_report(LiveEncounter.in_memory(s))
    return re.findall(r"(?<![\\*])\*\*(\d+)\*\*(?!\*)", report)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(FIGHTS)), typed)
@example("condition", "2d20kh1 (5, **14**)")
@example("notes", "4d6kh3 (1, **5**, **6**, **6**) = 17")
@example("condition", "roll 2d20kh1 (**14**, 14) + 5 = 19")
@example("name", "4d6kh3 (1 **5** **6** **6**)")
@example("tag", "**6**")
def test_typed_text_is_never_a_kept_die_in_any_reader(field: str, text: str) -> None:
    text = as_field(field, text)
    try:
        fight = play(field, text)
    except ActionError:
        reject()  # not a valid name, tag… (a refusal is tested elsewhere)
    token = as_field(field, TOKEN)
    plain = play(field, token)

    def typed_for_token(shown: str) -> str:
        # notes are logged as Python writes a string ('…', backslashes doubled)
        return shown.replace(repr(token), repr(text)).replace(token, text)

    expected = [
        (typed_for_token(shown), [typed_for_token(b) for b in bold]) for shown, bold in pane(plain)
    ]
    assert pane(fight) == expected
    assert [unmarked(e.text, e.kept) for e in fight.log] == [
        typed_for_token(unmarked(e.text, e.kept)) for e in plain.log
    ]
    assert report_marks(fight) == report_marks(plain)
    assert any(bold for _, bold in expected)  # the fight's own rolls are bold


def test_a_breakdown_typed_as_a_condition_reads_as_typed_beside_a_real_one() -> None:
    s = Session(Encounter("Crypt"), rng=random.Random(11))
    s.apply("add Ogre hp 30")
    s.apply("roll 2d20kh1; cond Ogre '2d20kh1 (5, **14**)'")
    assert pane(Session.from_dict(s.to_dict()))[1:] == [
        ("–  GM: Roll: 2d20kh1 (15, 18) = 18", ["GM:", "18"]),
        ("–  Ogre is 2d20kh1 (5, **14**)", ["Ogre"]),
    ]
