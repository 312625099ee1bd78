"""The players' view over HTTP (aiohttp), under the token: the page, the
view as JSON and server-sent ``events``.  Anything else is an empty 404
(nothing says whether a token exists); GET and HEAD only.  Every response
carries a strict Content-Security-Policy and is never cached, sniffed or
referred."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.resources import files

from aiohttp import web

from tracker.share.feed import Feed

#: seconds between a quiet stream's comment lines: proxies and phones drop
#: an idle connection, and a dead one is found
HEARTBEAT = 15.0
#: how long a page waits before reconnecting a dropped stream (ms)
RETRY_MS = 1000

METHODS = ("GET", "HEAD")

FEED_KEY: web.AppKey[Feed] = web.AppKey("feed", Feed)


@dataclass(frozen=True)
class Page:
    """The page's HTML and the policy that lets just its script and style run."""

    html: bytes
    policy: str


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def load_page(html: bytes | None = None) -> Page:
    """The page (``page.html`` unless *html*) and a policy naming its inline hashes."""
    if html is None:
        html = files("tracker.share").joinpath("page.html").read_bytes()
    text = html.decode("utf-8")
    scripts = [_hash(s) for s in re.findall(r"<script>(.*?)</script>", text, re.DOTALL)]
    styles = [_hash(s) for s in re.findall(r"<style>(.*?)</style>", text, re.DOTALL)]
    policy = "; ".join(
        (
            "default-src 'none'",
            f"script-src {' '.join(scripts) or chr(39) + 'none' + chr(39)}",
            f"style-src {' '.join(styles) or chr(39) + 'none' + chr(39)}",
            "connect-src 'self'",
            "img-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )
    return Page(html, policy)


def players_app(
    feed: Feed, token: Callable[[], str], page: Page | None = None, heartbeat: float = HEARTBEAT
) -> web.Application:
    """The web application; *token* is read on every request: a new one applies at once."""
    page = page or load_page()
    app = web.Application()
    app[FEED_KEY] = feed
    routes = {
        "": lambda request: _page(request, page),
        "view.json": lambda request: _json(request, feed),
        "events": lambda request: _events(request, feed, heartbeat),
    }

    async def dispatch(request: web.Request) -> web.StreamResponse:
        path = request.path
        given, slash, rest = path[1:].partition("/")
        known = secrets.compare_digest(given.encode("utf-8", "replace"), token().encode("ascii"))
        if not known or (rest not in routes and not (rest == "" and not slash)):
            return web.Response(status=404)
        if request.method not in METHODS:
            return web.Response(status=405, headers={"Allow": ", ".join(METHODS)})
        if not slash:  # /<token>: the page lives at /<token>/
            raise web.HTTPFound(f"/{given}/", text="")
        return await routes[rest](request)

    app.router.add_route("*", "/{tail:.*}", dispatch)
    app.on_response_prepare.append(_secure_headers(page.policy))
    return app


def _secure_headers(policy: str) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    async def secure(_request: web.Request, response: web.StreamResponse) -> None:
        headers = response.headers
        headers["Content-Security-Policy"] = policy
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        headers["Cache-Control"] = "no-store"
        headers["X-Frame-Options"] = "DENY"
        headers["Cross-Origin-Resource-Policy"] = "same-origin"
        headers["Server"] = "combat-tracker"

    return secure


async def _page(_request: web.Request, page: Page) -> web.StreamResponse:
    return web.Response(body=page.html, content_type="text/html", charset="utf-8")


async def _json(_request: web.Request, feed: Feed) -> web.StreamResponse:
    return web.Response(text=feed.render(), content_type="application/json", charset="utf-8")


async def _events(request: web.Request, feed: Feed, heartbeat: float) -> web.StreamResponse:
    """The current view at once, then each new one; a comment line after *heartbeat* s."""
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    if request.method == "HEAD":
        return response
    viewer = feed.join()
    try:
        await response.write(f"retry: {RETRY_MS}\n\n".encode("ascii"))
        while True:
            text = await viewer.next(heartbeat)
            if viewer.closed:
                break
            chunk = ": heartbeat\n\n" if text is None else f"event: view\ndata: {text}\n\n"
            await response.write(chunk.encode("ascii"))
    except ConnectionError:
        pass  # the page went away
    finally:
        feed.leave(viewer)
    return response
