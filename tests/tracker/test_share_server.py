"""The players' server in its own thread, fed by a live encounter: a page's
stream gets the new view after an action and after its undo, the link
(token and port) is kept with the encounter across restarts, a new link
retires the old one, LAN and port fallback, and nothing it does reaches
the terminal."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from rules.encounter import Encounter
from rules.engine import Session
from saves.live import LiveEncounter, open_store
from tracker.share.quiet import log_file
from tracker.share.server import ShareError, ShareServer
from tracker.share.sharing import UI_KEY, Sharing

SETUP = ("add Zalek hp 30 al 15 init 15 player", "add Goblin hp 7 al 12 init 5", "start")


def in_memory() -> LiveEncounter:
    session = Session(Encounter("Bridge"), rng=random.Random(3))
    for line in SETUP:
        session.apply(line)
    return LiveEncounter.in_memory(session)


@pytest.fixture
def sharing() -> Iterator[Sharing]:
    shared = Sharing(in_memory(), ports=(0,), server_options={"heartbeat": 0.2})
    yield shared
    shared.close()


async def stream(url: str) -> AsyncIterator[dict[str, Any]]:
    """Each view a page's stream delivers (heartbeats skipped)."""
    async with aiohttp.ClientSession() as session, session.get(url + "events") as response:
        assert response.status == 200
        async for raw in response.content:
            line = raw.decode("ascii")
            if line.startswith("data: "):
                yield json.loads(line[len("data: ") :])


def hp_of(view: dict[str, Any], name: str) -> Any:
    """*name*'s HP as the page is told (the player's exact, a monster's band)."""
    (row,) = [c for c in view["combatants"] if c["name"] == name]
    hp = row["hp"]
    return hp["hp"] if hp["kind"] == "exact" else hp["band"]


