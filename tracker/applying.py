"""The encounter controller's calls into the live encounter
(``saves.live.LiveEncounter``).  Each failure (an action refused, a save
that failed) comes back as one sentence for the GM, with nothing changed;
none is ever a traceback."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.encounter import Encounter
    from rules.endurance import EnduranceCheck
    from rules.engine.step import Step
    from saves.live import LiveEncounter

#: A parsed action (``rules.engine.parse.parse_action``), as ``LiveEncounter.do`` takes it.
Action = Mapping[str, object]
#: ``(label, sides)`` of each die the GM is asked to roll (``LiveEncounter.dice_needed``).
Dice = list[tuple[str, int]]


def dice_needed(live: LiveEncounter, line: str) -> tuple[Action, Dice] | str:
    """*line* parsed, with the dice it will roll, or why it is refused."""
    from rules.engine.parse import parse_action
    from rules.engine.targets import group_names
    from rules.errors import ActionError

    combatants = live.encounter.combatants
    try:
        action = parse_action(line, [c.name for c in combatants], group_names(combatants))
        return action, live.dice_needed(action)
    except ActionError as exc:
        return str(exc)


def do(live: LiveEncounter, line_or_action: str | Action, faces: Sequence[int] = ()) -> Step | str:
    """Apply and durably save one action (with the GM's *faces*); its step,
    else what to tell the GM."""
    from rules.errors import ActionError
    from saves.store import SaveError

    if faces:
        assert not isinstance(line_or_action, str)
        line_or_action = {**line_or_action, "faces": list(faces)}
    try:
        return live.do(line_or_action)
    except ActionError as exc:
        return str(exc)
    except SaveError as exc:
        return f"not saved, nothing changed: {exc}"


def history(live: LiveEncounter, undo: bool) -> Step | str:
    """Undo (or redo) one step; its step, else why not."""
    from rules.errors import ActionError
    from saves.store import SaveError

    try:
        return live.undo() if undo else live.redo()
    except (ActionError, SaveError) as exc:
        return str(exc)


def save_points(live: LiveEncounter) -> Callable[[str], str | None]:
    """What one save-point prompt does with each label: None when stored,
    else what to tell the GM.  A kept label is replaced only when typed
    again, so no save point is lost unasked."""
    asked: list[str] = []  # a label already kept, once the GM was told

    def submit(label: str) -> str | None:
        from saves.errors import SavePointExists
        from saves.store import SaveError

        if not label:
            return "type a label for the save point, e.g. before the dragon"
        try:
            live.save_point(label, replace=asked == [label])
        except SavePointExists as exc:
            asked[:] = [label]
            return f"{exc.label!r} is kept already (saved {exc.created}): Enter again replaces it"
        except SaveError as exc:
            return str(exc)
        return None

    return submit


def compact_if_due(live: LiveEncounter) -> str | None:
    """Write a fresh snapshot when one is due; a warning if that failed."""
    from saves.store import SaveError

    try:
        live.compact_if_due()
    except SaveError as exc:
        return f"could not write a fresh snapshot (every action is saved): {exc}"
    return None


class MovePreviews:
    """The endurance checks the movement dialog previews (RULES.md §8): one
    the program rolls is kept per combatant and movement until a step
    replaces the encounter, so reopening the dialog shows the same roll."""

    def __init__(self, live: LiveEncounter) -> None:
        self.live = live
        self._checks: dict[tuple[str, str], EnduranceCheck] = {}
        self._of: Encounter | None = None

    def check(
        self, name: str, movement: str, face: int | None, reroll: bool = False
    ) -> EnduranceCheck | str:
        """The check of *name* moving by *movement* with *face* (None: rolled), or why not."""
        from rules.errors import ActionError

        if self._of is not self.live.encounter:
            self._checks = {}
            self._of = self.live.encounter
        key = (name, movement)
        if face is None and not reroll and key in self._checks:
            return self._checks[key]
        try:
            check: EnduranceCheck = self.live.preview_move(name, movement, face)
        except ActionError as exc:
            return str(exc)
        if face is None:
            self._checks[key] = check
        return check
