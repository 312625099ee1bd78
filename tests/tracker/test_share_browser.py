"""The players' page in a real browser: headless Chromium (Debian's
``chromium`` and ``chromium-driver``, through selenium) against the app
driven with Textual's Pilot.  The page shows the order; a damage typed in
the tracker reaches it within 2 seconds without a reload; when the server
restarts the page says "reconnecting…" and then follows the fight again
by itself; a name that is HTML stays text.

CI installs Chromium (``.ci/run``) and sets ``COMBAT_TRACKER_REQUIRE_BROWSER``,
so a missing browser fails there; elsewhere these tests are skipped.
With ``UPDATE_SCREENSHOTS=1`` the page is photographed at phone and TV
size into ``docs/`` for the README."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from textual.pilot import Pilot

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.share import sharing as sharing_module
from tracker.share.sharing import Sharing

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
REQUIRE = "COMBAT_TRACKER_REQUIRE_BROWSER"
DOCS = Path(__file__).resolve().parents[2] / "docs"
#: how soon a change in the tracker must show on the page (the issue's bar)
UPDATE_DEADLINE = 2.0
#: how long a page may take to (re)connect at all: generous, CI is slow
CONNECT_DEADLINE = 20.0

T = TypeVar("T")

#: every row of the order as the page shows it: (name, classes, all its text)
ROWS = """
return Array.from(document.querySelectorAll('#order .row')).map(function (row) {
  return [row.querySelector('.name').textContent, row.className, row.textContent];
});
"""


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(path)):
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get(REQUIRE):
            pytest.fail(f"{REQUIRE} is set but {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--window-size=390,844",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(autouse=True)
def _players_view(
    fake_view: Callable[[Encounter], dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sharing_module, "default_view_of", lambda: fake_view)
    monkeypatch.setattr("tracker.share.server.DEFAULT_PORT", 0)


def fight() -> LiveEncounter:
    session = Session(Encounter("Bridge"), rng=random.Random(3))
    for line in (
        "add Zalek hp 30 al 15 init 15 player",
        "add Goblin hp 7 al 12 init 5",
        "add Ogre hp 59 al 11 init 2",
        "start",
    ):
        session.apply(line)
    return LiveEncounter.in_memory(session)


async def off_loop(call: Callable[[], T]) -> T:
    """A blocking selenium call, while the app (and its loop) runs on."""
    return await asyncio.to_thread(call)


async def until(pilot: Pilot, check: Callable[[], bool], deadline: float) -> None:
    """Poll *check* until it holds; fail after *deadline* seconds (a
    functional deadline: what the players wait at most, not a speed test)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not await off_loop(check):
        assert loop.time() < end, f"not within {deadline} s"
        await pilot.pause(0.05)


def rows(driver: Any) -> list[tuple[str, str, str]]:
    return [tuple(row) for row in driver.execute_script(ROWS)]


def row_of(driver: Any, name: str) -> tuple[str, str, str]:
    return next(row for row in rows(driver) if row[0] == name)


def status(driver: Any) -> str | None:
    """The "reconnecting…" line, when shown."""
    shown: str | None = driver.execute_script(
        "var s = document.getElementById('status'); return s.hidden ? null : s.textContent;"
    )
    return shown


async def damage(pilot: Pilot, app: CombatTrackerApp, name: str, amount: int) -> None:
    """The GM selects *name* and types the damage, as at the table."""
    assert app.live is not None
    names = [c.name for c in app.live.encounter.combatants]
    await pilot.press("g")  # the active combatant, the first row here
    await pilot.press(*(["j"] * names.index(name)), "d", *str(amount), "enter")


async def test_the_page_follows_the_fight_and_survives_a_restart(browser: Any) -> None:
    app = CombatTrackerApp(live=fight(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        sharing = app.sharing
        assert isinstance(sharing, Sharing) and sharing.url is not None
        url = sharing.url
        await off_loop(lambda: browser.get(url))
        await until(
            pilot,
            lambda: [r[0] for r in rows(browser)] == ["Zalek", "Goblin", "Ogre"],
            CONNECT_DEADLINE,
        )
        assert "active" in row_of(browser, "Zalek")[1].split()
        assert "next" in row_of(browser, "Goblin")[1].split()
        assert browser.find_element("id", "round").text == "Round 1"
        browser.execute_script("window.notReloaded = true;")

        await damage(pilot, app, "Goblin", 3)
        assert app.live is not None and "Goblin" in [c.name for c in app.live.encounter.combatants]
        await until(pilot, lambda: "HP 4/7" in row_of(browser, "Goblin")[2], UPDATE_DEADLINE)
        await pilot.press("n")  # the turn passes: the highlight follows
        await until(pilot, lambda: "active" in row_of(browser, "Goblin")[1], UPDATE_DEADLINE)
        await pilot.press("ctrl+z", "ctrl+z")  # undo both
        await until(pilot, lambda: "HP 7/7" in row_of(browser, "Goblin")[2], UPDATE_DEADLINE)
        assert await off_loop(lambda: browser.execute_script("return window.notReloaded === true;"))

        # the server restarts (same token, same port): the page copes by itself
        sharing.close()
        await until(pilot, lambda: status(browser) == "reconnecting…", CONNECT_DEADLINE)
        assert sharing.start() is None and sharing.url == url
        await until(pilot, lambda: status(browser) is None, CONNECT_DEADLINE)
        await damage(pilot, app, "Ogre", 9)
        await until(pilot, lambda: "HP 50/59" in row_of(browser, "Ogre")[2], UPDATE_DEADLINE)
        assert await off_loop(lambda: browser.execute_script("return window.notReloaded === true;"))


async def test_a_name_that_is_html_stays_text(browser: Any) -> None:
    live = fight()
    payload = '<img src=x onerror="document.title=7"><b>Imp</b>'
    live.do(f"add '{payload}' hp 5 init 1")
    assert payload in [c.name for c in live.encounter.combatants]
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        assert app.sharing is not None and app.sharing.url is not None
        url = app.sharing.url
        await off_loop(lambda: browser.get(url))
        await until(pilot, lambda: len(rows(browser)) == 4, CONNECT_DEADLINE)
        assert payload in [r[0] for r in rows(browser)]
        assert browser.execute_script("return document.images.length;") == 0
        made = "return document.querySelectorAll('#order [onerror], #order b').length;"
        assert browser.execute_script(made) == 0  # no element was made from the name
        assert browser.title == "Bridge"
