"""What the players' view shows (issue 12; docs/rules.md, "The players'
view"): the GM's settings, kept with the encounter so they are saved,
undone and replayed with the fight, and each combatant's visibility.  The
redaction itself is ``rules.players_view``."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, fields, replace
from typing import Any

from rules.text import shorten

#: How a combatant appears to the players: in full, as "Unknown creature",
#: or not at all.
VISIBILITIES: tuple[str, ...] = ("visible", "masked", "hidden")
VISIBLE, MASKED, HIDDEN = VISIBILITIES

#: How hit points appear: a band (healthy / hurt / bloodied / down), the
#: numbers, or nothing.
HP_MODES: tuple[str, ...] = ("band", "exact", "hidden")

#: The words a yes/no setting accepts (the first of each pair is canonical).
ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")


@dataclass(frozen=True)
class ViewSettings:
    """The players' view settings.  ``monster_hp`` / ``player_hp``: how HP
    show for non-players / players; ``show_al`` / ``show_initiative``:
    whether those numbers show; ``new_monsters``: the visibility a newly
    added non-player starts with; ``reveal_on_turn``: a hidden non-player
    becomes visible when its turn comes."""

    monster_hp: str = "band"
    player_hp: str = "exact"
    show_al: bool = False
    show_initiative: bool = True
    new_monsters: str = "visible"
    reveal_on_turn: bool = False

    def __post_init__(self) -> None:
        for key, value in self.to_dict().items():
            choices = CHOICES[key]
            if value not in choices or (choices is BOOLS and not isinstance(value, bool)):
                raise ValueError(f"view {key}: {value!r} is not one of {_words(key)}")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ViewSettings:
        """The settings in *data*; anything missing, unknown or malformed is
        the default, so a hand-edited or hostile file never stops a fight
        loading."""
        if not isinstance(data, Mapping):
            return cls()
        values: dict[str, Any] = {}
        for key, choices in CHOICES.items():
            value = data.get(key)
            if isinstance(value, bool) and choices is BOOLS:
                values[key] = value
            elif isinstance(value, str):
                with suppress(ValueError):
                    values[key] = setting_value(key, value)
        return cls(**values)


BOOLS: tuple[bool, ...] = (True, False)

#: Every setting and the values it takes.
CHOICES: dict[str, tuple[Any, ...]] = {
    "monster_hp": HP_MODES,
    "player_hp": HP_MODES,
    "show_al": BOOLS,
    "show_initiative": BOOLS,
    "new_monsters": VISIBILITIES,
    "reveal_on_turn": BOOLS,
}

#: The settings, in the order help lists them.
SETTINGS: tuple[str, ...] = tuple(CHOICES)


def _words(key: str) -> str:
    choices = CHOICES[key]
    return "on or off" if choices is BOOLS else ", ".join(choices)


def choices_of(key: str) -> tuple[str, ...]:
    """The words ``view KEY …`` takes (for completion and help)."""
    choices = CHOICES[key]
    return ("on", "off") if choices is BOOLS else tuple(choices)


def setting_value(key: str, word: str) -> bool | str:
    """The value *word* gives setting *key* (``on`` → True); ValueError
    saying what is allowed when it is not a setting or not a value of it."""
    key = key.strip().lower()
    if key not in CHOICES:
        raise ValueError(f"unknown setting {shorten(key)!r} (settings: {', '.join(SETTINGS)})")
    word = word.strip().lower()
    choices = CHOICES[key]
    if choices is BOOLS:
        if word in ON_WORDS:
            return True
        if word in OFF_WORDS:
            return False
    elif word in choices:
        return word
    raise ValueError(f"{key} is {_words(key)}, not {shorten(word)!r}")


def canonical_word(key: str, word: str) -> str:
    """*word* as the action language writes it (``yes`` → ``on``)."""
    value = setting_value(key, word)
    if isinstance(value, bool):
        return "on" if value else "off"
    return value


def changed(settings: ViewSettings, key: str, word: str) -> ViewSettings:
    """*settings* with *key* set to *word* (ValueError as :func:`setting_value`)."""
    changes: dict[str, Any] = {key.strip().lower(): setting_value(key, word)}
    return replace(settings, **changes)


#: How the log words each setting's value.
_SAID: dict[str, dict[Any, str]] = {
    "monster_hp": {
        "band": "the players see monsters' HP as a band (healthy, hurt, bloodied, down)",
        "exact": "the players see monsters' exact HP",
        "hidden": "the players see no monster HP",
    },
    "player_hp": {
        "band": "the players see player characters' HP as a band (healthy, hurt, bloodied, down)",
        "exact": "the players see player characters' exact HP",
        "hidden": "the players see no player character HP",
    },
    "show_al": {True: "the players see AL", False: "the players do not see AL"},
    "show_initiative": {
        True: "the players see initiative values",
        False: "the players do not see initiative values",
    },
    "new_monsters": {
        "visible": "new monsters are visible to the players",
        "masked": 'new monsters show to the players as "Unknown creature"',
        "hidden": "new monsters are hidden from the players",
    },
    "reveal_on_turn": {
        True: "a hidden monster is revealed to the players when its turn comes",
        False: "a hidden monster stays hidden when its turn comes",
    },
}


def describe_setting(settings: ViewSettings, key: str) -> str:
    """The log's words for setting *key*'s value in *settings*."""
    return _SAID[key][getattr(settings, key)]


def visibility_of(value: Any) -> str:
    """A saved visibility: missing (``None``) is ``visible``, so fights saved
    before visibilities existed load as they were shown; anything else not
    in :data:`VISIBILITIES` (a hand-edited file) is ``hidden``: a secret
    fails closed."""
    if value is None:
        return VISIBLE
    if isinstance(value, str) and value in VISIBILITIES:
        return value
    return HIDDEN