async def get(url: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.read()


async def until(condition: Callable[[], bool], deadline: float = 10.0) -> None:
    """Wait for *condition* (a functional deadline, not a speed test)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not condition():
        assert loop.time() < end, "it never happened"
        await asyncio.sleep(0.02)


async def test_a_page_sees_an_action_and_its_undo(sharing: Sharing) -> None:
    assert sharing.start() is None
    url = sharing.url
    assert url is not None and url.startswith("http://127.0.0.1:")
    views = stream(url)
    first = await anext(views)
    assert (hp_of(first, "Zalek"), hp_of(first, "Goblin")) == (30, "healthy")
    sharing.live.do("damage Zalek,Goblin 4")
    hit = await anext(views)
    assert (hp_of(hit, "Zalek"), hp_of(hit, "Goblin")) == (26, "bloodied")
    sharing.live.undo()
    assert await anext(views) == first
    sharing.live.redo()
    assert await anext(views) == hit
    sharing.live.do("hide Goblin")  # the GM's visibility actions are steps too
    assert [c["name"] for c in (await anext(views))["combatants"]] == ["Zalek"]
    await views.aclose()


async def test_what_a_page_is_sent_is_the_redacted_view(sharing: Sharing) -> None:
    sharing.live.do("hide Goblin")
    sharing.start()
    url = sharing.url
    assert url is not None
    for path in ("", "view.json"):
        status, body = await get(url + path)
        assert status == 200 and b"Goblin" not in body
    views = stream(url)
    view = await anext(views)
    await views.aclose()
    assert [c["name"] for c in view["combatants"]] == ["Zalek"]
    assert "Goblin" not in json.dumps(view)


async def test_the_viewers_are_counted(sharing: Sharing) -> None:
    sharing.start()
    assert sharing.url is not None
    first, second = stream(sharing.url), stream(sharing.url)
    await anext(first)
    await anext(second)
    assert sharing.viewers == 2
    await first.aclose()
    await until(lambda: sharing.viewers == 1)
    await second.aclose()
    await until(lambda: sharing.viewers == 0)


async def test_stopping_closes_the_port_and_every_stream(sharing: Sharing) -> None:
    sharing.start()
    url = sharing.url
    assert url is not None
    views = stream(url)
    await anext(views)
    sharing.stop()
    assert not sharing.running and sharing.url is None
    with pytest.raises(StopAsyncIteration):
        await anext(views)
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(url)
    # the encounter remembers sharing is off: it does not resume next time
    assert sharing.live.ui_state[UI_KEY]["on"] is False


async def test_a_restart_serves_the_same_link(sharing: Sharing) -> None:
    sharing.start()
    url = sharing.url
    sharing.close()
    assert sharing.start() is None
    assert sharing.url == url
    assert (await get(f"{url}view.json"))[0] == 200


async def test_a_new_link_retires_the_old_one(sharing: Sharing) -> None:
    sharing.start()
    old = sharing.url
    assert old is not None
    views = stream(old)
    await anext(views)
    assert sharing.new_link() is None
    new = sharing.url
    assert new is not None and new != old
    with pytest.raises(StopAsyncIteration):  # the old page is cut off
        await anext(views)
    assert await get(f"{old}view.json") == (404, b"")
    assert (await get(f"{new}view.json"))[0] == 200


async def test_the_local_network_is_a_restart_on_the_same_port(sharing: Sharing) -> None:
    sharing.start()
    local = sharing.url
    assert local is not None
    port = local.split(":")[2].split("/")[0]
    assert sharing.set_lan(True) is None
    lan = sharing.url
    assert lan is not None and lan != local
    assert not lan.startswith("http://127.") and f":{port}/" in lan
    # listening on every interface: the loopback reaches it too
    token = lan.split("/")[3]
    assert (await get(f"http://127.0.0.1:{port}/{token}/view.json"))[0] == 200
    sharing.set_lan(False)
    assert sharing.url == local


def test_a_busy_port_falls_back_to_a_free_one() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        server = ShareServer(lambda: {}, "t" * 22, ports=(taken,))
        server.start()
        try:
            assert server.port not in (None, taken)
            assert f":{server.port}/" in server.url
        finally:
            server.stop()


def test_a_host_that_cannot_be_listened_on_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tracker.share.server.LOCAL_HOST", "192.0.2.1")  # not this computer's
    server = ShareServer(lambda: {}, "t" * 22, ports=(0,))
    with pytest.raises(ShareError, match="cannot listen on 192.0.2.1"):
        server.start()
    assert not server.running


def test_the_link_is_kept_with_the_encounter_across_restarts(tmp_path: Path) -> None:
    db = tmp_path / "encounters.json"
    store = open_store(db)
    live = LiveEncounter.create(store, "Bridge", rng=random.Random(3), actions=SETUP)
    sharing = Sharing(live, ports=(0,))
    try:
        assert sharing.start() is None
        url = sharing.url
        # written at once: a link just handed out survives a crash
        peek = open_store(db, read_only=True)
        try:
            kept = LiveEncounter.open(peek, "Bridge").ui_state[UI_KEY]
        finally:
            peek.close()
        assert url is not None and kept["token"] in url and f":{kept['port']}/" in url
    finally:
        sharing.close()
        live.close()
        store.close()
    store = open_store(db)
    try:
        again = Sharing(LiveEncounter.open(store, "Bridge"), ports=(0,))
        assert again.resumes  # it was on when the tracker closed
        assert again.start() is None
        assert again.url == url
        again.close()
    finally:
        store.close()


def test_a_hostile_kept_state_is_not_trusted() -> None:
    live = in_memory()
    live.set_ui_state(**{UI_KEY: {"token": "../../etc", "port": "80", "lan": "yes", "on": 1}})
    sharing = Sharing(live, ports=(0,))
    assert not sharing.lan and not sharing.resumes
    try:
        sharing.start()
        url = sharing.url
        assert url is not None and "../" not in url and url.startswith("http://127.0.0.1:")
    finally:
        sharing.close()


async def test_errors_in_the_server_never_reach_the_terminal(
    capfd: pytest.CaptureFixture[str],
) -> None:
    def broken() -> dict[str, Any]:
        raise RuntimeError("the view broke")

    server = ShareServer(broken, "t" * 22, ports=(0,))
    server.start()
    try:
        status, body = await get(f"{server.url}view.json")
        assert status == 500
        assert b"the view broke" not in body and b"Traceback" not in body
        server.changed()
        await asyncio.sleep(0.1)
    finally:
        server.stop()
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    logged = log_file()
    assert logged is not None
    assert "the view broke" in logged.read_text(encoding="utf-8")


def closed_by_server(sock: socket.socket) -> bool:
    """The server has closed (or reset) *sock*: it reads as the end."""
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False  # still open, nothing said
    except ConnectionError:
        return True


def test_a_flood_of_connections_cannot_take_the_trackers_files() -> None:
    # anyone on the network can open connections without the token; each
    # held open is a file of the tracker's own process (1,024 by default):
    # past the limit the server closes them at once, so the GM's saves
    # never run out of files, and pages get in again once the flood ends
    server = ShareServer(lambda: {}, "t" * 22, ports=(0,), max_connections=8)
    server.start()
    flood: list[socket.socket] = []
    try:
        assert server.port is not None
        flood = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(20)]
        deadline = time.monotonic() + 10
        while sum(closed_by_server(s) for s in flood) < 12:
            assert time.monotonic() < deadline, "the server kept every connection"
            time.sleep(0.02)
        assert sum(not closed_by_server(s) for s in flood) == 8
        for s in flood:
            s.close()
        deadline = time.monotonic() + 10
        while True:  # the held ones are let go; a page gets in
            try:
                status, _ = asyncio.run(get(f"{server.url}view.json"))
            except aiohttp.ClientError:
                status = 0
            if status == 200:
                break
            assert time.monotonic() < deadline, "no page got in after the flood"
            time.sleep(0.05)
    finally:
        for s in flood:
            s.close()
        server.stop()


@pytest.mark.parametrize("port", [True, 1.5, 0, 65536, -1, "8765"])
def test_a_kept_port_that_is_not_a_port_number_is_dropped(port: object) -> None:
    # True is an int to Python: it would be port 1, a privileged port
    from tracker.share.sharing import ShareState

    assert ShareState.from_ui({"token": "t" * 22, "port": port}).port is None
    assert ShareState.from_ui({"token": "t" * 22, "port": 8770}).port == 8770


def test_a_step_that_could_not_be_saved_is_taken_back_from_the_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the server reads the fight from its own thread whenever a page asks;
    # a step applied and then refused by a full disk is rolled back, and
    # the pages must be told, or they keep a change the GM never made
    from rules.players_view import players_view
    from saves import SaveError

    store = open_store(tmp_path / "encounters.json")
    live = LiveEncounter.create(store, "Bridge", rng=random.Random(3), actions=SETUP)
    read: list[dict[str, Any]] = []
    live.watch(lambda: read.append(players_view(live.encounter)))
    before = players_view(live.encounter)

    def full_disk(*_: Any, **__: Any) -> None:
        read.append(players_view(live.encounter))  # a page asking meanwhile
        raise SaveError("No space left on device")

    monkeypatch.setattr(store, "append", full_disk)
    try:
        with pytest.raises(SaveError):
            live.do("damage Goblin 3")
        assert read[-1] == before
    finally:
        monkeypatch.undo()
        live.close()
        store.close()


def test_a_local_network_that_cannot_be_listened_on_can_be_turned_back(
    sharing: Sharing, monkeypatch: pytest.MonkeyPatch
) -> None:
    # l in the dialog restarts the server on the network; when that fails
    # (an address this computer does not have), l again must bring the
    # players' view back on this computer, not leave sharing off for good
    assert sharing.start() is None
    monkeypatch.setattr("tracker.share.server.ANY_HOST", "192.0.2.1")
    problem = sharing.set_lan(True)
    assert problem is not None and "cannot listen on 192.0.2.1" in problem
    assert not sharing.running
    assert sharing.set_lan(False) is None
    assert sharing.running and sharing.url is not None
    assert sharing.url.startswith("http://127.0.0.1:")


def test_no_network_at_all_is_no_address_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    # a computer without IPv4, or out of files: the dialog asks for the
    # address every time it draws the link
    from tracker.share import server as server_module

    def no_socket(*_: Any, **__: Any) -> socket.socket:
        raise OSError(97, "Address family not supported by protocol")

    monkeypatch.setattr(server_module.socket, "socket", no_socket)
    assert server_module.lan_address() is None
