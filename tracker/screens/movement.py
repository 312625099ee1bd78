"""Movement (``m``): dash, run or sprint with an endurance check (RULES.md
§8), previewed and confirmed before points are spent; the line sent carries
the previewed face.  The roll is kept (cancel and reopen shows it) until
applied or re-rolled with ``ctrl+r``: no fishing for a better d20."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, Static

from tracker.bindings import MOVEMENT_KEYS, bindings
from tracker.screens.dialog import Dialog
from tracker.screens.faces import check_face
from tracker.screens.typeahead import TakesTyping
from tracker.widgets.plain import plain
from tracker.widgets.plain_input import PlainInput

if TYPE_CHECKING:
    from rules.endurance import EnduranceCheck

#: (movement, face or None, re-roll) → the engine's EnduranceCheck, or an
#: error message; a program roll is kept until re-roll is True.
Preview = Callable[[str, int | None, bool], "EnduranceCheck | str"]
#: (movement, face or None, spend) → the ``move`` line to send.
MoveLine = Callable[[str, int | None, bool], str]


class MovementScreen(TakesTyping, Dialog[str | None]):
    """Choose the movement, (type the face), see the check, confirm."""

    BINDINGS = bindings(MOVEMENT_KEYS)

    def __init__(
        self, name: str, points: int | None, preview: Preview, ask_face: bool, line: MoveLine
    ) -> None:
        super().__init__()
        self._target = name
        self._points = points
        self._preview = preview
        self._move_line = line
        self._ask_face = ask_face
        self._movement: str | None = None
        self._line: str | None = None
        self._spend_line: str | None = None
        #: the check shown was rolled by the program (ctrl+r may re-roll it)
        self._rolled = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(f"Movement: {self._target}"), classes="dialog-title")
            yield Static(
                "d: dash (DL 14) · r: run (DL 18) · s: sprint (DL 22)", id="move-text", markup=False
            )
            yield Static("", id="move-message", classes="dialog-hint", markup=False)
            yield Static("Esc: cancel", id="move-keys", classes="dialog-keys", markup=False)

    def _say(self, text: str, keys: str, error: bool = False) -> None:
        message = self.query_one("#move-message", Static)
        message.set_class(error, "error")
        # one line each: a name in the text is made visible, the breaks stay
        message.update(Content("\n").join(plain(line) for line in text.split("\n")))
        self.query_one("#move-keys", Static).update(plain(keys))

    def action_choose(self, movement: str) -> None:
        if self._movement is not None:
            return
        self._movement = movement
        self.query_one("#move-text", Static).update(f"{movement.capitalize()}")
        if self._ask_face:
            face = PlainInput(placeholder="d20 face (Enter: the program rolls)", id="move-face")
            self.query_one(".dialog").mount(face, after="#move-text")
            face.focus()
            self._say("", "Enter: use this face · empty Enter: the program rolls · Esc: cancel")
        else:
            self._check(None)

    def entered(self, text: str, field: Input) -> None:
        face: int | str | None = None if not text else check_face(text, 20)
        if isinstance(face, str):
            self._say(face, "Enter: use this face · Esc: cancel", error=True)
            return
        field.remove()
        self._check(face)

    def _check(self, face: int | None, reroll: bool = False) -> None:
        assert self._movement is not None
        check = self._preview(self._movement, face, reroll)
        self._line = self._spend_line = None
        if isinstance(check, str):
            self._movement = None
            self._rolled = False
            self._say(check, "d / r / s: choose again · Esc: cancel", error=True)
            return
        used = check.face if face is None else face
        text, move_line = check.text, self._move_line
        self._rolled = face is None and not check.already_active
        again = " · ctrl+r: re-roll" if self._rolled else ""
        if check.already_active:
            self._line = move_line(self._movement, None, True)
            self._say(text, "Enter: apply · Esc: cancel")  # the text says no check is needed
            return
        shortfall = check.shortfall
        if shortfall <= 0:
            self._line = move_line(self._movement, used, True)
            self._say(f"{text}\nSuccess.", f"Enter: apply{again} · Esc: cancel")
        elif self._points is not None and self._points >= shortfall:
            self._spend_line = move_line(self._movement, used, True)
            self._line = move_line(self._movement, used, False)
            self._say(
                f"{text}\n{shortfall} short of DL {check.dl}: "
                f"spend {shortfall} of {self._points} endurance points?",
                f"y: spend and move · n: don't spend (the movement fails){again} · Esc: cancel",
            )
        else:
            self._line = move_line(self._movement, used, False)
            points = "no endurance pool" if self._points is None else f"only {self._points} points"
            self._say(
                f"{text}\n{shortfall} short, {points}: the {self._movement} fails.",
                f"Enter: log the failed check{again} · Esc: cancel",
            )

    def action_reroll(self) -> None:
        """Roll the shown check again (only a check the program rolled)."""
        if self._movement is not None and self._rolled:
            self._check(None, reroll=True)

    def action_confirm(self, spend: bool) -> None:
        if self._spend_line is None:
            return
        self.dismiss(self._spend_line if spend else self._line)

    def action_apply(self) -> None:
        if self._line is not None and self._spend_line is None:
            self.dismiss(self._line)
