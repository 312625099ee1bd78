"""The dialogs the encounter screen's keys open, one function each, called
as the screen's action methods: each opens its dialog and applies what the
GM chose through ``EncounterView.apply``.  The dialogs' own modules are
imported when first opened: the first frame does not need them."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from tracker.lines import ADD_FIELDS, EDIT_FIELDS, edit_values
from tracker.screens.encounter_view import CANCELLED

if TYPE_CHECKING:
    from tracker.screens.encounter_view import EncounterView
    from tracker.screens.initiative_form import InitiativeEntry


def start(screen: EncounterView) -> None:
    """``start``; first the initiative form when players have none."""
    ctl = screen.controller
    players = ctl.players_without_initiative()
    if not players or ctl.unavailable("start"):
        screen.report(screen.apply("start"))
        return
    from tracker.screens.initiative_form import InitiativeFormScreen

    form = InitiativeFormScreen(players, ctl.initiative_entry, screen.config.physical_rolls)
    screen.app.push_screen(form, partial(_start_with, screen))


def _start_with(screen: EncounterView, entry: InitiativeEntry | None) -> None:
    """The initiative form's batch; with physical rolls, the monsters' d20s first if asked."""
    if entry is None:
        screen.notify(CANCELLED)
        return
    if not entry.monster_dice:
        screen.report(screen.apply_now(entry.line))
        return
    ctl = screen.controller
    plan = ctl.monster_dice(entry.line)
    if isinstance(plan, str):
        screen.report(plan)
        return
    action, needed, gm = plan
    if not needed:
        screen.report(screen.apply_now(action))
        return
    from tracker.screens.faces import FacesScreen

    def typed(faces: list[int] | None) -> None:
        if faces is None:
            screen.notify(CANCELLED)
            return
        screen.report(screen.apply_now(ctl.with_monster_faces(action, gm, faces)))

    screen.app.push_screen(FacesScreen("The monsters' initiative dice", needed), typed)


def end_combat(screen: EncounterView) -> None:
    """``end``, once the GM confirms (Enter says no)."""
    _confirm(
        screen,
        f"End combat after round {screen.encounter.round}?",
        "The turn order stops and initiative is cleared (s starts a new combat); "
        "ctrl+z resumes this one.",
        screen.controller.line("end_combat"),
    )


def remove_defeated(screen: EncounterView) -> None:
    """``remove defeated``, once the GM confirms (Enter says no): who, as
    the log names a horde, in runs (``Zombie 1–12``, by name: a horde
    rolled one by one is spread over the order)."""
    from rules.engine.groups import name_runs, natural_key

    down = screen.controller.defeated()
    shown = name_runs(sorted(down, key=natural_key))
    _confirm(
        screen,
        f"Remove {len(down)} defeated: {shown}?",
        "ctrl+z brings them back.",
        screen.controller.line("remove_defeated"),
    )


def _confirm(screen: EncounterView, question: str, detail: str, line: str | None) -> None:
    """Apply *line* once the GM says yes to *question* (Enter says no)."""
    from tracker.screens.prompt import ConfirmScreen

    if line is None:  # nobody to act on
        return
    screen.app.push_screen(
        ConfirmScreen(question, detail, destructive=True),
        lambda yes: screen.report(screen.apply(line)) if yes else None,
    )


def remove(screen: EncounterView) -> None:
    """``remove`` the selection (a collapsed row: its whole group), once the GM confirms."""
    current = screen.controller.selected()
    line = screen.controller.line("remove")
    if current is None or line is None:
        return
    group = screen.controller.selected_group()
    question = f"Remove {current.name} from the fight?"
    if group:  # the collapsed row: the whole group
        question = f"Remove group {current.group}, all {len(group)}, from the fight?"
    _confirm(screen, question, "ctrl+z brings it back.", line)


def add(screen: EncounterView) -> None:
    """The add form: its values become one ``add`` line."""
    from tracker.screens.form import Field, FormScreen

    fields = [Field(key, label, "", hint) for key, label, hint in ADD_FIELDS]
    checks = [("player", "player", False), ("avg", "average HP", False)]

    def submit(values: dict[str, str], flags: dict[str, bool]) -> str | None:
        try:
            line = screen.controller.add_line(values, flags)
        except ValueError as exc:
            return str(exc)
        return screen.apply(line)

    screen.app.push_screen(FormScreen("Add combatants", fields, submit, checks))


def edit(screen: EncounterView) -> None:
    """The edit form: every changed field in ONE batch, one undoable step, all or nothing."""
    current = screen.controller.selected()
    if current is None:
        return
    from tracker.screens.form import Field, FormScreen

    values = edit_values(current)
    fields = [Field(key, label, values[key]) for key, label in EDIT_FIELDS]
    checks = [("player", "player", current.player)]

    def submit(new: dict[str, str], flags: dict[str, bool]) -> str | None:
        line = screen.controller.edit_line(current, new, flags.get("player"))
        if not line:
            return None
        return screen.apply(line)  # a rename: the selection and its mark follow it

    screen.app.push_screen(FormScreen(f"Edit {current.name}", fields, submit, checks))


def move(screen: EncounterView) -> None:
    """The movement dialog: its check previewed, its line carrying the previewed face."""
    current = screen.controller.selected()
    if current is None:
        return
    from tracker.screens.movement import MovementScreen

    ctl, name = screen.controller, current.name
    points = None if current.endurance is None else current.endurance.points
    dialog = MovementScreen(
        name,
        points,
        partial(ctl.preview_move, name),
        screen.config.physical_rolls,
        partial(ctl.move_line, name),
    )
    screen.app.push_screen(
        dialog, lambda line: screen.report(screen.apply_now(line)) if line else None
    )


def save_point(screen: EncounterView) -> None:
    """The named save point prompt (a kept label: Enter again replaces it)."""
    from tracker.screens.prompt import EXAMPLES, PromptScreen

    store = screen.controller.save_points()

    def submit(label: str) -> str | None:
        error = store(label)
        if error is None:
            screen.notify(f"Save point {label!r} stored.", markup=False)
        return error

    history = screen.typed.kind("save_point")
    example = EXAMPLES["save_point"]
    prompt = PromptScreen("Named save point", "LABEL", submit, example=example, history=history)
    screen.app.push_screen(prompt)
