"""A prompt says its usage once: the line under the field (it stays while
the GM types), while the empty field shows an answer the GM could give
(``e.g. 2d6+3 fire``) — at 60×20 the ``d`` prompt showed its usage twice,
in the field and below it.  Each example is a line the engine takes."""

from __future__ import annotations

import random

import pytest
from test_keys import fight, make_app

from rules.encounter import Encounter
from rules.engine import Session
from tracker.lines import key_line
from tracker.screens.prompt import EXAMPLES, PromptScreen
from tracker.widgets.completing_input import CompletingInput
from tracker.widgets.plain import visible

#: the prompt keys: key → its action (the EXAMPLES key)
KEYS = {
    "d": "damage",
    "h": "heal",
    "t": "temp",
    "x": "persistent",
    "c": "condition",
    "A": "attack",
    "i": "initiative",
    "r": "roll",
    "ctrl+s": "save_point",
}


@pytest.mark.parametrize("action", [a for a in KEYS.values() if a != "save_point"])
def test_every_example_is_a_line_the_engine_takes(action: str) -> None:
    session = Session(Encounter("x"), rng=random.Random(2))
    session.apply("add Zalek hp 30 al 15 player init 19; add Ogre hp 59 al 11 init 2; start")
    session.apply("damage Ogre 20")  # room to heal
    line = key_line(action, EXAMPLES[action], ["Ogre"])
    assert line is not None
    session.apply(line)  # raises when the example is not a valid answer


@pytest.mark.parametrize("key", KEYS)
async def test_the_usage_reads_once_and_the_field_shows_an_example_at_60x20(key: str) -> None:
    app = make_app(fight(started=True))
    async with app.run_test(size=(60, 20)) as pilot:
        if key == "A":  # the selection follows the turn: the attacker never attacks itself
            await pilot.press("j")
        await pilot.press(key)
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        field = prompt.query_one(CompletingInput)
        message = str(prompt.query_one("#prompt-message").render())
        usage = prompt.usage_hint().split(" · ")[0]
        assert usage and usage in message
        example = f"e.g. {EXAMPLES[KEYS[key]]}"
        assert field.placeholder == example and usage not in field.placeholder
        assert field.render_line(0).text.strip().strip("▊▎ ") == example  # shown whole
        await pilot.press("1")  # typing: the example goes, the usage stays below
        await pilot.pause()
        assert visible(example) not in field.render_line(0).text
        assert usage in str(prompt.query_one("#prompt-message").render())
