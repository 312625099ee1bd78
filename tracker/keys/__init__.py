"""Every key of the tracker, as data: each :class:`Key` has a stable ``id``
the keymap file rebinds, in one table per screen that :mod:`tracker.bindings`
turns into Textual bindings and help tables."""

from __future__ import annotations

from typing import NamedTuple

from textual.binding import Binding


class Key(NamedTuple):
    """One rebindable key: ``key`` may list several keys (``"j,down"``)."""

    id: str
    key: str
    action: str
    label: str
    title: str
    help: str
    show: bool = True
    priority: bool = False
    #: shown in the footer only when the terminal is wide enough
    wide: bool = False

    def binding(self) -> Binding:
        """The Textual binding (the keymap swaps ``key`` by ``id``)."""
        return Binding(
            self.key,
            self.action,
            self.label,
            show=self.show and not self.wide,  # the footer shows a wide key itself
            tooltip=self.help,
            id=self.id,
            priority=self.priority,
        )
