"""Prepared files as an attacker writes them (issue 9): random TOML
documents — tables, lists, text with control characters, huge and odd
numbers, inf and nan, booleans, dates — at the top level, in [options], in
[[combatant]] and in nested tables.  ``parse_prepared`` returns a Prepared
that builds, or raises PreparedError with one short line; ``combat-tracker
new X --from FILE`` exits 1 with one line on stderr and creates nothing."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Session
from rules.prepared import MAX_MESSAGE, Prepared, PreparedError, add_actions, parse_prepared
from rules.rulesets import OPTIONS, RULESETS
from rules.text import first_unsafe
from tracker.cli import main

# -- a tiny TOML writer (tomli_w is not a dependency) ---------------------------


def _string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def value(v: Any) -> str:
    """One TOML value, inline."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, dt.datetime | dt.date | dt.time):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    assert isinstance(v, dict)
    return "{" + ", ".join(f"{_string(k)} = {value(x)}" for k, x in v.items()) + "}"


def document(doc: dict[str, Any]) -> str:
    """A TOML document: scalars first, then tables as ``[key]`` sections and
    lists of tables as ``[[key]]`` sections (what a GM writes), anything
    deeper inline."""
    lines, sections = [], []
    for k, v in doc.items():
        if isinstance(v, dict):
            sections.append(f"[{_string(k)}]")
            sections += [f"{_string(kk)} = {value(vv)}" for kk, vv in v.items()]
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for table in v:
                sections.append(f"[[{_string(k)}]]")
                sections += [f"{_string(kk)} = {value(vv)}" for kk, vv in table.items()]
        else:
            lines.append(f"{_string(k)} = {value(v)}")
    return "\n".join(lines + sections) + "\n"


# -- strategies ------------------------------------------------------------------

