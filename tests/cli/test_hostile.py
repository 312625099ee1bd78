"""Hostile and mistaken input on the command line (issue 9, CLI part).

A name is text, never markup, on every output path (``list``, ``show``,
``export`` to stdout and to a file, messages); a control character in one
never reaches the terminal raw; the Markdown report renders as the table
and prose the GM saw; bytes that are not UTF-8 are one error line.  Hostile
data that input validation refuses today (a hand-edited or old file) is
planted through the saves API, or by editing the index file, as such a
file would hold it.
"""

from __future__ import annotations

import io
import json
import random
import re
import shlex
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from rules.text import first_unsafe, shorten, visible
from tracker.cli import main

#: pieces a hostile name is made of: Rich markup, terminal escapes (OSC 52
#: clipboard write, screen clear), bidi and zero-width characters, Markdown
#: and HTML syntax, emoji.
HOSTILE = [
    "[/]",
    "[b]",
    "[link=http://evil.example]x[/link]",
    "[@click=app.quit]",
    "\x1b]52;c;cm0gLXJmIH4=\x1b\\",
    "\x1b[2J",
    "\x9b31m",
    "\x07",
    "\r",
    "\n",
    "\t",
    "\u202e",
    "\u2066",
    "\u200b",
    "\ufeff",
    "\u2028",
    "🐉",
    "👩\u200d👩\u200d👧",
    "e\u0301",
    "*Shade*",
    "_x_",
    "Orc|Chief",
    "<b>",
    "<script>alert(1)</script>",
    "&amp;",
    "`code`",
    "# ",
    "- ",
    "1. ",
    "> ",
    "**5**",
    "\\",
    "    ",
    "\xa0",
    "~~",
    ":smile:",
]

hostile_text = st.lists(
    st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)), min_size=1, max_size=8
).map("".join)
#: very long names: a hand-edited file is not bound by the input limits
long_text = st.builds(lambda piece, n: piece * n, hostile_text, st.integers(50, 400))
names = st.one_of(hostile_text, hostile_text, long_text)
#: what a GM can type: markup and Markdown but nothing invisible (so that
#: most typed names are accepted and go on through every command)
printable = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))
typed_names = st.one_of(
    names,
    st.lists(
        st.one_of(
            st.sampled_from([p for p in HOSTILE if first_unsafe(p) < 0]),
            st.text(printable, max_size=8),
        ),
        min_size=1,
        max_size=6,
    ).map("".join),
)

