"""The GM's settings and keymap, from ``config.toml`` in the user config
directory (``~/.config/combat-tracker/`` on Linux) or the file named by
``COMBAT_TRACKER_CONFIG``; the file and every entry are optional.

Format::

    [keys]
    # binding id = key, or several keys separated by commas
    # (ids are listed on the help screen, ``?``; key names as Textual spells
    # them: "n", "J", "space", "delete", "ctrl+z", "f5", "question_mark")
    "encounter.next_turn" = "n,enter"
    "combatant.damage" = "D"

    [settings]
    physical_rolls = false      # true: ask for the face of every roll
                                # (Enter on an empty face lets the program roll)
    theme = "textual-dark"      # any built-in Textual theme, e.g. "textual-light";
                                # a theme picked in the palette is saved here
    follow_turn = true          # false: the selection stays where the GM put
                                # it when the turn passes (g jumps to the turn)
    keep_marks = "until-next-turn"  # marks serve several actions and clear when
                                # the turn passes (or on Esc); "until-esc": only
                                # Esc clears them; "after-each-action": an action
                                # that used them clears them

A problem in the file never stops the tracker: the rest is used and each
problem is shown once, as one line naming it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules.text import first_unsafe, shorten, visible
from saves.fsutil import read_regular

APP_NAME = "combat-tracker"
#: ``keep_marks`` values: the marks clear on Esc only, also when the turn
#: passes (the default), or also after each action that used them.
KEEP_MARKS = ("until-esc", "until-next-turn", "after-each-action")
#: a keymap is a few KB; anything past this is not a config file
MAX_CONFIG_BYTES = 1024 * 1024


@dataclass
class Config:
    """Settings in effect, plus the problems found reading them."""

    keymap: dict[str, str] = field(default_factory=dict)
    physical_rolls: bool = False
    theme: str | None = None
    #: the selection moves to each new active combatant (marks stay)
    follow_turn: bool = True
    #: when the marks clear by themselves (:data:`KEEP_MARKS`; Esc always clears them)
    keep_marks: str = "until-next-turn"
    problems: list[str] = field(default_factory=list)
    path: Path | None = None


def config_path() -> Path:
    env = os.environ.get("COMBAT_TRACKER_CONFIG")
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME)) / "config.toml"


def load_config(path: Path | None = None, known_ids: set[str] | None = None) -> Config:
    """Read the config file (missing file → defaults); never raises."""
    path = path or config_path()
    config = Config(path=path)
    _read(path, config, known_ids)
    # a path from the environment may hold anything too
    config.problems = [visible(problem) for problem in config.problems]
    return config


def _read(path: Path, config: Config, known_ids: set[str] | None) -> None:
    def problem(message: str) -> None:
        config.problems.append(f"{path}: {message}")

    try:
        # not a FIFO or a device (/dev/zero must not fill the memory)
        raw = read_regular(path, MAX_CONFIG_BYTES + 1, follow=True)
    except FileNotFoundError:
        return
    except OSError as exc:
        config.problems.append(f"cannot read {path}: {exc.strerror or exc}")
        return
    if len(raw) > MAX_CONFIG_BYTES:
        problem("too large for a config file; using the default keys")
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = f"the byte 0x{raw[exc.start]:02X} at byte {exc.start + 1}"
        problem(f"not UTF-8 text ({byte}); using the default keys")
        return
    import tomllib  # only when there is a file: most starts have none

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # deep nesting recurses
        reason = "nested too deeply" if isinstance(exc, RecursionError) else shorten(str(exc))
        problem(f"not valid TOML ({reason}); using the default keys")
        return
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        problem('[keys] must be a table of id = "key"')
        keys = {}
    for key_id, key in keys.items():
        named = f"'{shorten(key_id)}'"
        if known_ids is not None and key_id not in known_ids:
            problem(f"unknown key id {named} (ids are listed under ?)")
        elif not isinstance(key, str) or not key.strip():
            problem(f"key for {named} must be a non-empty string")
        elif first_unsafe(key) >= 0:
            problem(f"key for {named} holds a control character ('{shorten(key)}')")
        elif (wrong := _key_problem(key)) is not None:
            problem(f"key for {named}: {wrong}")
        else:
            config.keymap[key_id] = key.strip()
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        problem("[settings] must be a table")
        settings = {}
    for name in ("physical_rolls", "follow_turn"):
        value = settings.get(name, getattr(config, name))
        if isinstance(value, bool):
            setattr(config, name, value)
        else:
            problem(f"{name} must be true or false")
    keep = settings.get("keep_marks", "until-next-turn")
    if isinstance(keep, bool):  # true: kept until Esc; false: cleared after each action
        keep = KEEP_MARKS[0] if keep else KEEP_MARKS[2]
    if keep in KEEP_MARKS:
        config.keep_marks = keep
    else:
        choices = ", ".join(f'"{k}"' for k in KEEP_MARKS)
        problem(f"keep_marks must be one of {choices}")
    theme = settings.get("theme")
    if theme is not None:
        if isinstance(theme, str) and first_unsafe(theme) < 0:
            config.theme = theme
        else:
            problem("theme must be a theme's name")


#: what may come before ``+`` in a key name (``ctrl+shift+z``)
_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def _key_problem(keys: str) -> str | None:
    """Why *keys* (``"n,enter"``) holds a key no keyboard sends, or None:
    a typo such as ``ctrl+`` or ``[b]``, or a bare ``,`` (the separator),
    would leave the action with no key and say nothing."""
    from textual.keys import REPLACED_KEYS, Keys, key_to_character

    named = {k.value for k in Keys} | set(REPLACED_KEYS)
    for key in keys.split(","):
        key = key.strip()
        if not key:
            return f"'{shorten(keys)}' has an empty key (a comma is written comma)"
        *modifiers, base = key.split("+")
        unknown = [m for m in modifiers if m not in _MODIFIERS]
        if unknown or not base:
            return f"'{shorten(key)}' is not a key name (modifiers: ctrl+, shift+, alt+, meta+)"
        if len(base) == 1 or base in named or key_to_character(base) is not None:
            continue
        return (
            f"'{shorten(key)}' is not a key name (as Textual spells them: n, J, f5, question_mark)"
        )
    return None


def save_setting(path: Path, key: str, value: str) -> str | None:
    """Set ``[settings] key = "value"`` in the config file at *path*, every
    other line kept as written, replaced atomically (through a symlink);
    None when saved, else one sentence why not (the file unchanged)."""
    import json
    import tomllib

    from saves.fsutil import atomic_write

    target = path.resolve() if path.is_symlink() else path
    try:
        raw = read_regular(target, MAX_CONFIG_BYTES + 1, follow=True)
    except FileNotFoundError:
        raw = b""
    except OSError as exc:
        return f"cannot read {path} to save the {key}: {exc.strerror or exc}"
    try:
        if len(raw) > MAX_CONFIG_BYTES:
            raise ValueError("too large for a config file")
        text = raw.decode("utf-8-sig")
        before = tomllib.loads(text)
    except (ValueError, RecursionError):  # UnicodeDecodeError, TOMLDecodeError are ValueErrors
        return f"{path} is not a config file the tracker can read: the {key} is not saved"
    updated = _with_setting(text, key, json.dumps(value, ensure_ascii=False))
    expected = dict(before)
    expected["settings"] = {**before.get("settings", {}), key: value}
    try:
        fits = tomllib.loads(updated) == expected
    except tomllib.TOMLDecodeError:
        fits = False
    if not fits:  # a layout this simple edit does not understand (dotted keys, inline tables)
        return f'{path}: could not add {key} = "{value}" to [settings]; edit it by hand'
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, updated.encode("utf-8"))
    except OSError as exc:
        return f"cannot save the {key} to {path}: {exc.strerror or exc}"
    return None


def _with_setting(text: str, key: str, literal: str) -> str:
    """*text* with ``key = literal`` in ``[settings]``: replaced, appended or a new table."""
    import re

    lines = text.splitlines(keepends=True)
    header = re.compile(r"\s*\[\s*settings\s*\]\s*(#.*)?$")
    table = re.compile(r"\s*\[")
    assignment = re.compile(rf"\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")
    start = next((i for i, line in enumerate(lines) if header.match(line.rstrip("\r\n"))), None)
    new_line = f"{key} = {literal}\n"
    if start is None:
        if text and not text.endswith("\n"):
            text += "\n"
        return text + ("\n" if text else "") + "[settings]\n" + new_line
    end = next((i for i in range(start + 1, len(lines)) if table.match(lines[i])), len(lines))
    for i in range(start + 1, end):
        if assignment.match(lines[i]):
            lines[i] = new_line
            return "".join(lines)
    # after the table's last line that is not blank (and that line ended)
    last = max((i for i in range(start, end) if lines[i].strip()), default=start)
    if not lines[last].endswith("\n"):
        lines[last] += "\n"
    lines.insert(last + 1, new_line)
    return "".join(lines)


def keymap_problems(
    tables: Sequence[Sequence[tuple[str, str]]], keymap: Mapping[str, str]
) -> list[str]:
    """One line per key the keymap binds to two actions or more on one
    screen (*tables*: ``(id, default keys)`` per screen), naming them and
    those it leaves with no key of their own."""
    problems: list[str] = []
    for table in tables:
        keys = {
            key_id: [k.strip() for k in keymap.get(key_id, default).split(",") if k.strip()]
            for key_id, default in table
        }
        owners: dict[str, list[str]] = {}
        for key_id, bound in keys.items():
            for key in dict.fromkeys(bound):
                owners.setdefault(key, []).append(key_id)
        for key, ids in owners.items():
            # only a clash the keymap made: the defaults never clash
            if len(ids) < 2 or not any(i in keymap for i in ids):
                continue
            keyless = [i for i in ids if all(len(owners[k]) > 1 for k in keys[i])]
            verb = "has" if len(keyless) == 1 else "have"
            left = f"; {' and '.join(keyless)} {verb} no other key" if keyless else ""
            problems.append(
                f"keymap: '{shorten(key)}' is bound to {' and '.join(ids)}, "
                f"only one of them works{left} (rebind one under [keys])"
            )
    return problems
