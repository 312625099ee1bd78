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
import json
import os
import random
import shutil
import urllib.request
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
from tracker.share import feed as feed_module
from tracker.share.feed import render
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
def _any_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tracker.share.server.DEFAULT_PORT", 0)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every view the server sends from now on (each view.json and each
    event is one of these texts: ``Feed.render``)."""
    texts: list[str] = []

    def recorded(view: Callable[[], Any]) -> str:
        text = render(view)
        texts.append(text)
        return text

    monkeypatch.setattr(feed_module, "render", recorded)
    return texts


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
    enc = app.live.encounter
    names = [c.name for c in enc.combatants]
    steps = names.index(name) - names.index(enc.active.name)
    await pilot.press("g")  # the selection on the active combatant
    await pilot.press(*(["j"] * steps + ["k"] * -steps), "d", *str(amount), "enter")


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

        assert "HP 30/30" in row_of(browser, "Zalek")[2]  # a player's HP: exact
        assert "Healthy" in row_of(browser, "Goblin")[2]  # a monster's: a band
        await damage(pilot, app, "Goblin", 3)
        await until(pilot, lambda: "Hurt" in row_of(browser, "Goblin")[2], UPDATE_DEADLINE)
        await damage(pilot, app, "Zalek", 9)
        await until(pilot, lambda: "HP 21/30" in row_of(browser, "Zalek")[2], UPDATE_DEADLINE)
        await pilot.press("n")  # the turn passes: the highlight follows
        await until(pilot, lambda: "active" in row_of(browser, "Goblin")[1], UPDATE_DEADLINE)
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")  # undo all three
        await until(pilot, lambda: "Healthy" in row_of(browser, "Goblin")[2], UPDATE_DEADLINE)
        assert "HP 30/30" in row_of(browser, "Zalek")[2]
        assert await off_loop(lambda: browser.execute_script("return window.notReloaded === true;"))

        # the server restarts (same token, same port): the page copes by itself
        sharing.close()
        await until(pilot, lambda: status(browser) == "reconnecting…", CONNECT_DEADLINE)
        assert sharing.start() is None and sharing.url == url
        await until(pilot, lambda: status(browser) is None, CONNECT_DEADLINE)
        await damage(pilot, app, "Zalek", 5)
        await until(pilot, lambda: "HP 25/30" in row_of(browser, "Zalek")[2], UPDATE_DEADLINE)
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


def page_text(driver: Any) -> str:
    """What the page shows of the fight: its heading and the order, as
    markup and as text (attributes included)."""
    html: str = driver.execute_script(
        "var parts = [document.title, document.querySelector('header').outerHTML,"
        " document.getElementById('order').outerHTML, document.body.innerText];"
        "return parts.join('\\n');"
    )
    return html


async def test_what_the_gm_hides_is_nowhere_on_the_page(browser: Any, served: list[str]) -> None:
    live = fight()
    live.do("add Shadow hp 40 al 14 init 10")
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        assert app.sharing is not None and app.sharing.url is not None
        url = app.sharing.url
        # the GM hides the shadow and masks the goblin, from the : line
        await pilot.press("colon", *"hide Shadow", "enter")
        await pilot.press("colon", *"mask Goblin", "enter")
        await off_loop(lambda: browser.get(url))
        await until(
            pilot,
            lambda: [r[0] for r in rows(browser)] == ["Zalek", "Unknown creature", "Ogre"],
            CONNECT_DEADLINE,
        )
        # the shadow's turn comes: the page keeps the last visible turn lit
        assert app.live is not None
        while app.live.encounter.active.name != "Shadow":
            await pilot.press("n")
        await damage(pilot, app, "Zalek", 2)  # something the page must show
        await until(pilot, lambda: "HP 28/30" in row_of(browser, "Zalek")[2], UPDATE_DEADLINE)
        assert [r[0] for r in rows(browser) if "active" in r[1].split()] == ["Zalek"]
        text = await off_loop(lambda: page_text(browser))
        assert "Shadow" not in await off_loop(lambda: browser.page_source)
        for secret in ("Shadow", "40", "Goblin", "7", "59"):  # no name, no monster HP
            assert secret not in text, secret
        # and in nothing the server sent, from the first view to the last
        assert served
        for sent in served:
            assert "Shadow" not in sent and "Goblin" not in sent
            for row in json.loads(sent)["combatants"]:
                if not row["player"]:
                    assert row["hp"] is None or row["hp"]["kind"] == "band"
        page = await off_loop(lambda: urllib.request.urlopen(url).read().decode())
        assert "Shadow" not in page and "Goblin" not in page


def photo_fight() -> LiveEncounter:
    """A fight in round 2 with a little of everything the page shows."""
    session = Session(Encounter("The Ash King's crypt"), rng=random.Random(8))
    for line in (
        "add Zalek hp 38 al 15 init 19 player",
        "add Mira hp 27 al 14 init 16 player",
        "add 'Goblin Archer' count 3 hp 9 al 13 init 12",
        "add Ogre hp 59 al 11 init 8",
        "add Lurker hp 30 al 12 init 6 masked",
        "add Shadow hp 40 al 14 init 4 hidden",
        "view show_al on",
        "start",
        "damage Zalek 11",
        "temp Zalek 5",
        "cond 'Goblin Archer 1' frightened value 1 rounds 2",
        "damage 'Goblin Archer 3' 20",
        "damage Ogre 31",
        "persist Ogre 1d6 fire",
        "cond Mira blessed rounds 3",
        *["next"] * 8,  # round 2, Mira's turn
        "delay Mira",  # she holds it: Goblin Archer 1 acts
    ):
        session.apply(line)
    return LiveEncounter.in_memory(session)


async def test_the_page_is_legible_on_a_phone_and_a_tv(browser: Any) -> None:
    app = CombatTrackerApp(live=photo_fight(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        assert app.sharing is not None and app.sharing.url is not None
        url = app.sharing.url
        await off_loop(lambda: browser.get(url))
        await until(pilot, lambda: len(rows(browser)) == 7, CONNECT_DEADLINE)
        # the names are the encounter's, a masked one unnamed, a hidden one absent
        assert "Unknown creature" in [r[0] for r in rows(browser)]
        for (width, height), scheme, photo in (
            ((390, 844), "light", "players-phone.png"),
            ((1920, 1080), "dark", "players-tv.png"),
        ):
            phone = width < 600
            await off_loop(
                lambda w=width, h=height, m=phone: browser.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": w, "height": h, "deviceScaleFactor": 2 if m else 1, "mobile": m},
                )
            )
            await off_loop(
                lambda s=scheme: browser.execute_cdp_cmd(
                    "Emulation.setEmulatedMedia",
                    {"features": [{"name": "prefers-color-scheme", "value": s}]},
                )
            )
            await pilot.pause(0.3)
            size = browser.execute_script(
                "var n = document.querySelector('#order .name');"
                "return [innerWidth, document.documentElement.scrollWidth,"
                " parseFloat(getComputedStyle(n).fontSize),"
                " document.getElementById('order').getBoundingClientRect().bottom, innerHeight];"
            )
            inner, scroll, font, bottom, tall = size
            assert scroll <= inner, "the page is wider than the screen"
            # large type: readable in the hand, and across the room on a TV
            assert font >= (18 if phone else 40), font
            if width >= 1100:
                assert bottom <= tall, "the whole order fits a TV screen"
            if os.environ.get("UPDATE_SCREENSHOTS") == "1":
                await off_loop(lambda p=photo: browser.save_screenshot(str(DOCS / p)))
        await off_loop(lambda: browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {}))
        await off_loop(
            lambda: browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        )


#: counts the views the page draws (each view event rebuilds the heading)
COUNT_VIEWS = """
window.views = 0;
new MutationObserver(function () { window.views += 1; })
  .observe(document.getElementById('title'), {childList: true, characterData: true, subtree: true});
