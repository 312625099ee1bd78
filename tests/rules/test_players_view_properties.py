"""Property tests of the players' view (issue 12): for random fights and
random settings, nothing of a hidden combatant (name, HP, conditions,
persistent damage) and nothing but the place of a masked one reaches the
serialized view, no unsafe character reaches it, and a hidden turn shows
exactly as a visible turn beside it (the one just played or the one to come).

Every secret carries a unique ASCII marker (``HN3Q``: hidden name of
combatant 3) and every secret number is a six-digit one while the rest are
below 1000, so finding one in the JSON is a leak, never a coincidence."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combatant import Combatant
from rules.conditions import Condition
from rules.durations import Duration
from rules.encounter import Encounter
from rules.engine.turns import passed_over
from rules.persistent import PersistentDamage
from rules.players_view import players_view
from rules.rulesets import ruleset
from rules.text import first_unsafe
from rules.view_settings import ViewSettings

#: any text at all: unicode, markup, controls, bidi, surrogates escaped
NOISE = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["\x1b", "\x00", "\x07", "\x9b", "\u202e", "\u200b", "\u2028", "\ufeff"]),
        st.sampled_from(["[bold]", "[/]", "<b>", "</script>", "&amp;", '"', "\\", "'"]),
    ),
    max_size=6,
).map("".join)
SETTINGS = st.builds(
    ViewSettings,
    monster_hp=st.sampled_from(["band", "exact", "hidden"]),
    player_hp=st.sampled_from(["band", "exact", "hidden"]),
    show_al=st.booleans(),
    show_initiative=st.booleans(),
    new_monsters=st.sampled_from(["visible", "masked", "hidden"]),
    reveal_on_turn=st.booleans(),
)


def marker(kind: str, i: int, j: int = 0) -> str:
    return f"{kind}{i}Q{j}Z"


@st.composite
def fights(draw: st.DrawFn) -> Encounter:
    n = draw(st.integers(1, 7))
    kinds = draw(
        st.lists(st.sampled_from(["visible", "masked", "hidden", "player"]), min_size=n, max_size=n)
    )
    names = [
        f"{draw(NOISE)}{marker('N' + kind[0].upper(), i)}{draw(NOISE)}"
        for i, kind in enumerate(kinds)
    ]
    combatants = []
    for i, kind in enumerate(kinds):
        secret = kind in ("masked", "hidden")
        if secret:  # six-digit numbers, unique to this combatant
            max_hp = 100_000 + i * 10_000 + draw(st.integers(0, 999))
            hp = draw(st.sampled_from([max_hp, max_hp - 1, max_hp // 2, 0]))
            temp = 500_000 + i * 1000 + draw(st.integers(0, 999))
            al = 700_000 + i * 1000 + draw(st.integers(0, 999))
        else:
            max_hp = draw(st.integers(1, 999))
            hp = draw(st.integers(0, max_hp))
            temp, al = draw(st.integers(0, 999)), draw(st.integers(0, 999))
        conditions = tuple(
            Condition(
                f"{draw(NOISE)}{marker('C' + kind[0].upper(), i, j)}",
                draw(st.none() | st.integers(1, 9)),
                draw(
                    st.none()
                    | st.builds(
                        Duration,
                        st.integers(1, 5),
                        st.sampled_from(["start", "end"]),
                        st.sampled_from(names),
                    )
                ),
            )
            for j in range(draw(st.integers(0, 2)))
        )
        persistent = tuple(
            PersistentDamage(
                "1d6",
                (f"{draw(NOISE)}{marker('P' + kind[0].upper(), i, j)}",),
                source=draw(st.sampled_from(names)),
            )
            for j in range(draw(st.integers(0, 2)))
        )
        combatants.append(
            Combatant(
                name=names[i],
                max_hp=max_hp,
                hp=hp,
                al=al,
                temp_hp=temp,
                initiative=draw(st.none() | st.integers(-5, 40)),
                player=kind == "player",
                conditions=conditions,
                persistent=persistent,
                visibility="visible" if kind == "player" else kind,
            )
        )
    started = draw(st.booleans())
    delayed = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
    return Encounter(
        f"{draw(NOISE)}Crypt",
        ruleset=ruleset("core", down_turns=draw(st.sampled_from(["skip-monsters", "keep"]))),
        combatants=tuple(combatants),
        round=draw(st.integers(1, 6)) if started else draw(st.integers(0, 3)),
        turn=draw(st.integers(0, n - 1)) if started else None,
        started=started,
        delayed=tuple(delayed),
    )


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@given(fights(), SETTINGS)
@settings(max_examples=400, deadline=None)
def test_nothing_secret_and_nothing_unsafe_reaches_the_view(
    enc: Encounter, view: ViewSettings
) -> None:
    result = players_view(enc, view)
    dumped = json.dumps(result, ensure_ascii=False)
    assert json.loads(dumped) == result  # JSON-ready as it is
    for i, c in enumerate(enc.combatants):
        if c.visibility == "visible":
            continue
        kind = "H" if c.visibility == "hidden" else "M"
        for secret in ("N", "C", "P"):
            for j in range(3):
                assert marker(secret + kind, i, j) not in dumped
        for number in (c.hp, c.max_hp, c.temp_hp, c.al):
            if number >= 100_000:
                assert str(number) not in dumped
    hidden = sum(c.visibility == "hidden" for c in enc.combatants)
    assert len(result["combatants"]) == len(enc.combatants) - hidden
    assert [x["id"] for x in result["combatants"]] == [
        f"c{k + 1}" for k in range(len(result["combatants"]))
    ]
    for text in strings(result):
        assert first_unsafe(text) < 0, text


@given(fights(), SETTINGS)
@settings(max_examples=300, deadline=None)
def test_a_hidden_turn_shows_as_a_visible_turn_beside_it(
    enc: Encounter, view: ViewSettings
) -> None:
    active = enc.active
    if not enc.started or active is None or active.visibility != "hidden":
        return
    during_hidden = players_view(enc, view)
    index = during_hidden["active"]
    skip = passed_over(enc)
    places = [i for i, c in enumerate(enc.combatants) if c.visibility != "hidden"]
    if index is None:  # a started fight shows someone's turn while anyone shown acts
        assert all(enc.combatants[i].name in skip for i in places)
        return
    turn = places[index]
    assert enc.combatants[turn].name not in skip
    # the turn just played (earlier in the order, or at the end of the round
    # before) or the one to come (later, or at the top of the next round)
    expected = {enc.round, enc.round + 1} if turn < (enc.turn or 0) else {enc.round - 1, enc.round}
    assert during_hidden["round"] in expected and during_hidden["round"] >= 1
    during_visible = players_view(replace(enc, turn=turn, round=during_hidden["round"]), view)
    for key in ("active", "next", "round", "started"):
        assert during_visible[key] == during_hidden[key], key