HOSTILE = ("", " ", "fire,cold", "a=b", "[/b]", "\u202egoblin", "x" * 5000, "2d6", "3d0", "a\nb")
hostile_text = st.one_of(
    st.text(max_size=30),
    st.text(max_size=12).map(lambda t: t + "\x1b]52;c;eA==\x1b\\"),
    st.sampled_from(HOSTILE),
)
numbers = st.one_of(
    st.integers(-5, 40),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("inf"), float("-inf"), float("nan"), 2.5, 3.0]),
)
scalars = st.one_of(
    hostile_text,
    numbers,
    st.booleans(),
    st.datetimes(min_value=dt.datetime(1000, 1, 1)),
    st.dates(min_value=dt.date(1000, 1, 1)),
    st.times(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=8,
)


def maybe(plausible: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a value that could be right, sometimes anything."""
    return st.integers(0, 5).flatmap(lambda n: values if n == 3 else plausible)


_ABSENT = object()


def rarely(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """An unknown key, now and then (mostly absent)."""
    return st.integers(0, 9).flatmap(lambda n: strategy if n == 5 else st.just(_ABSENT))


def _present(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not _ABSENT}


def odd(good: st.SearchStrategy[Any], *bad: Any) -> st.SearchStrategy[Any]:
    """Mostly a *good* value, now and then one of the *bad* ones."""
    return st.integers(0, 7).flatmap(lambda n: st.sampled_from(bad) if n == 5 else good)


tags = odd(st.sampled_from(["fire", "cold", "Poison", "cold iron"]), "fire,cold", "a=1", "", "\x07")
scores = odd(st.integers(1, 30), 0, 31, "x", 2.5, True)
combatant = st.fixed_dictionaries(
    {
        "name": maybe(odd(st.sampled_from(["Goblin", "Ogre", "Café"]), "Orc, Chief", "x" * 61)),
        "hp": maybe(odd(st.one_of(st.integers(1, 50), st.just("2d6")), 0, "999999+2", "d0")),
    },
    optional={
        "count": maybe(odd(st.integers(1, 5), 0, 101, True, 2.5)),
        "al": maybe(odd(st.integers(-20, 40), 1001, -1001)),
        "init": maybe(st.integers(-5, 30)),
        "bonus": maybe(st.integers(-5, 5)),
        "athletics": maybe(st.integers(-5, 5)),
        "player": maybe(st.booleans()),
        "notes": maybe(odd(st.just("Flees below 3 HP."), *HOSTILE)),
        "abilities": maybe(
            st.dictionaries(odd(st.sampled_from(["dex", "con", "luck"]), "DEX", "speed"), scores)
        ),
        "immunities": maybe(st.lists(tags, max_size=3)),
        "weaknesses": maybe(st.lists(tags, max_size=3)),
        "susceptibilities": maybe(st.lists(tags, max_size=3)),
        "resistances": maybe(st.dictionaries(tags, maybe(odd(st.integers(0, 20), -1)), max_size=3)),
        "speed": rarely(values),
    },
).map(_present)


def _option_value(key: str) -> st.SearchStrategy[Any]:
    allowed = OPTIONS[key][0]
    good = st.sampled_from(allowed) if isinstance(allowed, tuple) else st.integers(-1, 30)
    return maybe(good)


option_pairs = maybe(st.sampled_from(sorted(OPTIONS))).flatmap(
    lambda key: st.tuples(
        st.just(key), _option_value(key) if isinstance(key, str) and key in OPTIONS else values
    )
)
options = st.lists(option_pairs, max_size=3).map(
    lambda pairs: {k if isinstance(k, str) else str(k): v for k, v in pairs}
)
documents = st.fixed_dictionaries(
    {"combatant": maybe(st.lists(combatant, max_size=3))},
    optional={
        "ruleset": maybe(st.sampled_from([*RULESETS, "gritty"])),
        "options": maybe(options),
        "name": rarely(hostile_text),
        "extra": rarely(values),
    },
).map(_present)


def _mangle(text: str, data: st.DataObject) -> str:
    """Sometimes break the document: cut it, or splice in a few characters."""
    how = data.draw(st.sampled_from(["keep"] * 6 + ["cut", "splice"]))
    if how == "keep" or not text:
        return text
    at = data.draw(st.integers(0, len(text)))
    if how == "cut":
        return text[:at]
    return text[:at] + data.draw(st.text(max_size=5)) + text[at:]


def check(text: str) -> Prepared | None:
    """parse_prepared's contract: a Prepared that builds, or one short line."""
    try:
        prepared = parse_prepared(text)
    except PreparedError as exc:
        message = str(exc)
        assert message and len(message) <= MAX_MESSAGE and "\n" not in message
        assert first_unsafe(message) < 0, message
        return None
    session = Session(rng=random.Random(3))
    for action in add_actions(prepared):
        session.apply(action)  # a file that parses builds
    assert len(session.encounter.combatants) == sum(c.get("count", 1) for c in prepared.combatants)
    return prepared


@given(documents, st.data())
@settings(max_examples=100, deadline=None)
def test_any_document_is_built_or_refused_in_one_line(doc: dict[str, Any], data: Any) -> None:
    check(_mangle(document(doc), data))


@given(st.lists(st.sampled_from(["[", "]", "{", "}", "a", "=", "1", ",", ".", '"', "\n", "#"])))
@settings(max_examples=100, deadline=None)
def test_toml_punctuation_soup_is_refused_in_one_line(pieces: list[str]) -> None:
    check("".join(pieces))


# -- the command line ------------------------------------------------------------


@pytest.fixture(autouse=True)
def _crash_reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a crash would be a bug; its report must not land in the user's files
    monkeypatch.setenv("COMBAT_TRACKER_STATE", str(tmp_path / "state"))


def cli(db: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--db", str(db), "--seed", "7", *args])
    return status, out.getvalue(), err.getvalue()


def listed(db: Path) -> list[Any]:
    status, out, _ = cli(db, "list", "--json")
    assert status == 0
    return list(json.loads(out))


def assert_refused(status: int, err: str, db: Path) -> None:
    assert status == 1, err
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and first_unsafe(err[:-1]) < 0, err
    assert listed(db) == []


@given(documents, st.data())
@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_new_from_any_file_creates_it_or_exits_1_with_one_line(
    doc: dict[str, Any], data: Any
) -> None:
    text = _mangle(document(doc), data)
    with tempfile.TemporaryDirectory() as tmp:
        path, db = Path(tmp) / "fight.toml", Path(tmp) / "encounters.json"
        path.write_text(text, encoding="utf-8")
        status, _, err = cli(db, "new", "Fight", "--from", str(path))
        try:
            prepared = parse_prepared(text)
        except PreparedError:
            assert_refused(status, err, db)
        else:
            assert status == 0, err
            expected = sum(c.get("count", 1) for c in prepared.combatants)
            assert [e["combatants"] for e in listed(db)] == [expected]


HOSTILE_FILES = {
    "ruleset-list": "ruleset = []\n",
    "stack-cap-inf": "[options]\nstack_cap = inf\n",
    "deep-arrays": "a = " + "[" * 3000 + "]" * 3000 + "\n",
    "deep-keys": "a" + ".a" * 50_000 + " = 1\n",
    "osc52-name": '[[combatant]]\nname = "Imp\\u001b]52;c;cm0gLXJmIH4=\\u0007"\nhp = 5\n',
    "too-many": '[[combatant]]\nname = "Goblin"\ncount = 100\nhp = 1\n' * 6,
    "syntax": "[[combatant]\nname = 'Ogre'\n",
}


@pytest.mark.parametrize("text", HOSTILE_FILES.values(), ids=HOSTILE_FILES.keys())
def test_hostile_files_exit_1_with_one_line_in_process(tmp_path: Path, text: str) -> None:
    path, db = tmp_path / "bad.toml", tmp_path / "encounters.json"
    path.write_text(text, encoding="utf-8")
    status, _, err = cli(db, "new", "Fight", "--from", str(path))
    assert_refused(status, err, db)


@pytest.mark.parametrize("name", ["ruleset-list", "deep-keys", "osc52-name"])
def test_hostile_files_exit_1_with_one_line_in_a_real_process(tmp_path: Path, name: str) -> None:
    path, db = tmp_path / "bad.toml", tmp_path / "encounters.json"
    path.write_text(HOSTILE_FILES[name], encoding="utf-8")
    env = {**os.environ, "COMBAT_TRACKER_STATE": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-m", "tracker", "--db", str(db), "new", "Fight", "--from", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "\x1b" not in done.stderr
    assert listed(db) == []


@pytest.mark.parametrize(
    ("option", "fragment"),
    [
        ("stack_cap=inf", "whole number"),
        ("stack_cap=2.5", "whole number"),
        ("cover_half=-2", "from 0 to 1,000"),
        ("persistent_dc=" + "9" * 5000, "whole number"),
        ("resistance=double", "one of halve, subtract"),
    ],
)
def test_new_option_goes_through_the_same_checks(
    tmp_path: Path, option: str, fragment: str
) -> None:
    db = tmp_path / "encounters.json"
    status, _, err = cli(db, "new", "Fight", "--option", option)
    assert_refused(status, err, db)
    assert fragment in err and len(err) < 300
