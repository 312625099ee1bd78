"""The action language's shell quoting (``rules.engine.shell``): a line's
words are read exactly as ``shlex.split`` reads them, quotes left open
give shlex's own message, and a word written by :func:`quote_word` reads
back as itself, at most twice as long plus its quotes (what
``rules.limits.MAX_LINE`` is derived from)."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.parse import parse_action
from rules.engine.shell import quote_word, split_shell
from rules.errors import ActionError

#: the characters shell quoting treats apart, and some it must not
SHELLY = st.text(
    st.sampled_from([*"ab '\"\\\t\n\r,;*#$", "é", "\u00a0", "\u3000", "\x00"]), max_size=40
)


def shlex_reading(line: str) -> list[str] | str:
    try:
        return shlex.split(line)
    except ValueError as exc:
        return str(exc)


def our_reading(line: str) -> list[str] | str:
    try:
        return split_shell(line)
    except ValueError as exc:
        return str(exc)


@settings(max_examples=3000)
@given(SHELLY)
def test_a_line_splits_into_the_words_shlex_reads(line: str) -> None:
    assert our_reading(line) == shlex_reading(line)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("damage 'Goblin 2' 5", ["damage", "Goblin 2", "5"]),
        ('damage "Ogre\'s \\"Pet\\"" 5', ["damage", 'Ogre\'s "Pet"', "5"]),
        ("a'b'\"c\"\\ d e", ["ab" + "c d", "e"]),
        ("cond '' prone", ["cond", "", "prone"]),
        ("  \t ", []),
    ],
)
def test_quotes_and_escapes_are_undone_as_a_shell_does(line: str, words: list[str]) -> None:
    assert split_shell(line) == words


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("damage 'Goblin 5", "No closing quotation"),
        ('damage "Goblin 5', "No closing quotation"),
        ('damage "Goblin\\', "No escaped character"),
        ("damage Goblin\\", "No escaped character"),
    ],
)
def test_a_quote_left_open_is_one_message(line: str, message: str) -> None:
    with pytest.raises(ActionError, match=f"cannot read the line: {message}"):
        parse_action(line)


def test_a_word_of_a_hundred_thousand_characters_is_one_word() -> None:
    word = "Zombie 1," * 12_000
    assert split_shell(f"damage {quote_word(word)} 5") == ["damage", word, "5"]


@settings(max_examples=1000)
@given(st.lists(st.text(max_size=20), max_size=8))
def test_a_quoted_word_reads_back_and_at_most_doubles(words: list[str]) -> None:
    line = " ".join(quote_word(w) for w in words)
    assert split_shell(line) == words == shlex.split(line)
    for word in words:
        assert len(quote_word(word)) <= 2 * len(word) + 2


def test_a_name_of_quotes_is_written_without_shlex_five_fold_quoting() -> None:
    name = "O'Brien's 'Boy'"
    assert quote_word(name) == '"' + name + '"'
    assert quote_word("'" * 10) == '"' + "'" * 10 + '"'  # shlex: '"'"' for each
    assert quote_word("Goblin 2") == "'Goblin 2'" and quote_word("Ogre") == "Ogre"
