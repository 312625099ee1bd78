"""Keys typed faster than a dialog opens go to that dialog: ``d`` ``5``
Enter in one burst must not lose the digits nor take a letter of the line
as an encounter key.  The keys after one that acts are held until its
action is done and any dialog it opened is shown, then delivered in order;
a hold nobody releases ends by itself soon."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events

if TYPE_CHECKING:  # what the mixin is mixed into, for super()'s type
    from textual.dom import DOMNode as _Mixed
    from textual.screen import Screen

    from tracker.app import CombatTrackerApp
else:
    _Mixed = object

#: seconds after which held keys are delivered anyway (a dialog that never showed)
LONGEST_HOLD = 1.0


class KeyHold:
    """The keys held for a place to type that is opening (one per app)."""

    def __init__(self) -> None:
        self.keys: list[events.Key] | None = None
        #: the key whose action started the hold (it goes on to run)
        self.trigger: events.Key | None = None
        #: counts the holds, so a late timer ends only its own
        self.generation = 0

    def take(self, event: events.Event) -> bool:
        """Keep *event* while holding (True: kept, deliver nothing now)."""
        if self.keys is None or not isinstance(event, events.Key):
            return False
        self.keys.append(events.Key(event.key, event.character))
        return True

    def start(self, trigger: events.Key | None = None) -> None:
        if self.keys is None:
            self.trigger = trigger
            self.keys = []
            self.generation += 1

    def stop(self) -> list[events.Key]:
        """Stop holding; the keys held, oldest first."""
        keys, self.keys, self.trigger = self.keys or [], None, None
        return keys


def _tracker(node: _Mixed) -> CombatTrackerApp | None:
    """*node*'s app, when it holds keys (not a test's bare app)."""
    from tracker.app import CombatTrackerApp

    return node.app if isinstance(node.app, CombatTrackerApp) else None


def hold_keys(node: _Mixed, trigger: events.Key | None = None) -> None:
    """*trigger* (or what runs now) on *node* may open a place to type: hold the next keys."""
    if (app := _tracker(node)) is not None:
        app.hold_keys(trigger)


def held(screen: Screen[Any], event: events.Key) -> bool:
    """Hold *event*, or send it to the dialog over *screen* (True: taken from *screen*)."""
    app = _tracker(screen)
    if app is None:
        return False
    if app.take_key(event):
        return True
    if app.screen is screen:
        return False
    key = events.Key(event.key, event.character)
    key.set_sender(app)
    app.post_message(key)  # typed before the dialog showed, for the dialog
    return True


def release_keys(node: _Mixed) -> None:
    """The place to type has the focus: deliver the held keys after what is queued."""
    if (app := _tracker(node)) is not None:
        app.call_later(app.release_keys)


class TakesTyping(_Mixed):
    """A dialog mixin: keys typed from its push until it is shown are held for it."""

    #: shown, its input focused: keys go to it as they come
    typing_ready = False

    def on_screen_resume(self) -> None:
        if not self.typing_ready:
            self.typing_ready = True
            release_keys(self)
