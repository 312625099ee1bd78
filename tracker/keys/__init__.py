"""Every key of the tracker, as data: each :class:`Key` has a stable ``id``
the keymap file rebinds (:mod:`tracker.config`).  The tables are by screen:
:mod:`tracker.keys.encounter` (the encounter screen) and
:mod:`tracker.keys.dialogs` (the picker, the dialogs and the prompts);
:mod:`tracker.bindings` turns them into Textual bindings and help tables."""

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
    #: shown in the footer too when the terminal is wide enough
    wide: bool = False

    def binding(self) -> Binding:
        """The Textual binding (the keymap swaps ``key`` by ``id``)."""
        return Binding(
            self.key,
            self.action,
            self.label,
            show=self.show,
            tooltip=self.help,
            id=self.id,
            priority=self.priority,
        )
