"""Rulesets: named sets of rule options (RULES.md, preamble table).

Where the source texts disagree, the choice is an *option*; a *ruleset* is a
named set of option values.  Three ship (``core``, ``forge``, ``cinematic``);
a GM may override single options.  An encounter stores its ruleset as a plain
dict (``Ruleset.to_dict``) so a resumed fight plays by the same rules.
"""

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
}

#: what an option missing from an encounter saved before it existed means:
#: the way that encounter was played, not the new default.
SAVED_BEFORE: dict[str, Any] = {"down_turns": "keep"}

_COMMON: dict[str, Any] = {
    "persistent_dc": 20,
    "temp_hp": "keep-higher",
    "stack_cap": 10,
    "cover_half": 2,
    "cover_three_quarters": 5,
    "down_turns": "skip-monsters",
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


def _check_option(key: str, value: Any) -> Any:
    if key not in OPTIONS:
        raise RulesetError(f"unknown rule option {key!r} (known: {', '.join(OPTIONS)})")
    allowed, _ = OPTIONS[key]
    if allowed is int:
        if isinstance(value, bool):
            raise RulesetError(f"option {key!r} takes a whole number, not {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise RulesetError(f"option {key!r} takes a whole number, not {value!r}") from None
    assert isinstance(allowed, tuple)
    if value not in allowed:
        raise RulesetError(f"option {key!r} is one of {', '.join(allowed)}, not {value!r}")
    return value


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset with every option value resolved (RULES.md preamble)."""

    name: str = DEFAULT_RULESET
    options: Mapping[str, Any] = field(default_factory=lambda: dict(RULESETS[DEFAULT_RULESET]))

    def __getitem__(self, key: str) -> Any:
        return self.options[key]

    def with_options(self, **overrides: Any) -> Ruleset:
        """Return a copy with single options overridden (values validated)."""
        options = dict(self.options)
        for key, value in overrides.items():
            options[key] = _check_option(key, value)
        return Ruleset(self.name, options)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a stored ruleset; options missing from old saves get the
        named ruleset's defaults, or what the fight was played by before the
        option existed (:data:`SAVED_BEFORE`)."""
        name = str(data.get("name", DEFAULT_RULESET))
        base = RULESETS.get(name, RULESETS[DEFAULT_RULESET])
        stored = {**SAVED_BEFORE, **dict(data.get("options", {}))}
        unknown = [k for k in stored if k not in OPTIONS]
        for key in unknown:
            del stored[key]
        return Ruleset(name, dict(base)).with_options(**stored)


def ruleset(name: str = DEFAULT_RULESET, **overrides: Any) -> Ruleset:
    """The shipped ruleset *name*, with optional single-option overrides."""
    try:
        base = RULESETS[name]
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r} (choose {', '.join(RULESETS)})") from None
    return Ruleset(name, dict(base)).with_options(**overrides)