"""


async def test_a_hidden_turn_sends_the_page_nothing(browser: Any, served: list[str]) -> None:
    # the turn passes to the hidden shadow: the view is the same as during
    # Zalek's turn, so the page must not even be sent it (a page that can
    # see an event arrive can count the hidden turns)
    live = fight()
    live.do("add Shadow hp 40 init 10 hidden")  # acts after Zalek, before the goblin
    app = CombatTrackerApp(live=live, config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        assert app.sharing is not None and app.sharing.url is not None
        url = app.sharing.url
        await off_loop(lambda: browser.get(url))
        await until(pilot, lambda: len(rows(browser)) == 3, CONNECT_DEADLINE)
        await off_loop(lambda: browser.execute_script(COUNT_VIEWS))
        built = len(served)
        await pilot.press("n")  # the shadow's turn
        assert app.live is not None and app.live.encounter.active.name == "Shadow"
        await until(pilot, lambda: len(served) > built, CONNECT_DEADLINE)  # built, offered
        await pilot.press("n")  # the goblin's: the page follows
        await until(pilot, lambda: "active" in row_of(browser, "Goblin")[1], UPDATE_DEADLINE)
        assert await off_loop(lambda: browser.execute_script("return window.views;")) == 1


#: every text the status line shows from now on, and the page's checks of its link
WATCH_STATUS = """
window.statuses = [];
var s = document.getElementById('status');
new MutationObserver(function () { window.statuses.push(s.hidden ? null : s.textContent); })
  .observe(s, {childList: true, attributes: true, characterData: true, subtree: true});
window.checks = 0;
var f = window.fetch;
window.fetch = function () { window.checks += 1; return f.apply(this, arguments); };
"""

RETIRED = "This link no longer works: ask the GM for the new one."


async def test_a_replaced_link_says_so_and_keeps_saying_it(browser: Any) -> None:
    app = CombatTrackerApp(live=fight(), config=Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("P", "escape")
        sharing = app.sharing
        assert sharing is not None and sharing.url is not None
        url = sharing.url
        await off_loop(lambda: browser.get(url))
        await until(pilot, lambda: len(rows(browser)) == 3, CONNECT_DEADLINE)
        await off_loop(lambda: browser.execute_script(WATCH_STATUS))
        assert sharing.new_link() is None
        await until(pilot, lambda: status(browser) == RETIRED, CONNECT_DEADLINE)
        # the page goes on trying (the GM may share that link again); each
        # try must not flash "reconnecting…" over the message
        await until(
            pilot,
            lambda: browser.execute_script("return window.checks;") >= 3,
            CONNECT_DEADLINE,
        )
        statuses = await off_loop(lambda: browser.execute_script("return window.statuses;"))
        first = statuses.index(RETIRED)
        assert set(statuses[first:]) == {RETIRED}, statuses
