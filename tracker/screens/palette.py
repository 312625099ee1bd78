"""Command palette (``ctrl+p``) entries: every encounter key that applies
now, under its namespaced title, its help escaped (the palette reads it as
markup)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from tracker.bindings import ENCOUNTER_KEYS, Key


class EncounterCommands(Provider):
    """Namespaced titles for every encounter action."""

    def _available(self) -> list[Key]:
        screen = self.screen
        return [k for k in ENCOUNTER_KEYS if screen.check_action(k.action, ()) is True]

    def _run(self, key: Key) -> None:
        self.screen.run_worker(self.screen.run_action(key.action), exclusive=False)

    async def discover(self) -> Hits:
        for key in self._available():
            yield DiscoveryHit(key.title, partial(self._run, key), help=escape(key.help))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for key in self._available():
            score = matcher.match(key.title)
            if score > 0:
                run = partial(self._run, key)
                yield Hit(score, matcher.highlight(key.title), run, help=escape(key.help))
