"""Sharing the fight with the players, as the app sees it: on or off, this
computer only or the local network, and the link's token and port, kept in
the encounter's UI state so a bookmarked page or a printed QR code works
after a restart; a new token or port is written at once (a link just handed
out must survive a crash).  aiohttp is imported only when sharing starts."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tracker.share import UI_KEY, kept_on

if TYPE_CHECKING:
    from rules.encounter import Encounter
    from saves.live import LiveEncounter
    from tracker.share.server import ShareServer

#: a kept token must look like one we made (the state file may be hostile)
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: bytes of randomness in a token (22 URL-safe characters)
TOKEN_BYTES = 16

#: builds the players' view of an encounter (rules.players_view.players_view)
ViewOf = Callable[["Encounter"], Mapping[str, Any]]


def new_token() -> str:
    """An unguessable token for the link."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def default_view_of() -> ViewOf:
    """The redaction core: what leaves the process is only what it lets out."""
    from rules.players_view import players_view

    return players_view


@dataclass(frozen=True)
class ShareState:
    """What is kept with the encounter."""

    token: str | None = None
    port: int | None = None
    lan: bool = False
    on: bool = False

    @classmethod
    def from_ui(cls, value: object) -> ShareState:
        """The kept state; anything malformed is dropped, never trusted."""
        if not isinstance(value, Mapping):
            return cls()
        token, port = value.get("token"), value.get("port")
        return cls(
            token if isinstance(token, str) and TOKEN.fullmatch(token) else None,
            port if type(port) is int and 0 < port < 65536 else None,  # not a bool
            value.get("lan") is True,
            kept_on(value),
        )

    def to_ui(self) -> dict[str, Any]:
        return {"token": self.token, "port": self.port, "lan": self.lan, "on": self.on}


class Sharing:
    """The players' view of one live encounter: start, stop, LAN, token."""

    def __init__(
        self,
        live: LiveEncounter,
        view_of: ViewOf | None = None,
        *,
        lan: bool | None = None,
        ports: tuple[int, ...] | None = None,
        server_options: Mapping[str, Any] | None = None,
    ) -> None:
        """*lan*: ``--lan`` (None: as kept); *ports*: tried after the kept
        port instead of the default (tests: 0); *server_options*: for
        :class:`ShareServer`."""
        self.live = live
        self._view_of = view_of
        self._ports = ports
        self._options = dict(server_options or {})
        self._server: ShareServer | None = None
        #: what the GM must know of the last start (the link changed), until shown
        self.note: str | None = None
        self.state = ShareState.from_ui(live.ui_state.get(UI_KEY))
        if lan is not None:
            self.state = replace(self.state, lan=lan)

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.running

    @property
    def viewers(self) -> int:
        return 0 if self._server is None else self._server.viewers

    @property
    def url(self) -> str | None:
        return self._server.url if self.running and self._server is not None else None

    @property
    def lan(self) -> bool:
        return self.state.lan

    @property
    def resumes(self) -> bool:
        """Sharing was on when the tracker last closed this encounter."""
        return self.state.on

    def take_note(self) -> str | None:
        note, self.note = self.note, None
        return note

    def changed(self) -> None:
        """The fight changed (``LiveEncounter.watch``): the pages update."""
        if self._server is not None:
            self._server.changed()

    def start(self) -> str | None:
        """Serve the players' view; None when it is served, else why not."""
        if self.running:
            return None
        try:
            from tracker.share.server import DEFAULT_PORT, ShareError, ShareServer

            view_of = self._view_of or default_view_of()
        except ImportError as exc:
            return f"the players' view cannot start: {exc.name or exc} is not installed"
        token = self.state.token or new_token()
        ports = [p for p in (self.state.port, *(self._ports or (DEFAULT_PORT,))) if p is not None]
        live = self.live
        server = ShareServer(
            lambda: view_of(live.encounter), token, lan=self.state.lan, ports=ports, **self._options
        )
        try:
            server.start()
        except ShareError as exc:
            return str(exc)
        self.note = None
        kept = self.state.port
        if kept is not None and server.port != kept:
            self.note = (
                f"The players' view: port {kept} is busy, so the link has changed "
                "(pages on the old one stop; P shows the new one)."
            )
        self._server = server
        live.watch(self.changed)
        return self._keep(replace(self.state, token=token, port=server.port, on=True))

    def stop(self) -> None:
        """Stop sharing (every page says "reconnecting…")."""
        self._halt()
        self._keep(replace(self.state, on=False))

    def close(self) -> None:
        """The app closes: the server stops, sharing resumes next time."""
        self._halt()

    def set_lan(self, on: bool) -> str | None:
        """Listen on the local network or not; a server that is on restarts, same link."""
        problem = self._keep(replace(self.state, lan=on))
        if self.running or self.state.on:
            self._halt()
            problem = self.start() or problem
        return problem

    def new_link(self) -> str | None:
        """A new token: the old link is a 404 from now on."""
        token = new_token()
        problem = self._keep(replace(self.state, token=token))
        if self._server is not None:
            self._server.set_token(token)
        return problem

    def _halt(self) -> None:
        server, self._server = self._server, None
        self.live.unwatch(self.changed)
        if server is not None:
            server.stop()

    def _keep(self, state: ShareState) -> str | None:
        """Keep *state* with the encounter: a new token or port is written now."""
        from saves.store import SaveError

        durable = (state.token, state.port) != (self.state.token, self.state.port)
        self.state = state
        self.live.set_ui_state(**{UI_KEY: state.to_ui()})
        store = self.live.store
        if durable and store is not None and not store.read_only:
            try:
                self.live.compact()
            except SaveError as exc:
                return f"the link works now but is not saved yet: {exc}"
        return None
