"""Command palette (``ctrl+p``) entries for the encounter screen.

Every key of :data:`tracker.bindings.ENCOUNTER_KEYS` is offered under its
namespaced title ("encounter: next turn", "dice: roll…"); entries the screen
cannot run right now (``check_action``) are left out.  The palette reads
help text as Textual markup, so the usage lines (``[TAG…] [crit]``) are
escaped and show as written.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from tracker.bindings import ENCOUNTER_KEYS, Key
from tracker.screens.quitting import quitting


class QuietPalette(CommandPalette):
    """Textual's command palette, whose searches (workers) started while
    the app quits fail quietly: keys typed into the palette just before
    ``ctrl+q`` start a search that finds the palette's list already gone
    (issue 9: quitting while keys are still arriving never crashes)."""

    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        if quitting(self):
            kwargs["exit_on_error"] = False
        return super().run_worker(work, *args, **kwargs)


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
                yield Hit(
                    score,
                    matcher.highlight(key.title),
                    partial(self._run, key),
                    help=escape(key.help),
                )
