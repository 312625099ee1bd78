"""The command palette screen (``ctrl+p``): Textual's own, kept out of the
module of its entries (``tracker.screens.palette``) so the class is built
when the palette first opens, not when an encounter opens."""

from __future__ import annotations

from typing import Any

from textual.command import CommandPalette

from tracker.screens.quitting import quitting


class QuietPalette(CommandPalette):
    """Textual's command palette, whose searches fail quietly while the app quits."""

    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        if quitting(self):
            kwargs["exit_on_error"] = False
        return super().run_worker(work, *args, **kwargs)
