"""The key footer, one widget drawing one line (Textual's ``Footer`` mounts
one widget per key): the shown bindings, greyed when ``check_action`` says
they do not apply, plus the ``wide`` keys when there is room."""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.widget import Widget

from rules.text import visible
from tracker.bindings import wide_ids

if TYPE_CHECKING:
    from textual.screen import Screen

_WIDE = wide_ids()
#: the keys a narrow footer keeps whatever else it drops
PINNED = frozenset({"app.help", "app.quit"})

#: (key to press, key as shown, label, enabled): one key of the footer
Item = tuple[str, str, str, bool]


def fit(items: Sequence[Item], extra: Set[str], pinned: Set[str], width: int) -> list[Item]:
    """The *items* a footer *width* columns wide draws, in their order.

    Help and quit (*pinned*) always; then the usual keys that apply, from
    the first while they fit (a later, shorter one never jumps in: the
    footer drops keys from its end); only when every one of those fits, the
    *extra* keys that apply, while there is room.  A greyed key (it does
    nothing now) only takes room left over once every key that applies
    and fits is shown: a GM never loses ``t Temp`` to ``s Start`` mid-fight.
    A GM who cannot see a key can still find it through ``?``."""

    def size(item: Item) -> int:
        return len(item[1]) + (len(item[2]) + 1 if item[2] else 0) + 1

    keep = {i[0] for i in items if i[0] in pinned}
    room = width - sum(size(i) for i in items if i[0] in keep)

    def place(enabled: bool, extras: bool) -> bool:
        """Show those keys while they fit (the extra keys skip one that does
        not); False when a usual key did not fit."""
        nonlocal room
        for item in items:
            if item[0] in keep or item[3] != enabled or (item[0] in extra) != extras:
                continue
            if size(item) <= room:
                room -= size(item)
                keep.add(item[0])
            elif not extras:
                return False
        return True

    if place(enabled=True, extras=False):
        place(enabled=True, extras=True)
        if place(enabled=False, extras=False):
            place(enabled=False, extras=True)
    return [i for i in items if i[0] in keep]


class KeyFooter(Widget, can_focus=False):
    """The shown bindings of the screen, as ``key label`` pairs."""

    COMPONENT_CLASSES = {
        "key-footer--key",
        "key-footer--description",
        "key-footer--disabled",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: (key to press, key as shown, label, enabled) per shown action,
        #: and the keys shown only when there is room; None: not read yet
        self._items: list[Item] | None = None
        self._extra: set[str] = set()
        self._pinned: set[str] = set()
        self._spans: list[tuple[int, int, str, bool]] = []

    def on_mount(self) -> None:
        # the keys are read when first drawn: the screen's on_mount, which
        # decides which keys apply, runs after its children's
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    @property
    def items(self) -> list[Item]:
        if self._items is None:
            self._items, self._extra = self._read(self.screen)
        return self._items

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if screen is not self.screen or self._items is None:
            return
        items, extra = self._read(screen)
        if items != self._items or extra != self._extra:
            self._items, self._extra = items, extra
            self.refresh()

    def _read(self, screen: Screen[object]) -> tuple[list[Item], set[str]]:
        seen: set[str] = set()
        items = []
        extra = set()
        self._pinned = set()
        for _node, binding, enabled, _tooltip in screen.active_bindings.values():
            wide = not binding.show and binding.id in _WIDE
            if not (binding.show or wide) or binding.action in seen:
                continue
            seen.add(binding.action)
            key = binding.key.split(",")[0]
            # a key as the user's keymap spells it is data: made visible
            shown = visible(self.app.get_key_display(binding))
            items.append((key, shown, visible(binding.description), enabled))
            if wide:
                extra.add(key)
            if binding.id in PINNED:
                self._pinned.add(key)
        return items, extra

    def shown(self, width: int) -> list[Item]:
        """The items drawn at *width* (see :func:`fit`)."""
        return fit(self.items, self._extra, self._pinned, width)

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-footer--key")
        label_style = self.get_component_rich_style("key-footer--description")
        disabled = self.get_component_rich_style("key-footer--disabled", partial=True)
        text = Text(no_wrap=True, overflow="crop", end="")
        spans = []
        for key, shown, label, enabled in self.shown(self.size.width):
            start = len(text)
            extra = disabled if not enabled else None
            text.append(shown, key_style + extra if extra else key_style)
            if label:
                text.append(" " + label, label_style + extra if extra else label_style)
            spans.append((start, len(text), key, enabled))
            text.append(" ")
        self._spans = spans
        return text

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it; a greyed one rings the bell."""
        x = event.x
        for start, end, key, enabled in self._spans:
            if start <= x < end:
                if enabled:
                    self.app.simulate_key(key)
                else:
                    self.app.bell()
                return
