"""``P`` and the players' view dialog, driven with Textual's Pilot: the key
(and the palette command) start sharing and show the link, the QR code
appears for the local network, the viewer count is live, a new link and
stop work, the dialog fits 80x24 and 60x20, sharing stops with the app
and resumes with the encounter."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter
from tracker.app import CombatTrackerApp
from tracker.config import Config
from tracker.screens.encounter import EncounterScreen
from tracker.screens.prompt import ConfirmScreen
from tracker.screens.share import ShareScreen
from tracker.share.qr import qr_lines
from tracker.share.sharing import UI_KEY


@pytest.fixture(autouse=True)
def _any_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any free port (never the GM's 8765)."""
    monkeypatch.setattr("tracker.share.server.DEFAULT_PORT", 0)
    yield


def fight() -> LiveEncounter:
    session = Session(Encounter("Bridge"), rng=random.Random(3))
    for line in ("add Zalek hp 30 al 15 init 15 player", "add Goblin hp 7 al 12 init 5", "start"):
        session.apply(line)
    return LiveEncounter.in_memory(session)


def make_app(live: LiveEncounter | None = None, lan: bool | None = None) -> CombatTrackerApp:
    return CombatTrackerApp(live=live or fight(), config=Config(), lan=lan)


def text_of(app: CombatTrackerApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def until(pilot: Pilot, condition: Callable[[], bool], deadline: float = 10.0) -> None:
    """Let the app run until *condition* holds (a functional deadline)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not condition():
        assert loop.time() < end, "it never happened"
        await pilot.pause(0.05)


async def test_p_shares_the_fight_and_shows_its_link() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        assert isinstance(app.screen, ShareScreen)
        sharing = app.sharing
        assert sharing is not None and sharing.running
        url = sharing.url
        assert url is not None and url.startswith("http://127.0.0.1:")
        assert url in text_of(app, "#share-url")
        assert "Only this computer" in text_of(app, "#share-where")
        assert not app.screen.query_one("#share-qr").display  # a phone could not open it
        async with aiohttp.ClientSession() as session, session.get(f"{url}view.json") as got:
            assert got.status == 200
            assert (await got.json())["name"] == "Bridge"
        await pilot.press("escape")  # closing the dialog keeps sharing on
        assert isinstance(app.screen, EncounterScreen) and sharing.running


async def test_the_palette_shares_the_fight() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*["space" if ch == " " else ch for ch in "players: share the fight"])
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ShareScreen))
        assert app.sharing is not None and app.sharing.running


async def test_the_local_network_shows_a_qr_code_of_the_link() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P", "l")
        sharing = app.sharing
        assert sharing is not None and sharing.lan and sharing.running
        url = sharing.url
        assert url is not None and not url.startswith("http://127.")
        qr = app.screen.query_one("#share-qr", Static)
        assert qr.display
        assert str(qr.render()).splitlines() == qr_lines(url)
        assert "network can open it" in text_of(app, "#share-where")
        await pilot.press("l")  # and back to this computer only
        assert not sharing.lan and not qr.display


async def test_the_viewer_count_is_live() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        assert "Nobody is watching" in text_of(app, "#share-viewers")
        url = app.sharing.url if app.sharing else None
        async with aiohttp.ClientSession() as session, session.get(f"{url}events") as stream:
            await stream.content.readline()
            await until(pilot, lambda: "Watching now: 1 page." in text_of(app, "#share-viewers"))
        await until(pilot, lambda: "Nobody is watching" in text_of(app, "#share-viewers"))


async def test_a_new_link_asks_first_then_retires_the_old_one() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        sharing = app.sharing
        assert sharing is not None
        old = sharing.url
        await pilot.press("N")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # Enter says no: the old link stays
        assert sharing.url == old
        await pilot.press("N", "y")
        new = sharing.url
        assert isinstance(app.screen, ShareScreen) and new != old
        assert new is not None and new in text_of(app, "#share-url")
        async with aiohttp.ClientSession() as session, session.get(f"{old}view.json") as got:
            assert got.status == 404


async def test_p_in_the_dialog_stops_sharing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        sharing = app.sharing
        assert sharing is not None
        url = sharing.url
        await pilot.press("P")
        assert isinstance(app.screen, EncounterScreen)
        assert not sharing.running
        with pytest.raises(aiohttp.ClientConnectionError):
            async with aiohttp.ClientSession() as session, session.get(f"{url}view.json"):
                pass
        await pilot.press("P")  # and P shares again, on the same link
        assert sharing.running and sharing.url == url


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_dialog_fits_a_small_terminal(size: tuple[int, int]) -> None:
    app = make_app(lan=True)
    async with app.run_test(size=size) as pilot:
        await pilot.press("P")
        await pilot.pause()
        screen = app.screen
        dialog = screen.query_one("#share")
        qr = screen.query_one("#share-qr")
        width, height = size
        assert dialog.region.right <= width and dialog.region.bottom <= height
        # the whole code is on screen, inside the dialog: a phone can scan it
        assert qr.region.height == len(qr_lines(app.sharing.url or ""))
        assert dialog.region.contains_region(qr.region)
        assert screen.query_one("#share-url").region.width >= 15


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_the_lan_link_is_one_whole_line_above_the_code(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The longest LAN link (a 15-character address, a 5-digit port: 51
    characters) is read out and copied from one line: never broken inside
    its token beside the code, while the whole code still fits."""
    monkeypatch.setattr("tracker.share.server.lan_address", lambda: "192.168.123.234")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("P", "l")
        await pilot.pause()
        url = app.sharing.url if app.sharing else None
        assert url is not None and url.startswith("http://192.168.123.234:")
        screen = app.screen
        link = screen.query_one("#share-url", Static)
        lines = [strip.text.rstrip() for strip in link.render_lines(Region(0, 0, *link.size))]
        assert lines == [url]
        dialog, qr = screen.query_one("#share"), screen.query_one("#share-qr")
        assert dialog.region.contains_region(link.region)
        assert link.region.bottom <= qr.region.y  # above the code, not beside it
        assert qr.region.height == len(qr_lines(url)) and dialog.region.contains_region(qr.region)
        assert dialog.region.bottom <= size[1]


async def test_sharing_stops_with_the_app() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        sharing = app.sharing
        assert sharing is not None
        url = sharing.url
    assert not sharing.running
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as session, session.get(f"{url}view.json"):
            pass
    assert app.live is not None and app.live.ui_state[UI_KEY]["on"] is True  # it resumes


async def test_sharing_resumes_with_the_encounter_on_its_link() -> None:
    live = fight()
    app = make_app(live)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        url = app.sharing.url if app.sharing else None
    again = make_app(live)
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: again.sharing is not None and again.sharing.running)
        assert again.sharing is not None and again.sharing.url == url
        assert isinstance(again.screen, EncounterScreen)  # no dialog: a notice says so


