"""The players' server on its own event loop in a background thread: the
app's loop never waits on a phone, a stuck phone never holds a key.  It
listens on the first free one of *ports*, else any free port, and holds
at most :data:`MAX_CONNECTIONS` at once (:class:`_Gate`)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from aiohttp import web

from tracker.share.feed import Feed, View
from tracker.share.quiet import THREAD_NAME, quarantine
from tracker.share.web import HEARTBEAT, Page, players_app

#: the port tried first (then the port the encounter used last, then any)
DEFAULT_PORT = 8765
#: seconds between two updates of a page (a burst of keys is one)
MIN_INTERVAL = 0.25
#: connections held at once: each is a file of the tracker's own process, so
#: a flood from the network must never take them all (a page needs two or three)
MAX_CONNECTIONS = 64
#: seconds before an idle connection is closed (a page's stream is never idle)
IDLE_TIMEOUT = 20.0
LOCAL_HOST = "127.0.0.1"
ANY_HOST = "0.0.0.0"


class ShareError(Exception):
    """Why sharing could not start, in one sentence."""


def lan_address() -> str | None:
    """This computer's LAN address: its default route's (a UDP connect sends nothing), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = str(probe.getsockname()[0])
    except OSError:  # no route, no IPv4, no file left
        return None
    return None if address.startswith(("0.", "127.")) else address


class ShareServer:
    """The page, the view and its stream, served from a background thread."""

    def __init__(
        self,
        view: View,
        token: str,
        *,
        lan: bool = False,
        ports: Sequence[int] = (DEFAULT_PORT,),
        heartbeat: float = HEARTBEAT,
        min_interval: float = MIN_INTERVAL,
        page: Page | None = None,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self._view = view
        self._token = token
        self.lan = lan
        self.ports = tuple(ports)
        self.heartbeat = heartbeat
        self.min_interval = min_interval
        self._page = page
        self.max_connections = max_connections
        #: the port bound (None: not listening)
        self.port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._feed: Feed | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: str | None = None
        self._log = quarantine()

    @property
    def running(self) -> bool:
        return self.port is not None

    @property
    def viewers(self) -> int:
        feed = self._feed
        return 0 if feed is None or not self.running else feed.viewers

    @property
    def host(self) -> str:
        """What a page opens: this computer's LAN address (or its name), or the loopback."""
        if not self.lan:
            return LOCAL_HOST
        return lan_address() or socket.gethostname()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port or self.ports[0]}/{self._token}/"

    def start(self, timeout: float = 10.0) -> None:
        """Bind and serve; return once listening, else raise ShareError."""
        if self._thread is not None:
            return
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            self._error = "the players' view did not start in time"
        if self._error is not None or self.port is None:
            error = self._error or "the players' view did not start"
            self.stop()
            raise ShareError(error)

    def stop(self, timeout: float = 5.0) -> None:
        """Close every stream and the port; wait a little for the (daemon) thread."""
        thread, loop, stopping = self._thread, self._loop, self._stopping
        if thread is None:
            return
        if loop is not None and stopping is not None:
            self._call(stopping.set)
        thread.join(timeout)
        self._thread = self._loop = self._stopping = self._feed = None
        self.port = None

    def changed(self) -> None:
        """The fight changed (any thread): the pages get the new view."""
        feed = self._feed
        if feed is not None:
            self._call(feed.poke)

    def set_token(self, token: str) -> None:
        """A new token: the old URL is a 404, its pages are disconnected."""
        self._token = token
        feed = self._feed
        if feed is not None:
            self._call(feed.close)

    def _call(self, callback: Any) -> None:
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: stopping
            loop.call_soon_threadsafe(callback)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(self._loop_error)
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except Exception as exc:  # never on the GM's screen: logged
            self._log.error("the players' view stopped", exc_info=exc)
            self._error = self._error or f"the players' view stopped: {exc}"
        finally:
            self.port = None
            self._ready.set()
            try:
                loop.run_until_complete(loop.shutdown_asyncgens())
            finally:
                loop.close()

    def _loop_error(self, _loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self._log.warning(str(context.get("message")), exc_info=context.get("exception"))

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        feed = Feed(self._view, self.min_interval)
        app = players_app(feed, lambda: self._token, self._page, self.heartbeat)
        runner = web.AppRunner(
            app,
            access_log=None,
            handler_cancellation=True,
            shutdown_timeout=1.0,
            keepalive_timeout=IDLE_TIMEOUT,
        )
        await runner.setup()
        listener: asyncio.Server | None = None
        try:
            listener = await self._bind(runner)
            if listener is None:
                return
            self.port = int(listener.sockets[0].getsockname()[1])
            self._feed = feed
            self._ready.set()
            await self._stopping.wait()
        finally:
            feed.close()
            if listener is not None:
                listener.close()  # the port, at once (as aiohttp's own sites do)
            await runner.cleanup()

    async def _bind(self, runner: web.AppRunner) -> asyncio.Server | None:
        host = ANY_HOST if self.lan else LOCAL_HOST
        loop = asyncio.get_running_loop()
        gate = _Gate.factory(runner, self.max_connections)
        for port in dict.fromkeys([*self.ports, 0]):
            try:
                return await loop.create_server(gate, host, port)
            except OSError as exc:
                if exc.errno not in (errno.EADDRINUSE, errno.EACCES) or port == 0:
                    self._error = f"cannot listen on {host}: {exc.strerror or exc}"
                    return None
        return None


class _Gate(asyncio.Protocol):
    """A new connection past the limit is closed at once, else handed to
    aiohttp's protocol (counted by its server at once: a burst counts exactly)."""

    def __init__(self, runner: web.AppRunner, limit: int) -> None:
        self._runner = runner
        self._limit = limit

    @classmethod
    def factory(cls, runner: web.AppRunner, limit: int) -> Callable[[], asyncio.Protocol]:
        return lambda: cls(runner, limit)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        server = self._runner.server
        if server is None or len(server.connections) >= self._limit:
            transport.close()
            return
        handler = server()
        transport.set_protocol(handler)
        handler.connection_made(transport)