PROPERTY = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def run(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    try:
        status = main(["--db", str(db), "--seed", "7", *args])
    except SystemExit as exc:  # argparse refusing a word that reads as an option
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()  # always read, so no output leaks into the next call
    return status, out, err


def assert_safe(*outputs: str) -> None:
    """No control, bidi or invisible character and no traceback in any of
    *outputs* (line breaks between lines are the one exception)."""
    for output in outputs:
        assert "Traceback" not in output
        for line in output.split("\n"):
            assert first_unsafe(line) < 0, repr(line[:200])


# -- planting hostile data -------------------------------------------------------------


def plant(db: Path, title: str, names: list[str], *, index_name: str = "Fight") -> list[str]:
    """An encounter *index_name* whose fight is titled *title*, with one
    combatant per name (each has fought a little: the log names them), as a
    hand-edited or old file could hold them: written through the saves API,
    past the input checks.  Returns what each log entry must read as in
    the report (kept dice unmarked, control characters made visible)."""
    from rules.encounter import Encounter
    from rules.engine import Session
    from saves.store import Store

    session = Session(Encounter("Placeholder"), rng=random.Random(3))
    tokens = {f"Zq{i}x": name for i, name in enumerate(names)}
    for i, token in enumerate(tokens):
        session.apply(f"add {token} hp 20 al 12 init {10 + i}")
    if tokens:
        session.apply("start")
        first = next(iter(tokens))
        session.apply(f"damage {first} 2d6 fire")
        session.apply(f"cond {first} frightened value 1 rounds 2")
        session.apply(f"persist {first} 1d6 fire")
        session.apply("roll 2d20kh1+3")

    def swap(text: str) -> str:
        for token, name in tokens.items():
            text = text.replace(token, name)
        return text

    def swapped(obj: Any) -> Any:
        text = json.dumps(obj)
        for token, name in tokens.items():
            text = text.replace(token, json.dumps(name)[1:-1])
        return json.loads(text.replace('"Placeholder"', json.dumps(title)))

    origin = swapped({"encounter": Encounter("Placeholder").to_dict()})
    steps = [swapped({"step": step.to_dict()}) for step in session.undo_stack]
    snapshot = {"session": swapped(session.to_dict()), "ui": {}}
    with Store(db) as store:
        store.create(index_name, origin, snapshot, {"round": 1}, records=steps)
    return [
        visible(swap(re.sub(r"\*\*(\d+)\*\*", r"\1", e.text)))
        for e in session.log
        if e.text != f"Round {e.round}"
    ]


def rename_in_index(db: Path, old: str, name: str, label: str | None = None) -> None:
    """Rename an encounter in the catalogue (and its save points' labels in
    its state file) as a hand edit would, sealed again so the store reads it
    as its own: the store's API refuses such names."""
    from saves.seal import seal
    from saves.storage import parse_tables

    def edit(path: Path, change: Any) -> None:
        tables = parse_tables(path.read_bytes())
        change(tables)
        path.write_bytes(seal(tables, "test") + b"\n")

    found: list[str] = []

    def rename(tables: dict[str, Any]) -> None:
        for doc in tables["encounters"].values():
            if doc["name"] == old:
                doc["name"], doc["key"] = name, name.casefold()
                found.append(doc["id"])

    edit(db, rename)
    if label is not None:

        def relabel(tables: dict[str, Any]) -> None:
            for doc in tables.get("save_points", {}).values():
                doc["label"], doc["key"] = label, label.casefold()

        edit(Path(f"{db}.d") / found[0] / "state.json", relabel)


# -- Markdown, as a renderer reads it --------------------------------------------------


def _md() -> MarkdownIt:
    # html on: raw HTML in a name must not come through as HTML even where
    # a renderer allows it
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def inline_text(token: Any) -> str:
    """What an inline token reads as: its text, without emphasis marks."""
    parts = []
    for child in token.children or []:
        assert child.type in ("text", "strong_open", "strong_close", "em_open", "em_close"), (
            child.type
        )
        parts.append(child.content)
    return "".join(parts)


def table_rows(markdown: str) -> list[list[str]]:
    """Each row of the report's table as the text of its cells."""
    tokens = _md().parse(markdown)
    rows: list[list[str]] = []
    for i, token in enumerate(tokens):
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
            rows[-1].append(inline_text(token))
    return rows


def blocks(markdown: str) -> list[tuple[str, str]]:
    """(block type, text) of each heading and list item, outside the table."""
    tokens = _md().parse(markdown)
    out = []
    for i, token in enumerate(tokens):
        if token.type == "inline" and tokens[i - 1].type in ("heading_open", "paragraph_open"):
            opener = tokens[i - 1]
            kind = opener.tag if opener.type == "heading_open" else "p"
            if i >= 2 and tokens[i - 2].type == "list_item_open":
                kind = "li"
            out.append((kind, inline_text(token)))
    return out


def check_report(markdown: str, title: str, names: list[str], log: list[str] | None = None) -> None:
    """The report renders as one h1 with the title, list items (reading as
    *log*), and a six-column table with one row per combatant, each cell's
    text as the GM saw it."""
    tokens = _md().parse(markdown)
    kinds = {t.type for t in tokens}
    assert not kinds & {"html_block", "code_block", "fence", "blockquote_open", "hr"}
    assert "ordered_list_open" not in kinds
    assert [t.type for t in tokens].count("bullet_list_open") <= 1 + markdown.count("## ")
    found = blocks(markdown)
    assert found[0] == ("h1", visible(title))
    assert {kind for kind, _ in found} <= {"h1", "h2", "p", "li"}
    if log is not None:
        assert [text for kind, text in found if kind == "li"] == log
    rows = table_rows(markdown)
    assert all(len(row) == 6 for row in rows), rows
    shown = [row[0].removesuffix(" (down)") for row in rows[1:]]
    assert sorted(shown) == sorted(visible(n) for n in names)


# -- specific cases ------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "encounters.json"


def listed_after_edit(capsys, db, monkeypatch, name: str, label: str) -> str:
    """``list`` of a fight and its one save point renamed *name* and *label*
    by a hand edit (which the store's API would refuse or trim)."""
    monkeypatch.setenv("COLUMNS", "400")
    run(capsys, db, "new", "Fight")
    run(capsys, db, "save", "Fight", "before")
    rename_in_index(db, "Fight", name, label)
    status, out, err = run(capsys, db, "list")
    assert status == 0, err
    return out


def test_markup_in_encounter_and_save_point_names_does_not_crash_list(
    capsys, db, monkeypatch
) -> None:
    boss = "Boss [/] [link=http://evil.example]fight[/link]"
    out = listed_after_edit(capsys, db, monkeypatch, boss, "pt [/]")
    assert "[/]" in out and "[link=http://evil.example]fight[/link]" in out
    assert "pt [/]" in out
    assert "\x1b" not in out  # no hyperlink escape (OSC 8) or any other


def test_a_summary_of_the_wrong_types_is_listed_as_blanks_not_markup(
    capsys, db, monkeypatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    from saves.seal import seal
    from saves.storage import parse_tables

    run(capsys, db, "new", "Fight")
    tables = parse_tables(db.read_bytes())
    for doc in tables["encounters"].values():  # a hand edit, sealed again
        doc["summary"] = {"round": "[bold]x[/]", "active": 7, "combatants": 2.5, "started": "y"}
    db.write_bytes(seal(tables, "test") + b"\n")
    status, out, err = run(capsys, db, "list")
    assert status == 0, err
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("Fight")]
    assert row[:4] == ["Fight", "—", "—", "0"]  # not "x" (markup read) nor "2.5"
    status, out, err = run(capsys, db, "list", "--json")
    assert status == 0, err
    (entry,) = json.loads(out)
    assert (entry["round"], entry["active"], entry["combatants"], entry["started"]) == (
        0,
        None,
        0,
        False,
    )


def test_terminal_escapes_in_names_are_shown_spelled_out(capsys, db, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    osc52 = "Ogre\x1b]52;c;cm0gLXJmIH4=\x1b\\"
    plant(db, "Clear\x1b[2J", [osc52, "Imp [/b]"])
    status, out, err = run(capsys, db, "show", "Fight")
    assert status == 0, err
    assert "Ogre\\x1b]52;c;cm0gLXJmIH4=\\x1b\\" in out and "Imp [/b]" in out
    assert "Clear\\x1b[2J" in out
    status, report, err = run(capsys, db, "export", "Fight")
    assert status == 0, err
    check_report(report, "Clear\x1b[2J", [osc52, "Imp [/b]"])
    # the index itself holding such a name (a hand edit): list shows it spelled out
    rename_in_index(db, "Fight", "Fight\x1b[2J")
    status, listed, err = run(capsys, db, "list")
    assert status == 0 and "Fight\\x1b[2J" in listed
    assert_safe(out, err, report, listed)
    # and in a message: the name the GM typed is spelled out too
    status, out, err = run(capsys, db, "show", "Nope\x1b[2J")
    assert status == 1 and "Nope\\x1b[2J" in err and len(err.splitlines()) == 1
    assert_safe(out, err)


def test_json_output_escapes_every_control_and_bidi_character(capsys, db) -> None:
    hostile = "Ogre\x1b[2J\x9b\u202e\u200b🐉"
    plant(db, "Title\u202e", [hostile])
    status, out, _ = run(capsys, db, "show", "Fight", "--json")
    assert status == 0 and out.isascii()  # ensure_ascii: plain ASCII, parses back exactly
    state = json.loads(out)
    assert state["name"] == "Title\u202e" and state["combatants"][0]["name"] == hostile
    status, out, _ = run(capsys, db, "export", "Fight", "--format", "json")
    assert status == 0 and out.isascii() and json.loads(out)["combatants"][0]["name"] == hostile


@pytest.mark.parametrize(
    "name",
    ["Orc|Chief", "*Shade*", "Line\nbreak", "<script>alert(1)</script>", "# Boss", "- Imp"],
)
def test_markdown_export_keeps_names_literal(capsys, db, tmp_path, name) -> None:
    log = plant(db, name, [name, "1. Goblin", "Ogre"])
    status, report, err = run(capsys, db, "export", "Fight")
    assert status == 0, err
    check_report(report, name, [name, "1. Goblin", "Ogre"], log)
    assert "<script>" not in report and "<b>" not in report
    out_file = tmp_path / "report.md"
    status, out, err = run(capsys, db, "export", "Fight", "-o", str(out_file))
    assert status == 0 and out_file.read_text(encoding="utf-8") == report
    assert_safe(out_file.read_text(encoding="utf-8"))


def test_markdown_export_still_bolds_actors_and_kept_dice(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    run(capsys, db, "do", "Fight", "add Ogre hp 40 init 5\nstart\nroll 2d20kh1+5")
    _, report, _ = run(capsys, db, "export", "Fight")
    tokens = _md().parse(report)
    strong = [
        t.children[i + 1].content
        for t in tokens
        if t.type == "inline"
        for i, c in enumerate(t.children or [])
        if c.type == "strong_open"
    ]
    assert any(s.isdigit() for s in strong)  # the kept die


def test_a_line_that_is_not_utf8_is_one_error_and_the_next_line_runs(capsys, db, monkeypatch):
    run(capsys, db, "new", "Fight")
    stdin = io.TextIOWrapper(io.BytesIO(b"add Ogre hp 5\nadd Imp\xff hp 3\nadd Troll hp 9\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, err = run(capsys, db, "do", "Fight")
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == "ok 1" and lines[2] == "ok 2"
    assert lines[1].startswith("error: line 2 is not UTF-8 text (the byte 0xFF")
    state = json.loads(run(capsys, db, "show", "Fight", "--json")[1])
    assert [c["name"] for c in state["combatants"]] == ["Ogre", "Troll"]


def test_do_from_a_pipe_reads_bytes_line_by_line(db) -> None:
    cli = [sys.executable, "-m", "tracker", "--db", str(db)]
    subprocess.run([*cli, "new", "Fight"], check=True, capture_output=True, timeout=60)
    done = subprocess.run(
        [*cli, "do", "Fight"],
        input=b"\xef\xbb\xbfadd Ogre hp 5\r\n\xc3(\nadd Imp hp 3\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr == b""
    assert done.stdout.decode().splitlines()[0] == "ok 1"
    assert done.stdout.decode().splitlines()[1].startswith("error: line 2 is not UTF-8")
    assert done.stdout.decode().splitlines()[2] == "ok 2"


def test_an_argv_name_that_is_not_utf8_is_one_clear_line(db) -> None:
    cli = [sys.executable, "-m", "tracker", "--db", str(db)]
    for args in ([b"new", b"Imp\xff"], [b"show", b"Imp\xff"], [b"save", b"Fight", b"l\xff"]):
        done = subprocess.run([*cli, *args], capture_output=True, timeout=60)
        assert done.returncode == 1, done
        err = done.stderr.decode()
        assert "not UTF-8" in err and "0xFF" in err and len(err.splitlines()) == 1
        assert "Traceback" not in err
    listed = subprocess.run([*cli, "list", "--json"], capture_output=True, timeout=60)
    assert json.loads(listed.stdout) == []


def test_a_prepared_file_that_is_not_utf8_is_one_line(capsys, db, tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[[combatant]]\nname = "Gobl\xe9n"\nhp = 5\n')
    status, _, err = run(capsys, db, "new", "Fight", "--from", str(bad))
    assert status == 1 and len(err.splitlines()) == 1
    assert "not UTF-8 text (the byte 0xE9 at line 2, column 13)" in err
    assert json.loads(run(capsys, db, "list", "--json")[1]) == []


def test_a_hand_edited_label_with_edge_whitespace_is_the_label_list_shows(
    capsys, db, monkeypatch
) -> None:
    # a label the app would have trimmed (str.strip trims U+00A0 too), its
    # key untrimmed: what list shows restores it, and saving that label
    # again asks first, then replaces it
    listed = listed_after_edit(capsys, db, monkeypatch, "Fight", "\xa0Bridge \xa0")
    assert listed.splitlines()[1].rstrip().endswith("  Bridge") and "\xa0" not in listed
    status, out, err = run(capsys, db, "restore", "Fight", "bridge", "--as", "Again")
    assert status == 0, err
    status, _, err = run(capsys, db, "save", "Fight", "Bridge")
    assert status == 1 and "already has a save point labelled 'Bridge'" in err
    assert run(capsys, db, "save", "Fight", "Bridge", "--replace")[0] == 0
    points = json.loads(run(capsys, db, "list", "--json")[1])
    assert [p["save_points"] for p in points if p["name"] == "Fight"] == [["Bridge"]]


def test_bad_names_are_refused_with_one_line_and_nothing_changes(capsys, db) -> None:
    run(capsys, db, "new", "Fight")
    before = run(capsys, db, "list", "--json")[1]
    for args in (
        ["new", "Evil\x1b[2J"],
        ["new", "x" * 81],
        ["new", "   "],
        ["save", "Fight", "pt\u202e"],
        ["restore", "Fight", "nope", "--as", "a\x00b"],
    ):
        status, out, err = run(capsys, db, *args)
        assert status == 1 and out == "" and len(err.splitlines()) == 1, (args, err)
        assert_safe(err)
    assert run(capsys, db, "list", "--json")[1] == before


# -- properties ------------------------------------------------------------------------------


#: a label more characters long than cells wide (combining accents), ending
#: in a no-break space: Rich 15 wraps a table cell's text by its cells, then
#: drops its trailing whitespace when it has more characters than the
#: column has cells, so ``list`` lost the no-break space of the label as
#: the file held it (the one failure seen, then not in 150 more examples).
ACCENTED = "e\u0301" * 50


@PROPERTY
@given(title=names, combatants=st.lists(names, min_size=1, max_size=3, unique=True))
@example(title="[/]", combatants=[ACCENTED + "\xa0"])
@example(title="Fight", combatants=["\xa0later\t", "Gob"])
@example(title="Fight", combatants=["Gob", ACCENTED + "\xa0"])
def test_any_planted_name_is_shown_as_given_and_harmless(capsys, monkeypatch, title, combatants):
    # names that differ only by case or normal form would be one name to the
    # engine; the planted file keeps them apart, which is not what this tests
    if len({unicodedata.normalize("NFC", n).casefold() for n in combatants}) < len(combatants):
        return
    monkeypatch.setenv("COLUMNS", "20000")  # the table never wraps a name
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        log = plant(db, title, combatants)
        outputs = []
        for args in (["show", "Fight"], ["export", "Fight"]):
            status, out, err = run(capsys, db, *args)
            assert status == 0, (args, err)
            outputs += [out, err]
        # list: the index itself holds the hostile names (a hand edit)
        run(capsys, db, "save", "Fight", "start")
        if title.strip() == title and title:  # the store strips what it looks up
            rename_in_index(db, "Fight", title, label=combatants[0])
        else:
            rename_in_index(db, "Fight", "Fight", label=combatants[0])
        status, listed, err = run(capsys, db, "list")
        assert status == 0, err
        assert_safe(*outputs, listed, err)
        shown, report = outputs[0], outputs[2]
        # a table cuts a name from a hand-edited file at 200 characters; a
        # label is listed trimmed, as restore reads the label it is given
        label = combatants[0].strip() or combatants[0]
        assert shorten(label, 200) in listed
        assert title != title.strip() or not title or shorten(title, 200) in listed
        assert shorten(title, 200) in shown
        for name in combatants:
            assert shorten(name, 200) in shown
        check_report(report, title, combatants, log)
        out_file = Path(tmp) / "report.md"
        rename_in_index(db, title if title.strip() == title and title else "Fight", "Fight")
        status, out, err = run(capsys, db, "export", "Fight", "-o", str(out_file))
        assert status == 0 and out_file.read_text(encoding="utf-8") == report
        if label.strip() and not as_option(label):  # a label restore can be given
            # what list shows restores, edge whitespace and all in the file
            status, out, err = run(capsys, db, "restore", "Fight", label, "--as", "Again")
            assert status == 0, err
        status, out, _ = run(capsys, db, "show", "Fight", "--json")
        assert out.isascii()
        assert sorted(c["name"] for c in json.loads(out)["combatants"]) == sorted(combatants)


def as_option(word: str) -> bool:
    """Whether argparse takes *word* for an option rather than a value."""
    return word.startswith("-") and " " not in word


@PROPERTY
@given(title=typed_names, combatant=typed_names, label=typed_names)
def test_any_typed_name_is_kept_or_refused_with_one_line(
    capsys, monkeypatch, title, combatant, label
):
    monkeypatch.setenv("COLUMNS", "20000")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "encounters.json"
        status, out, err = run(capsys, db, "new", title)
        assert_safe(out, err)
        if status != 0:  # refused: one line, nothing created
            # a name that starts with "-" is an option to argparse (status 2),
            # unless it holds a space: then argparse reads it as a value
            assert status == (2 if as_option(title) else 1) and len(err.splitlines()) == 1
            assert json.loads(run(capsys, db, "list", "--json")[1]) == []
            event("encounter name refused")
            return
        event("encounter name kept")
        kept = unicodedata.normalize("NFC", title).strip()
        assert json.loads(run(capsys, db, "list", "--json")[1])[0]["name"] == kept
        before = run(capsys, db, "show", kept, "--json")[1]
        # a newline in do's one argument starts another action line (README)
        action = f"add {shlex.quote(combatant.replace(chr(10), ' '))} hp 5"
        status, out, err = run(capsys, db, "do", kept, action)
        assert_safe(out, err)
        after = run(capsys, db, "show", kept, "--json")[1]
        if status != 0:
            assert status == 1 and len(out.splitlines()) == 1 and out.startswith("error: ")
            assert after == before
        event(f"combatant {'refused' if status else 'added'}")
        status, out, err = run(capsys, db, "save", kept, label)
        assert_safe(out, err)
        if status != 0:
            assert status == (2 if as_option(label) else 1) and len(err.splitlines()) == 1
        outputs = []
        for args in (
            ["list"],
            ["show", kept],
            ["export", kept],
            ["export", kept, "--format", "json"],
        ):
            status, out, err = run(capsys, db, *args)
            assert status == 0, (args, err)
            outputs += [out, err]
        assert_safe(*outputs)
        assert kept in re.sub(r"\n ", "", outputs[0]) or kept in outputs[0]


# -- the config file (read when the app starts) ------------------------------------------


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b'[keys]\n"app.quit" = "q\xff"\n', "not UTF-8 text (the byte 0xFF at byte 23)"),
        (b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "not valid TOML"),
        (b'[keys]\n"app.quit" = "\\u001b[2J"\n', "holds a control character ('\\x1b[2J')"),
        (b'[keys]\n"' + b"z" * 5000 + b'" = "q"\n', "unknown key id 'zzz"),
    ],
)
def test_a_hostile_config_file_is_one_problem_and_the_defaults(tmp_path, raw, problem) -> None:
    from tracker.config import load_config

    path = tmp_path / "config.toml"
    path.write_bytes(raw)
    config = load_config(path, known_ids={"app.quit"})
    assert config.keymap == {} and len(config.problems) == 1
    assert problem in config.problems[0] and len(config.problems[0]) < 300
    assert first_unsafe(config.problems[0]) < 0


def test_a_config_file_that_is_a_fifo_or_a_device_is_one_problem(tmp_path) -> None:
    import os

    from tracker.config import load_config

    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    for path in (fifo, "/dev/zero"):
        config = load_config(path, known_ids={"app.quit"})
        assert config.keymap == {} and len(config.problems) == 1
        assert "not a regular file" in config.problems[0]