async def test_lan_from_the_command_line_is_used() -> None:
    app = make_app(lan=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        assert app.sharing is not None and app.sharing.lan
        assert app.screen.query_one("#share-qr").display


async def test_a_server_that_cannot_start_is_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tracker.share.server.LOCAL_HOST", "192.0.2.1")
    app = make_app()
    notes: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify = lambda message, **_: notes.append(message)  # type: ignore[method-assign]
        await pilot.press("P")
        assert isinstance(app.screen, EncounterScreen)
        assert app.sharing is not None and not app.sharing.running
    assert [n for n in notes if "cannot listen on 192.0.2.1" in n]


async def test_number_keys_change_what_the_players_see_as_undoable_actions() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("P")
        assert app.live is not None and app.sharing is not None
        url = app.sharing.url

        async def goblin_hp() -> Any:
            async with aiohttp.ClientSession() as session, session.get(f"{url}view.json") as got:
                rows = (await got.json())["combatants"]
            return next(c["hp"] for c in rows if c["name"] == "Goblin")

        assert await goblin_hp() == {"kind": "band", "band": "healthy"}
        assert "1 monster HP: band" in text_of(app, "#share-settings")
        await pilot.press("1")  # band -> exact
        assert app.live.encounter.view.monster_hp == "exact"
        assert "1 monster HP: exact" in text_of(app, "#share-settings")
        assert (await goblin_hp())["kind"] == "exact"
        await pilot.press("1", "3")  # exact -> hidden; AL shown
        view = app.live.encounter.view
        assert (view.monster_hp, view.show_al) == ("hidden", True)
        assert await goblin_hp() is None
        assert "3 AL: on" in text_of(app, "#share-settings")
        await pilot.press("escape", "ctrl+z", "ctrl+z")  # each was one step
        view = app.live.encounter.view
        assert (view.monster_hp, view.show_al) == ("exact", False)
        await pilot.press("P")
        assert "1 monster HP: exact" in text_of(app, "#share-settings")


async def test_a_kept_port_that_is_busy_says_the_link_changed() -> None:
    # the players hold (or the GM printed) a link on the kept port; another
    # program took it meanwhile: the link has to change, and the GM must
    # know, or the players' pages say "reconnecting…" for ever
    live = fight()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        live.set_ui_state(**{UI_KEY: {"token": "t" * 22, "port": taken, "on": True}})
        app = make_app(live)
        notes: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            app.notify = lambda message, **_: notes.append(message)  # type: ignore[method-assign]
            await until(pilot, lambda: app.sharing is not None and app.sharing.running)
            await until(pilot, lambda: bool(notes))
            assert app.sharing is not None and app.sharing.url is not None
            assert f":{taken}/" not in app.sharing.url
            (note,) = notes
            assert f"port {taken} is busy" in note and "link has changed" in note
            await pilot.press("P")  # the dialog says so too, with the new link
            assert f"port {taken} is busy" in text_of(app, "#share-problem")
