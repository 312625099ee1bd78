"""Rulesets (RULES.md, preamble table): where the sources disagree the
choice is an *option*, and a ruleset is a named set of option values.  An
encounter stores every value, so a resumed fight plays by the same rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Every option, its allowed values (a tuple) or type (``int``), and a one-line
#: description for help screens.
OPTIONS: dict[str, tuple[tuple[str, ...] | type, str]] = {
    "advantage": (("alternate", "stack", "cap2"), "how several advantages combine (RULES.md §2)"),
    "natural": (("step", "crit"), "what a natural 20 / natural 1 does (§3)"),
    "resistance": (("halve", "subtract"), "how a resistance reduces damage (§5)"),
    "critical_damage": (("double-total", "double-dice"), "how a critical hit doubles damage (§5)"),
    "persistent_dc": (int, "default flat DC to end persistent damage (§7)"),
    "temp_hp": (("keep-higher", "add"), "temp HP from a second source (§6)"),
    "stack_cap": (int, "most extra d20s under the `stack` advantage mode (§2)"),
    "cover_half": (int, "AL bonus of half cover (§9)"),
    "cover_three_quarters": (int, "AL bonus of three-quarters cover (§9)"),
    "down_turns": (
        ("skip-monsters", "keep"),
        "whether a down non-player combatant's turns are skipped (§4, §7)",
    ),
    "down_persistent": (
        ("stop", "tick"),
        "whether persistent damage ticks on a combatant taking a turn while down (§7)",
    ),
}

#: what an option missing from an encounter saved before it existed means:
#: the way that encounter was played, not the new default.
SAVED_BEFORE: dict[str, Any] = {"down_turns": "keep", "down_persistent": "tick"}

_COMMON: dict[str, Any] = {
    "persistent_dc": 20,
    "temp_hp": "keep-higher",
    "stack_cap": 10,
    "cover_half": 2,
    "cover_three_quarters": 5,
    "down_turns": "skip-monsters",
    "down_persistent": "stop",
}

#: The shipped rulesets, as data (RULES.md preamble table).
RULESETS: dict[str, dict[str, Any]] = {
    "core": {
        "advantage": "alternate",
        "natural": "step",
        "resistance": "halve",
        "critical_damage": "double-total",
        **_COMMON,
    },
    "forge": {
        "advantage": "stack",
        "natural": "crit",
        "resistance": "subtract",
        "critical_damage": "double-dice",
        **_COMMON,
    },
    "cinematic": {
        "advantage": "cap2",
        "natural": "crit",
        "resistance": "subtract",
        "critical_damage": "double-dice",
        **_COMMON,
    },
}

DEFAULT_RULESET = "core"


class RulesetError(ValueError):
    """An unknown ruleset, option or option value."""


#: (lowest, highest) of each whole-number option: guards against typos, not
#: rules.  They mirror ``rules.engine.grammar``'s bounds, copied so that
#: loading a ruleset never imports the parser.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "persistent_dc": (1, 1000),
    "stack_cap": (1, 100),
    "cover_half": (0, 1000),
    "cover_three_quarters": (0, 1000),
}


def _quoted(value: Any) -> str:
    """*value* for an error message: text shortened and made visible,
    anything else by its type."""
    from rules.text import shorten

    if isinstance(value, str):
        return f"'{shorten(value, 40)}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return shorten(repr(value), 40)
    # what a TOML file can hold besides: tables, lists, dates and times
    kinds = {"dict": "a table", "list": "a list", "datetime": "a date/time"}
    return kinds.get(type(value).__name__, f"a {type(value).__name__}")


def _whole_number(key: str, value: Any) -> int:
    """*value* as an int: an int (not a bool) or signed decimal digits
    (``--option stack_cap=3``); a float is an error, never truncated."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if digits.isascii() and digits.isdigit() and len(digits) <= 12:
            return int(text)
    raise RulesetError(f"option {key!r} takes a whole number, not {_quoted(value)}")


def _check_option(key: Any, value: Any, bounds: bool = True) -> Any:
    """*value* checked for option *key*: one of its words, or a whole number
    within :data:`INT_BOUNDS` (unless *bounds* is false: an encounter saved
    before the bounds existed keeps the rules it was played with)."""
    if not isinstance(key, str) or key not in OPTIONS:
        raise RulesetError(f"unknown rule option {_quoted(key)} (known: {', '.join(OPTIONS)})")
    allowed, _ = OPTIONS[key]
    if allowed is int:
        number = _whole_number(key, value)
        low, high = INT_BOUNDS[key]
        if bounds and not low <= number <= high:
            raise RulesetError(
                f"option {key!r} is a whole number from {low} to {high:,}, not {number:,}"
            )
        return number
    assert isinstance(allowed, tuple)
    if not isinstance(value, str) or value not in allowed:
        raise RulesetError(f"option {key!r} is one of {', '.join(allowed)}, not {_quoted(value)}")
    return value


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset with every option value resolved (RULES.md preamble)."""

    name: str = DEFAULT_RULESET
    options: Mapping[str, Any] = field(default_factory=lambda: dict(RULESETS[DEFAULT_RULESET]))

    def __getitem__(self, key: str) -> Any:
        return self.options[key]

    def with_options(self, **overrides: Any) -> Ruleset:
        """A copy with single options overridden (values validated)."""
        checked = {key: _check_option(key, value) for key, value in overrides.items()}
        return Ruleset(self.name, {**self.options, **checked})

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a stored ruleset; a missing option gets :data:`SAVED_BEFORE`
        (how fights were played before it existed) or the ruleset's default."""
        name = str(data.get("name", DEFAULT_RULESET))
        base = RULESETS.get(name, RULESETS[DEFAULT_RULESET])
        stored = {**SAVED_BEFORE, **dict(data.get("options", {}))}
        checked = {k: _check_option(k, v, bounds=False) for k, v in stored.items() if k in OPTIONS}
        return Ruleset(name, {**base, **checked})


def ruleset(name: str = DEFAULT_RULESET, **overrides: Any) -> Ruleset:
    """The shipped ruleset *name*, with optional single-option overrides."""
    if not isinstance(name, str) or name not in RULESETS:
        raise RulesetError(f"unknown ruleset {_quoted(name)} (choose {', '.join(RULESETS)})")
    return Ruleset(name, dict(RULESETS[name])).with_options(**overrides)
