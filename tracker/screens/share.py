"""The players' view dialog (``P``): the link, its QR code when phones can
open it, how many pages watch, and what the players are shown (each
setting a ``view`` action, logged and undoable).  Title and keys sit on
the border, the link on the line above the code: a 17-line code and its
link fit 60x20."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tracker.bindings import SHARE_KEYS, bindings
from tracker.screens.dialog import Dialog
from tracker.screens.quitting import quitting
from tracker.widgets.plain import plain

if TYPE_CHECKING:
    from rules.view_settings import ViewSettings
    from tracker.screens.encounter_view import EncounterView
    from tracker.share.sharing import Sharing

#: Sends one action line; None when applied, else why not.
Apply = Callable[[str], str | None]
#: (setting, key, label) of each setting the dialog changes, from its keys
SETTING_KEYS = [
    (k.action[len("cycle('") : -2], k.key, k.label)
    for k in SHARE_KEYS
    if k.action.startswith("cycle(")
]

#: how often the viewer count is read while the dialog is open (seconds)
VIEWERS_EVERY = 0.5

LOCAL_NOTE = (
    "Only this computer can open it (a TV plugged into it works). "
    "l: let phones and TVs on this network in, with a QR code to scan."
)
LAN_NOTE = "Any phone, tablet or TV on this network can open it: scan the code."


def word_of(value: object) -> str:
    """A setting's value as ``view`` takes it (``True`` → ``on``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def settings_text(view: ViewSettings) -> Text:
    """What the players are shown, one setting a line, with its key."""
    text = Text()
    text.append("What the players see (an action each; ctrl+z undoes):\n", style="bold")
    for setting, key, label in SETTING_KEYS:
        text.append(f"{key} ", style="bold")
        text.append(f"{label}: ")
        text.append(word_of(getattr(view, setting)), style="bold")
        text.append("\n")
    text.append("V / M / v hide, mask, reveal a monster (the encounter's keys)", style="italic")
    return text


def viewers_line(count: int) -> str:
    if count == 0:
        return "Nobody is watching yet."
    return f"Watching now: {count} page{'s' if count != 1 else ''}."


class ShareScreen(Dialog[None]):
    """The link, the code, the viewers; stop, LAN, new link."""

    BINDINGS = bindings(SHARE_KEYS)

    def __init__(self, sharing: Sharing, apply: Apply) -> None:
        super().__init__()
        self.sharing = sharing
        self._apply = apply
        self._drawn_url: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog share", id="share") as dialog:
            dialog.border_title = "The players' view"
            dialog.border_subtitle = "P stop · l LAN · N new link · Esc close"
            # the link on a line of its own, the dialog's width: beside the code
            # it broke inside its token, and a GM reads it out or copies it whole
            yield Static(id="share-url", markup=False)
            with Horizontal(id="share-body"):
                yield Static(id="share-qr")
                with VerticalScroll(id="share-info"):
                    yield Static(id="share-where", classes="dialog-hint", markup=False)
                    yield Static(id="share-viewers", markup=False)
                    yield Static(id="share-problem", classes="error", markup=False)
                    yield Static(id="share-settings", markup=False)

    def on_mount(self) -> None:
        self.show(self.sharing.take_note())
        self.set_interval(VIEWERS_EVERY, self._show_viewers)

    def show(self, problem: str | None = None) -> None:
        """Draw what sharing is now (the code only when the link changed)."""
        sharing = self.sharing
        url = sharing.url or ""
        self.query_one("#share-url", Static).update(plain(url))
        self.query_one("#share-where", Static).update(LAN_NOTE if sharing.lan else LOCAL_NOTE)
        qr = self.query_one("#share-qr", Static)
        qr.display = sharing.lan and bool(url)
        if qr.display and url != self._drawn_url:
            from tracker.share.qr import STYLE, qr_lines

            qr.update(Text("\n".join(qr_lines(url)), style=STYLE, no_wrap=True, end=""))
            self._drawn_url = url
        note = self.query_one("#share-problem", Static)
        note.display = bool(problem)
        note.update(plain(problem or ""))
        self.query_one("#share-settings", Static).update(settings_text(sharing.live.encounter.view))
        self._show_viewers()

    def _show_viewers(self) -> None:
        if not quitting(self):
            self.query_one("#share-viewers", Static).update(viewers_line(self.sharing.viewers))

    def action_stop(self) -> None:
        self.sharing.stop()
        self.notify("Stopped sharing: the players' pages say reconnecting… (P shares again).")
        self.dismiss(None)

    def action_lan(self) -> None:
        self.show(self.sharing.set_lan(not self.sharing.lan))

    def action_cycle(self, setting: str) -> None:
        """The next value of *setting*, sent as ``view SETTING VALUE``."""
        from rules.view_settings import choices_of

        words = choices_of(setting)
        now = word_of(getattr(self.sharing.live.encounter.view, setting))
        following = words[(words.index(now) + 1) % len(words)] if now in words else words[0]
        self.show(self._apply(f"view {setting} {following}"))

    def action_new_link(self) -> None:
        from tracker.screens.prompt import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.show(self.sharing.new_link())

        self.app.push_screen(
            ConfirmScreen(
                "Replace the link?",
                "The old link and QR code stop working; the players open the new one.",
                destructive=True,
            ),
            answered,
        )


def share(screen: EncounterView, sharing: Callable[[], Sharing]) -> None:
    """``P``: start sharing (if off) and show the dialog, else one notice why not."""
    current = sharing()
    problem = current.start()
    if problem is not None:
        screen.notify(problem, severity="error", timeout=8, markup=False)
        return
    screen.app.push_screen(ShareScreen(current, screen.apply))
