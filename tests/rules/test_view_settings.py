"""The players' view settings and visibilities as saved (issue 12): they
round-trip, a fight saved before they existed loads as it was shown, and a
hand-edited or hostile file never stops a fight from loading nor makes a
secret combatant show."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.view_settings import (
    CHOICES,
    ViewSettings,
    canonical_word,
    changed,
    describe_setting,
    setting_value,
)

EVERY = [
    ViewSettings(monster_hp=m, player_hp=p, show_al=al, new_monsters=n, reveal_on_turn=r)
    for m, p, al, n, r in product(
        ("band", "exact", "hidden"),
        ("band", "exact", "hidden"),
        (True, False),
        ("visible", "masked", "hidden"),
        (True, False),
    )
]


@pytest.mark.parametrize("settings", EVERY[::7] + EVERY[-1:])
def test_settings_round_trip_through_a_dict(settings: ViewSettings) -> None:
    assert ViewSettings.from_dict(settings.to_dict()) == settings


def test_missing_settings_are_the_defaults() -> None:
    default = ViewSettings()
    assert default.monster_hp == "band" and default.player_hp == "exact"
    assert default.show_al is False and default.show_initiative is True
    assert default.new_monsters == "visible" and default.reveal_on_turn is False
    assert ViewSettings.from_dict({}) == default
    assert ViewSettings.from_dict(None) == default


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"monster_hp": "EXACT "}, ViewSettings(monster_hp="exact")),
        ({"monster_hp": "numbers"}, ViewSettings()),
        ({"monster_hp": 3, "player_hp": None}, ViewSettings()),
        (
            {"show_al": "yes", "show_initiative": "off"},
            ViewSettings(show_al=True, show_initiative=False),
        ),
        ({"show_al": 1, "reveal_on_turn": []}, ViewSettings()),  # 1 is not a yes/no
        ({"new_monsters": "hidden", "unknown": 5}, ViewSettings(new_monsters="hidden")),
    ],
)
def test_a_bad_value_is_the_default_and_the_rest_is_kept(
    data: dict[str, Any], expected: ViewSettings
) -> None:
    assert ViewSettings.from_dict(data) == expected


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


@given(
    st.one_of(
        JSONISH,
        st.dictionaries(st.sampled_from(sorted(CHOICES)), JSONISH, max_size=6),
    )
)
def test_from_dict_never_raises(data: Any) -> None:
    settings = ViewSettings.from_dict(data)
    assert ViewSettings.from_dict(settings.to_dict()) == settings


def test_a_setting_cannot_be_built_with_a_bad_value() -> None:
    with pytest.raises(ValueError, match="monster_hp"):
        ViewSettings(monster_hp="numbers")
    with pytest.raises(ValueError, match="show_al"):
        ViewSettings(show_al=1)  # type: ignore[arg-type]


def test_words_of_the_view_verb() -> None:
    assert setting_value("show_al", "Yes") is True
    assert canonical_word("reveal_on_turn", "true") == "on"
    assert canonical_word("new_monsters", "MASKED") == "masked"
    assert changed(ViewSettings(), "monster_hp", "hidden").monster_hp == "hidden"
    with pytest.raises(ValueError, match="settings: monster_hp"):
        setting_value("colour", "red")
    with pytest.raises(ValueError, match="band, exact, hidden"):
        setting_value("player_hp", "maybe")
    for key in CHOICES:
        assert describe_setting(ViewSettings(), key)  # every value has words


# ---------------------------------------------------------------------------
# on the encounter and the combatant, as saved


def test_an_encounter_saved_before_the_view_existed_loads_with_the_defaults() -> None:
    old = {"name": "Crypt", "combatants": [{"name": "Ogre", "max_hp": 9, "hp": 9}]}
    enc = Encounter.from_dict(old)
    assert enc.view == ViewSettings()
    assert enc.combatants[0].visibility == "visible"
    # and it writes back what it was: old journals still fit it exactly
    assert "view" not in enc.to_dict()
    assert "visibility" not in enc.combatants[0].to_dict()


def test_view_and_visibility_round_trip_with_the_encounter() -> None:
    enc = Encounter(
        "Crypt",
        combatants=(
            Combatant("Ogre", 9, 9, visibility="masked"),
            Combatant("Spy", 4, 4, visibility="hidden"),
        ),
        view=ViewSettings(monster_hp="hidden", reveal_on_turn=True),
    )
    assert Encounter.from_dict(enc.to_dict()) == enc


@pytest.mark.parametrize("value", ["HIDDEN", "secret", 3, ["hidden"], True])
def test_a_garbled_visibility_fails_closed(value: Any) -> None:
    data = {"name": "Spy", "max_hp": 4, "hp": 4, "visibility": value}
    assert Combatant.from_dict(data).visibility == "hidden"


def test_a_saved_player_is_always_visible() -> None:
    data = {"name": "Mira", "max_hp": 4, "hp": 4, "player": True, "visibility": "hidden"}
    assert Combatant.from_dict(data).visibility == "visible"
