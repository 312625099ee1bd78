"""The players' view over HTTP, through aiohttp's test client on loopback:
the three routes under the token, nothing said to anybody else, GET and
HEAD only, the security headers on every response, the event stream's
first view, updates and heartbeat, and coalescing."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from tracker.share.feed import Feed
from tracker.share.web import load_page, players_app

TOKEN = "Tok3n-abcdefghijklmnop"


class Fight:
    """A view that changes when the test says so."""

    def __init__(self) -> None:
        self.round = 1
        self.name = "Crypt"

    def view(self) -> dict[str, Any]:
        return {"name": self.name, "round": self.round, "combatants": []}


async def events(response: ClientResponse) -> AsyncIterator[str]:
    """Each server-sent event's text (``data:`` of a ``view``, or the
    comment of a heartbeat), as the stream delivers them."""
    block: list[str] = []
    while True:
        raw = await response.content.readline()
        if not raw:
            return
        line = raw.decode("ascii").rstrip("\n")
        if line:
            block.append(line)
            continue
        if block:
            yield "\n".join(block)
            block = []


def data_of(event: str) -> dict[str, Any]:
    lines = event.splitlines()
    assert lines[0] == "event: view"
    assert lines[1].startswith("data: ")
    parsed: dict[str, Any] = json.loads(lines[1][len("data: ") :])
    return parsed


@pytest.fixture
async def served() -> AsyncIterator[tuple[TestClient[Any, Any], Fight, Feed]]:
    fight = Fight()
    feed = Feed(fight.view, min_interval=0.0)
    app = players_app(feed, lambda: TOKEN, heartbeat=0.2)
    async with TestClient(TestServer(app)) as client:
        yield client, fight, feed
    feed.close()


def _policy_hash(html: str, tag: str) -> str:
    (block,) = re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
    return f"'sha256-{digest}'"


def assert_secure(response: ClientResponse) -> None:
    headers = response.headers
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"


async def test_the_page_is_served_under_the_token_with_its_policy(served: Any) -> None:
    client, _, _ = served
    response = await client.get(f"/{TOKEN}/")
    assert response.status == 200
    assert response.content_type == "text/html"
    html = await response.text()
    assert '<ol id="order">' in html
    assert_secure(response)
    # exactly the page's own script and style may run, by hash
    policy = response.headers["Content-Security-Policy"]
    assert f"script-src {_policy_hash(html, 'script')};" in policy
    assert f"style-src {_policy_hash(html, 'style')};" in policy


async def test_the_view_is_json(served: Any) -> None:
    client, fight, _ = served
    fight.name = "<script>alert(1)</script>"
    response = await client.get(f"/{TOKEN}/view.json")
    assert response.status == 200
    assert response.content_type == "application/json"
    assert_secure(response)
    assert await response.json() == fight.view()


async def test_the_bare_token_leads_to_the_page(served: Any) -> None:
    client, _, _ = served
    response = await client.get(f"/{TOKEN}", allow_redirects=False)
    assert response.status == 302
    assert response.headers["Location"] == f"/{TOKEN}/"


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/favicon.ico",
        "/wrong/",
        "/wrong/view.json",
        "/wrong/events",
        f"/{TOKEN}x/",
        f"/{TOKEN[:-1]}/",
        f"/{TOKEN.upper()}/view.json",
        f"/{TOKEN}/other",
        f"/{TOKEN}/view.json/more",
        f"/{TOKEN}/events/",
        "/%00/",
    ],
)
async def test_anything_else_is_a_404_that_says_nothing(served: Any, path: str) -> None:
    client, _, _ = served
    for method in ("GET", "HEAD", "POST"):
        response = await client.request(method, path, allow_redirects=False)
        assert response.status == 404, (method, path)
        assert await response.read() == b""
        assert TOKEN not in json.dumps(dict(response.headers))
        assert_secure(response)


async def test_head_is_answered_without_a_body(served: Any) -> None:
    client, _, feed = served
    for path, kind in (("", "text/html"), ("view.json", "application/json")):
        response = await client.head(f"/{TOKEN}/{path}")
        assert response.status == 200
        assert response.content_type == kind
        assert await response.read() == b""
    response = await client.head(f"/{TOKEN}/events")
    assert response.status == 200
    assert response.content_type == "text/event-stream"
    assert await response.read() == b""
    assert feed.viewers == 0  # a HEAD does not join the viewers


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
async def test_only_get_and_head_are_allowed(served: Any, method: str) -> None:
    client, fight, _ = served
    for path in ("", "view.json", "events"):
        response = await client.request(method, f"/{TOKEN}/{path}", data=b"round=99")
        assert response.status == 405
        assert response.headers["Allow"] == "GET, HEAD"
        assert await response.read() == b""
    assert fight.round == 1


async def test_the_stream_sends_the_view_then_each_change(served: Any) -> None:
    client, fight, feed = served
    response = await client.get(f"/{TOKEN}/events")
    assert response.content_type == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    stream = events(response)
    assert await anext(stream) == "retry: 1000"  # a dropped page reconnects after a second
    assert data_of(await anext(stream))["round"] == 1
    fight.round = 2
    feed.poke()
    assert data_of(await anext(stream))["round"] == 2
    response.close()


async def test_a_quiet_stream_gets_heartbeats(served: Any) -> None:
    client, _, _ = served
    response = await client.get(f"/{TOKEN}/events")
    stream = events(response)
    await anext(stream)  # retry
    await anext(stream)  # the view
    # nothing changes: a comment line keeps the connection alive
    assert await anext(stream) == ": heartbeat"
    assert await anext(stream) == ": heartbeat"
    response.close()


async def test_an_unchanged_view_is_not_sent_again(served: Any) -> None:
    client, fight, feed = served
    response = await client.get(f"/{TOKEN}/events")
    stream = events(response)
    await anext(stream)
    assert data_of(await anext(stream))["round"] == 1
    feed.poke()  # a step that changed nothing the players see (a selection)
    await asyncio.sleep(0)
    fight.round = 3
    feed.poke()
    # the next event is the changed view; heartbeats may come between
    event = await anext(stream)
    while event == ": heartbeat":
        event = await anext(stream)
    assert data_of(event)["round"] == 3
    response.close()


async def test_closing_the_feed_ends_every_stream(served: Any) -> None:
    client, _, feed = served
    response = await client.get(f"/{TOKEN}/events")
    stream = events(response)
    await anext(stream)
    await anext(stream)
    assert feed.viewers == 1
    feed.close()
    rest = [event async for event in stream if event != ": heartbeat"]
    assert rest == []
    assert feed.viewers == 0


async def test_a_burst_of_changes_is_one_update_with_the_newest_view() -> None:
    fight = Fight()
    # a long interval: the second burst cannot be sent before it has ended
    feed = Feed(fight.view, min_interval=1.0)
    viewer = feed.join()
    assert json.loads(await viewer.next(1.0) or "")["round"] == 1
    for round_ in range(2, 40):
        fight.round = round_
        feed.poke()  # one loop turn: all pokes land before any update
    assert json.loads(await viewer.next(5.0) or "")["round"] == 39
    assert feed.updates == 1
    for round_ in range(40, 80):
        fight.round = round_
        feed.poke()
    assert json.loads(await viewer.next(5.0) or "")["round"] == 79
    assert feed.updates == 2  # the second burst waited for the interval: one update
    feed.close()


async def test_a_viewer_that_falls_behind_gets_only_the_newest_view() -> None:
    fight = Fight()
    feed = Feed(fight.view, min_interval=0.0)
    viewer = feed.join()
    await viewer.next(1.0)
    for round_ in (2, 3, 4):
        fight.round = round_
        feed.poke()
        await asyncio.sleep(0.01)  # each one an update of its own
    assert feed.updates == 3
    assert json.loads(await viewer.next(1.0) or "")["round"] == 4
    assert await viewer.next(0.05) is None  # nothing queued behind it
    feed.close()


async def test_back_to_the_view_a_page_shows_sends_nothing() -> None:
    fight = Fight()
    feed = Feed(fight.view, min_interval=0.0)
    viewer = feed.join()
    await viewer.next(1.0)  # round 1 shown
    fight.round = 2
    feed.poke()
    await asyncio.sleep(0.01)
    fight.round = 1  # undone before the page read round 2
    feed.poke()
    await asyncio.sleep(0.01)
    assert await viewer.next(0.05) is None  # the page shows round 1 already
    feed.close()


def test_the_policy_names_every_inline_block_and_nothing_else() -> None:
    page = load_page(b"<style>a{}</style><script>1</script>")
    assert "script-src 'sha256-" in page.policy
    assert page.policy.count("sha256-") == 2
    bare = load_page(b"<p>no script</p>")
    assert "script-src 'none'" in bare.policy and "style-src 'none'" in bare.policy
