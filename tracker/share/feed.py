"""The players' view as the server sends it: the whole redacted view as
JSON, re-sent to every viewer when the fight changes, at most once per
``min_interval`` and built once per update, not per viewer.  It lives on the
server's loop; the app's thread only pokes it.  A slow phone skips views,
never queues them."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from rules.text import visible

#: The fight's players' view: the redaction core's dict (rules.players_view).
View = Callable[[], Mapping[str, Any]]


def plain(value: Any) -> Any:
    """*value* with every string made visible: no control character reaches a browser."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def render(view: View) -> str:
    """The view as one line of ASCII JSON: nothing can split a server-sent event."""
    return json.dumps(plain(view()), ensure_ascii=True, separators=(",", ":"))


class Viewer:
    """One connected page: the newest view it has not been sent yet."""

    def __init__(self) -> None:
        self._waiting = asyncio.Event()
        self._text: str | None = None
        self.sent: str | None = None
        self.closed = False

    def offer(self, text: str) -> None:
        """*text* replaces what was waiting (not sent if the page shows it already)."""
        if text == self.sent:
            self._text = None
        else:
            self._text = text
            self._waiting.set()

    def close(self) -> None:
        """The stream ends (sharing stops, or the token changed)."""
        self.closed = True
        self._waiting.set()

    async def next(self, timeout: float) -> str | None:
        """The next view to send; None on *timeout* or when :attr:`closed`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.closed:
            if self._text is not None:
                text, self._text = self._text, None
                self.sent = text
                return text
            self._waiting.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            try:
                await asyncio.wait_for(self._waiting.wait(), remaining)
            except TimeoutError:
                return None
        return None


class Feed:
    """The view, built when the fight changed and offered to every viewer."""

    def __init__(self, view: View, min_interval: float = 0.25) -> None:
        self._view = view
        self.min_interval = min_interval
        self._viewers: set[Viewer] = set()
        self._last = -math.inf  # loop time of the last update built
        self._pending: asyncio.TimerHandle | None = None
        #: updates built and offered (coalescing is seen here)
        self.updates = 0

    @property
    def viewers(self) -> int:
        return len(self._viewers)

    def render(self) -> str:
        return render(self._view)

    def join(self) -> Viewer:
        """A new viewer, offered the current view at once."""
        viewer = Viewer()
        viewer.offer(self.render())
        self._viewers.add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        self._viewers.discard(viewer)

    def poke(self) -> None:
        """The fight changed: an update now, or once ``min_interval`` has passed."""
        if self._pending is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last + self.min_interval - loop.time())
        self._pending = loop.call_later(delay, self._update)

    def _update(self) -> None:
        self._pending = None
        if not self._viewers:
            return  # nobody to tell; a page that connects is sent the view then
        self._last = asyncio.get_running_loop().time()
        self.updates += 1
        text = self.render()
        for viewer in self._viewers:
            viewer.offer(text)

    def close(self) -> None:
        """End every stream (the pages reconnect)."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        for viewer in list(self._viewers):
            viewer.close()
        self._viewers.clear()
