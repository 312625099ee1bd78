"""The round a duration runs out in (``rules.engine.turns.ending_round``,
RULES.md §10), counted from where the turn is rather than walked turn by
turn (a condition on each of a horde of hundreds asks once per member):
the count agrees with the walk on fights of every shape, delays, downs and
``prev`` steps included."""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.durations import Duration
from rules.encounter import Encounter
from rules.engine import Session
from rules.engine.turns import ending_round, passed_over
from rules.errors import ActionError


def walked(enc: Encounter, duration: Duration) -> int | None:
    """The round, found by walking the turns one at a time from the active
    one, each boundary ``prev`` stepped back over skipped."""
    names = [c.name for c in enc.combatants]
    passed = passed_over(enc)
    if duration.of not in names or duration.of in passed:
        return None
    if not enc.started:
        return duration.rounds_left
    if enc.turn is None or not 0 <= enc.turn < len(names):
        return None
    acting = [i for i, n in enumerate(names) if n not in passed]
    if not acting:
        return None
    rnd, index, skip = enc.round, enc.turn, enc.rewound
    for _ in range((skip + 2) * (len(acting) + 1)):
        if skip == 0 and names[index] == duration.of and duration.tick == "end":
            return rnd + duration.rounds_left - 1
        later = [i for i in acting if i > index]
        index = later[0] if later else acting[0]
        rnd += 0 if later else 1
        if skip > 0:
            skip -= 1
        elif names[index] == duration.of and duration.tick == "start":
            return rnd + duration.rounds_left - 1
    raise AssertionError("the walk never reached the combatant")


MOVES = st.lists(
    st.sampled_from(["next", "prev", "delay", "down", "heal", "return", "end", "start"]),
    max_size=14,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), MOVES, st.integers(0, 2**32))
def test_the_counted_round_is_the_walked_round(monsters: int, moves: list[str], seed: int) -> None:
    session = Session(Encounter("Any"), rng=random.Random(seed))
    session.apply(f"add Imp count {monsters} hp 5")
    session.apply("add Mira hp 5 player")
    session.apply("start")
    pick = random.Random(seed)
    for move in moves:
        enc = session.encounter
        name = pick.choice([c.name for c in enc.combatants])
        active = enc.active.name if enc.started and enc.active else name
        line = {
            "delay": f"delay '{active}'",
            "down": f"damage '{name}' 20",
            "heal": f"heal '{name}' 5",
            "return": f"return '{name}'",
        }.get(move, move)
        with contextlib.suppress(ActionError):  # not possible now: the fight goes on
            session.apply(line)
    for rewound in {session.encounter.rewound, 0, 1, 2}:
        enc = replace(session.encounter, rewound=rewound)
        for c in enc.combatants:
            for tick in ("start", "end"):
                for rounds in (1, 3):
                    duration = Duration(rounds, tick, c.name)  # type: ignore[arg-type]
                    assert ending_round(enc, duration) == walked(enc, duration)


def test_a_condition_on_a_horde_of_five_hundred_says_when_each_ends() -> None:
    session = Session(Encounter("Horde"), rng=random.Random(6))
    for _ in range(5):
        session.apply("add Zombie count 100 hp 20 group")
    session.apply("start")
    session.apply("next")
    step = session.apply("cond Zombie frightened rounds 2")
    assert len(step.log) == 500
    assert all(e.text.endswith(", round 3)") or e.text.endswith(", round 2)") for e in step.log)
    assert "until the end of Zombie 1's turn, round 3" in step.log[0].text
