"""The key footer, one widget drawing one line (Textual's ``Footer`` mounts
one widget per key): the shown bindings, greyed when ``check_action`` says
they do not apply, plus the ``wide`` keys when there is room."""

from __future__ import annotations

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
        self._items: list[tuple[str, str, str, bool]] | None = None
        self._extra: set[str] = set()
        self._pinned: set[str] = set()
        self._spans: list[tuple[int, int, str, bool]] = []

    def on_mount(self) -> None:
        # the keys are read when first drawn: the screen's on_mount, which
        # decides which keys apply, runs after its children's
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    @property
    def items(self) -> list[tuple[str, str, str, bool]]:
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

    def _read(self, screen: Screen[object]) -> tuple[list[tuple[str, str, str, bool]], set[str]]:
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

    def shown(self, width: int) -> list[tuple[str, str, str, bool]]:
        """The items drawn at *width*: every usual key, then extra keys
        while there is room.  On a narrow screen the greyed keys go first
        (they do nothing now), then keys from the end, never help and quit:
        a GM who cannot see a key can still find it through ``?``."""

        def size(item: tuple[str, str, str, bool]) -> int:
            return len(item[1]) + (len(item[2]) + 1 if item[2] else 0) + 1

        usual = [i for i in self.items if i[0] not in self._extra]
        if sum(map(size, usual)) > width:
            usual = [i for i in usual if i[3] or i[0] in self._pinned]
            pinned = sum(size(i) for i in usual if i[0] in self._pinned)
            fits, room = [], width - pinned
            for item in usual:
                if item[0] in self._pinned:
                    fits.append(item)
                elif size(item) <= room:
                    room -= size(item)
                    fits.append(item)
                else:
                    room = 0  # keep the order: no later, shorter key jumps in
            return fits
        room = width - sum(map(size, usual))
        keep = set()
        for item in self.items:
            if item[0] in self._extra and size(item) <= room:
                room -= size(item)
                keep.add(item[0])
        return [i for i in self.items if i[0] not in self._extra or i[0] in keep]

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
