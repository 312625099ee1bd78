"""Prepared encounters: the TOML file a GM writes before the session (format
in the README and ``examples/goblin-ambush.toml``).  A file may come from
anyone, so every mistake is one :class:`PreparedError` line naming the
combatant and the key; nothing is altered to fit, and each combatant is
checked as the ``add`` action it becomes, so a file that parses builds."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from rules.abilities import ABILITIES
from rules.dice import MAX_LENGTH, DiceError, maximum
from rules.engine.grammar import ADD_VISIBILITY
from rules.engine.parse import normalize_action
from rules.engine.values import BOUNDS, MAX_COUNT, MAX_MODIFIER, MAX_NUMBER
from rules.engine.verbs_roster import name_taken, new_names
from rules.errors import ActionError
from rules.limits import MAX_COMBATANTS
from rules.rulesets import RULESETS, RulesetError, ruleset
from rules.text import (
    CARRIAGE_RETURN_ENDS_LINES,
    MAX_NAME,
    MAX_NOTES,
    MAX_TITLE,
    check_text,
    describe,
    name_key,
    shorten,
    stray_return,
    visible,
)


class PreparedError(ActionError):
    """A prepared-encounter file that cannot be used, with the reason (one
    line, of bounded length)."""


#: the longest file read, in characters (500 full combatants fit well within).
MAX_TEXT = 4_000_000
#: the most dots outside strings on one line, refused before parsing: the
#: TOML parser's memory grows with the square of a dotted key's depth.
MAX_DOTS = 64
#: the longest message: a file's mistake is reported in one short line.
MAX_MESSAGE = 300

_INT_KEYS = ("count", "al", "init", "bonus", "athletics")
_LIST_KEYS = ("immunities", "weaknesses", "susceptibilities")
_KNOWN = (
    "name", "player", "hp", "abilities", "resistances", "notes", "group", "view",
    *_INT_KEYS, *_LIST_KEYS,
)  # fmt: skip
_TOP = ("name", "ruleset", "options", "combatant")


@dataclass(frozen=True)
class Prepared:
    """A validated prepared encounter: ruleset name, option overrides and one
    dict per combatant entry (keys as in the file)."""

    ruleset: str = "core"
    options: dict[str, Any] = field(default_factory=dict)
    combatants: tuple[dict[str, Any], ...] = ()


_KINDS = (
    (bool, "true/false"),
    (int, "a whole number"),
    (float, "a decimal number"),
    (str, "text"),
    (list, "a list"),
    (dict, "a table"),
)


def _kind(value: Any) -> str:
    """What a TOML value is, for a message: never the value itself."""
    return next((kind for t, kind in _KINDS if isinstance(value, t)), "a date/time")


def _quote(text: str, limit: int = 40) -> str:
    return f"'{shorten(text, limit)}'"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(field: str, value: Any, limit: int) -> str:
    """*value* as checked text (NFC, no unsafe characters, at most *limit*)."""
    if not isinstance(value, str):
        raise PreparedError(f"{field} must be text, not {_kind(value)}")
    try:
        return check_text(field, value, limit)
    except ActionError as exc:
        raise PreparedError(str(exc)) from None


def _number(field: str, key: str, value: Any) -> int:
    """*value* as a whole number within ``BOUNDS[key]``; a bool, a float or
    text is an error, never converted."""
    if not _is_int(value):
        raise PreparedError(f"{field} must be a whole number, not {_kind(value)}")
    low, high = BOUNDS.get(key, (-MAX_MODIFIER, MAX_MODIFIER))
    if value > high:
        raise PreparedError(f"{field} {shorten(f'{value:,}', 20)} is too large (at most {high:,})")
    if value < low:
        raise PreparedError(f"{field} {shorten(f'{value:,}', 20)} is too small (at least {low:,})")
    return value


def _tag(field: str, value: Any, example: str = '["fire", "cold"]') -> str:
    """One lower-cased damage tag, without the action language's separators
    ``,`` and ``=``; *example* shows how to write two tags instead."""
    tag = _text(field, value, MAX_NAME).strip().lower()
    if not tag:
        raise PreparedError(f"{field}: a tag cannot be empty")
    for sep in (",", "="):
        if sep in tag:
            raise PreparedError(
                f"{field}: a tag cannot contain {sep!r} ({_quote(tag)}; "
                f"write one tag per entry, like {example})"
            )
    return tag


def _hp(field: str, value: Any) -> int | str:
    if _is_int(value):
        return _number(field, "hp", value)
    if not isinstance(value, str):
        raise PreparedError(f'{field} must be a number or dice like "2d8+4", not {_kind(value)}')
    text = _text(field, value, MAX_LENGTH)
    if _PLAIN_NUMBER.fullmatch(text):  # "12" is the number 12, bounded alike
        return _number(field, "hp", int(text))
    try:
        highest = maximum(text)
    except DiceError as exc:
        raise PreparedError(f"{field} {_quote(text)}: {shorten(str(exc), 120)}") from None
    if highest > MAX_NUMBER:
        raise PreparedError(
            f"{field} {_quote(text)} can total {highest:,} (at most {MAX_NUMBER:,})"
        )
    return text


_PLAIN_NUMBER = re.compile(r"\s*[+-]?[0-9]{1,12}\s*")


def _abilities(field: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise PreparedError(f"{field} must be a table like {{ dex = 14 }}, not {_kind(value)}")
    clean: dict[str, int] = {}
    for key, score in value.items():
        name = key.lower()
        if name not in ABILITIES:
            raise PreparedError(
                f"{field}: unknown ability {_quote(key)} (known: {', '.join(ABILITIES)})"
            )
        if name in clean:
            raise PreparedError(f"{field}: {name} is given twice")
        if not _is_int(score):
            raise PreparedError(f"{field}: {name} must be a score from 1 to 30, not {_kind(score)}")
        if not 1 <= score <= 30:
            raise PreparedError(f"{field}: {name} must be a score from 1 to 30, not {score:,}")
        clean[name] = score
    return clean


def _tags(field: str, value: Any) -> list[str]:
    if not isinstance(value, list):
        raise PreparedError(f'{field} must be a list of tags like ["fire"], not {_kind(value)}')
    return list(dict.fromkeys(_tag(f"{field} #{i}", t) for i, t in enumerate(value, 1)))


def _resistances(field: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise PreparedError(f"{field} must be a table like {{ fire = 5 }}, not {_kind(value)}")
    clean: dict[str, int] = {}
    for key, amount in value.items():
        tag = _tag(field, key, "{ fire = 2, cold = 2 }")
        if tag in clean:
            raise PreparedError(f"{field}: {_quote(tag)} is given twice")
        clean[tag] = _number(f"{field} {shorten(tag, 40)}", "resist", amount)
    return clean


def _name(where: str, raw: dict[str, Any]) -> str:
    if "name" not in raw:
        raise PreparedError(f"{where}: needs a name")
    name = _text(f"{where}: name", raw["name"], MAX_NAME).strip()
    if not name:
        raise PreparedError(f"{where}: needs a name")
    if "," in name:
        raise PreparedError(
            f"{where}: name {_quote(name)} cannot contain a comma (commas separate targets)"
        )
    return name


def _combatant(index: int, raw: Any) -> dict[str, Any]:
    where = f"combatant #{index}"
    if not isinstance(raw, dict):
        raise PreparedError(f"{where}: expected a table of keys, not {_kind(raw)}")
    name = _name(where, raw)
    where = f"combatant #{index} {_quote(name)}"
    unknown = sorted(set(raw) - set(_KNOWN))
    if unknown:
        raise PreparedError(
            f"{where}: unknown key {_quote(unknown[0])} (known: {', '.join(sorted(_KNOWN))})"
        )
    if "hp" not in raw:
        raise PreparedError(f'{where}: needs hp (a number, or dice like "2d8+4")')
    out: dict[str, Any] = {"name": name}
    for key in _INT_KEYS:
        if key in raw:
            out[key] = _number(f"{where}: {key}", key, raw[key])
    out["hp"] = _hp(f"{where}: hp", raw["hp"])
    if "player" in raw:
        if not isinstance(raw["player"], bool):
            raise PreparedError(
                f"{where}: player must be true or false, not {_kind(raw['player'])}"
            )
        out["player"] = raw["player"]
    if "notes" in raw:
        out["notes"] = _text(f"{where}: notes", raw["notes"], MAX_NOTES)
    if "abilities" in raw:
        out["abilities"] = _abilities(f"{where}: abilities", raw["abilities"])
    for key in _LIST_KEYS:
        if key in raw:
            out[key] = _tags(f"{where}: {key}", raw[key])
    if "resistances" in raw:
        out["resistances"] = _resistances(f"{where}: resistances", raw["resistances"])
    out.update(_group_and_view(where, raw))
    try:  # the add action it becomes: whatever the engine refuses, say now
        normalize_action({"verb": "add", **out})
    except ActionError as exc:
        problem = str(exc).split("  (usage:")[0]
        raise PreparedError(f"{where}: {shorten(problem, 160)}") from None
    return out


def _group_and_view(where: str, raw: dict[str, Any]) -> dict[str, Any]:
    """``group = true`` (the group named after the entry) or a group's name,
    and ``view`` (how the players' view shows them): the add action's
    ``group [NAME]`` and ``visible|masked|hidden``."""
    out: dict[str, Any] = {}
    group = raw.get("group", False)
    if isinstance(group, str):
        out["group"] = _text(f"{where}: group", group, MAX_NAME)
    elif group is True:
        out["group"] = True
    elif group is not False:
        raise PreparedError(f"{where}: group must be true or a group's name, not {_kind(group)}")
    if "view" in raw:
        view = raw["view"]
        if not isinstance(view, str) or view not in ADD_VISIBILITY:
            shown = _quote(view) if isinstance(view, str) else _kind(view)
            raise PreparedError(
                f"{where}: view must be one of {', '.join(ADD_VISIBILITY)}, not {shown}"
            )
        out[view] = True
    return out


def _dotted_too_deep(text: str) -> int:
    """The 1-based number of the first line with more than :data:`MAX_DOTS`
    dots outside strings and comments, or 0."""
    line, dots = 1, 0
    for match in _LEXEME.finditer(text):
        lexeme = match.group()
        if lexeme == ".":
            dots += 1
            if dots > MAX_DOTS:
                return line
        elif lexeme == "\n":
            line, dots = line + 1, 0
        else:  # a string or a comment: its newlines still count as lines
            line += lexeme.count("\n")
            dots = 0 if "\n" in lexeme else dots
    return 0


_LEXEME = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^']|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[.\n]",
    re.DOTALL,
)


def _load(text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        raise PreparedError(f"a prepared encounter is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise PreparedError(
            f"the file is too large ({len(text):,} characters; at most {MAX_TEXT:,})"
        )
    stray = stray_return(text)
    if stray >= 0:  # TOML's own message would not name it
        line = text.count("\n", 0, stray) + 1
        column = stray - (text.rfind("\n", 0, stray) + 1) + 1
        raise PreparedError(
            f"line {line}: {describe(chr(13))} at character {column}: {CARRIAGE_RETURN_ENDS_LINES}"
        )
    text = text.rstrip(" \t\r") if text.endswith("\r") else text  # a CR LF cut short
    deep = _dotted_too_deep(text)
    if deep:
        raise PreparedError(f"line {deep}: keys nested too deeply (more than {MAX_DOTS} dots)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "cannot be parsed"
        raise PreparedError(f"not valid TOML: {shorten(first, 200)}") from None
    except RecursionError:
        raise PreparedError("not valid TOML: values nested too deeply") from None


def _options(name: Any, options: Any) -> tuple[str, dict[str, Any]]:
    if not isinstance(name, str):
        raise PreparedError(f'ruleset must be text like "core", not {_kind(name)}')
    if name not in RULESETS:
        raise PreparedError(f"unknown ruleset {_quote(name)} (choose {', '.join(RULESETS)})")
    if not isinstance(options, dict):
        raise PreparedError(f"[options] must be a table of rule options, not {_kind(options)}")
    try:  # the same checks as `new --option KEY=VALUE` (rules.rulesets)
        rules = ruleset(name, **options)
    except RulesetError as exc:
        raise PreparedError(f"[options] {exc}") from None
    return name, {key: rules[key] for key in options}


def _count(raw: Any) -> int:
    """An entry's count for the roster total: a bad count counts as 1 here
    (its own error comes when the entry is checked)."""
    count = raw.get("count", 1) if isinstance(raw, dict) else 1
    return count if _is_int(count) and 1 <= count <= MAX_COUNT else 1


def parse_prepared(text: str) -> Prepared:
    """Validate a prepared-encounter TOML text; :class:`PreparedError` is
    one line naming the combatant and key."""
    try:
        return _parse(text)
    except PreparedError as exc:  # one line, bounded, nothing raw from the file
        raise PreparedError(shorten(visible(str(exc)), MAX_MESSAGE)) from None


def _parse(text: str) -> Prepared:
    data = _load(text)
    unknown = sorted(set(data) - set(_TOP))
    if unknown:
        raise PreparedError(
            f"unknown top-level key {_quote(unknown[0])} (known: {', '.join(_TOP)})"
        )
    if "name" in data:
        _text("name", data["name"], MAX_TITLE)
    name, options = _options(data.get("ruleset", "core"), data.get("options", {}))
    raw = data.get("combatant", [])
    if not isinstance(raw, list):
        raise PreparedError(f"write each combatant as a [[combatant]] table, not {_kind(raw)}")
    total = sum(_count(c) for c in raw)
    if total > MAX_COMBATANTS:  # before checking (or building) any of them
        raise PreparedError(
            f"an encounter holds at most {MAX_COMBATANTS} combatants; "
            f"this file would make {total:,}"
        )
    entries = tuple(_combatant(i + 1, c) for i, c in enumerate(raw))
    _name_roster(entries)
    return Prepared(name, options, entries)


def _name_roster(entries: tuple[dict[str, Any], ...]) -> None:
    """Name every combatant as the engine will, refusing a numbered name too
    long and an entry named like a member of an earlier group (``Gob 2``
    after ``Gob`` with ``count = 3``), which the engine would renumber."""
    names: list[str] = []
    made_by: dict[str, tuple[int, str]] = {}  # name key → (entry, its typed name's key)
    for i, entry in enumerate(entries, 1):
        where = f"combatant #{i} {_quote(entry['name'])}"
        typed = name_key(entry["name"])
        earlier = made_by.get(typed)
        if earlier is not None and earlier[1] != typed:
            raise PreparedError(
                f"{where}: combatant #{earlier[0]} already makes that name; give each "
                "entry its own name"
            )
        try:
            made = new_names(names, entry["name"], entry.get("count"))
        except ActionError as exc:
            raise PreparedError(f"{where}: {shorten(str(exc), 160)}") from None
        names += made
        made_by.update((name_key(n), (i, typed)) for n in made)


def add_actions(prepared: Prepared) -> list[dict[str, Any]]:
    """One ``add`` action per entry: a prepared encounter is built by the
    same logged, undoable actions as a hand-typed one."""
    actions = []
    names: list[str] = []
    for entry in prepared.combatants:
        action: dict[str, Any] = {"verb": "add"}
        action.update(entry)
        if action.get("count") is None and name_taken(names, entry["name"]):
            action["count"] = 1  # two entries named alike: numbered, as the file says
        names += new_names(names, entry["name"], action.get("count"))
        actions.append(action)
    return actions
