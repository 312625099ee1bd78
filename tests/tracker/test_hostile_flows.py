"""What an adversarial GM found in issue 11's flows at the table (Pilot):
each hostile entry is one short message, changes nothing, and the panes
show names as typed."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.tracker.test_initiative_entry import initiatives, table
from tests.tracker.test_keys import make_app
from tracker.screens.initiative_form import InitiativeFormScreen


@pytest.mark.parametrize(
    "total",
    ["1e9", "\u0663", "\uff11\uff17", "9" * 4000, "x" * 4000, "1_000", "\u22123"],
    ids=["exponent", "arabic", "full-width", "4000 digits", "4000 letters", "underscore", "minus"],
)
async def test_the_initiative_form_refuses_a_hostile_total_in_one_short_line(total: str) -> None:
    app = make_app(table())
    async with app.run_test(size=(60, 20)) as pilot:
        entries = len(app.live.session.log)
        await pilot.press("s")
        form = app.screen
        assert isinstance(form, InitiativeFormScreen)
        form.query_one("#init-0", Input).value = total
        await pilot.press("enter")
        message = str(form.query_one("#init-message-0", Static).render())
        assert message.startswith("init ") and len(message) < 120
        assert form.focused is form.query_one("#init-0", Input)  # stays on the row
        assert not app.live.session.encounter.started
        assert all(v is None for v in initiatives(app).values())
        assert len(app.live.session.log) == entries


def test_a_saved_expanded_list_longer_than_any_fight_is_damaged_and_ignored() -> None:
    """Resuming a hand-edited UI state: a list of more groups than an
    encounter can hold is not ours (every row would rebuild a set of
    them), so no group starts expanded; a sane list is kept as saved."""
    from rules.limits import MAX_COMBATANTS
    from tracker.collapse import Collapse

    huge = [f"g{i}" for i in range(100_000)] + ["zombie"]
    assert Collapse(huge).expanded == set()
    assert Collapse(["zombie", "ghoul"]).expanded == {"zombie", "ghoul"}
    assert Collapse(["zombie"] * (MAX_COMBATANTS + 1)).expanded == set()
