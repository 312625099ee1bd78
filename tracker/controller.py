"""The encounter screen's decisions, without Textual: the selection and the
marks (saved with the encounter, so a relaunch resumes them), what keys
target and why one does not apply, the lines they send, and applying them
with failures turned into one sentence for the GM.  The row cursor moves in
the pane first, so it is read through a callable, never a stale copy.  A
collapsed group is one row (``tracker.collapse``): the cursor counts rows,
and a key on a collapsed row acts on the group's standing members."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tracker import lines
from tracker.collapse import Collapse, Span, row_of, standing
from tracker.lines import ON_TARGETS, Ask

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.encounter import Encounter
    from rules.endurance import EnduranceCheck
    from saves.live import LiveEncounter

#: A parsed action (``rules.engine.parse.parse_action``), as ``LiveEncounter.do`` takes it.
Action = Mapping[str, object]
#: ``(label, sides)`` of each die the GM is asked to roll (``LiveEncounter.dice_needed``).
Dice = list[tuple[str, int]]

#: Actions that need at least one combatant.
NEED_COMBATANT = frozenset(
    {
        "select_down",
        "select_up",
        "order_down",
        "order_up",
        "toggle_mark",
        "damage",
        "heal",
        "temp",
        "persistent",
        "condition",
        "uncondition",
        "move",
        "initiative",
        "edit",
        "remove",
        "attack",
        "toggle_group",
        "hide",
        "mask",
        "reveal",
    }
)

#: Keys that act on one combatant, never on a whole collapsed group.
ONE_COMBATANT = frozenset({"edit", "move", "order_down", "order_up", "return"})

#: The players' view keys: what each makes of its targets.
VISIBILITY_KEYS = {"hide": "hidden", "mask": "masked", "reveal": "visible"}


class EncounterController:
    """The selection and the marks of one live encounter, and what keys do with them."""

    def __init__(
        self,
        live: LiveEncounter,
        cursor: Callable[[], int | None],
        follow_turn: bool = True,
        keep_marks: str = "until-next-turn",
    ) -> None:
        """*cursor*: the row the selection cursor is on now (None: no rows);
        *follow_turn*: the selection moves to each new active combatant;
        *keep_marks*: when the marks clear by themselves
        (``tracker.config.KEEP_MARKS``; Esc always clears them)."""
        self.live = live
        self._cursor = cursor
        self.follow_turn = follow_turn
        self.keep_marks = keep_marks
        #: whose turn it was when last asked (:meth:`turn_moved`)
        self._turn = self._turn_key()
        ui: Mapping[str, object] = live.ui_state
        selected = ui.get("selected")
        marked = ui.get("marked")
        #: the selected combatant's name, as last remembered
        self.selected_name: str | None = selected if isinstance(selected, str) else None
        #: the marked combatants' names, in the order they were marked
        self.marked: list[str] = [str(n) for n in marked] if isinstance(marked, list) else []
        #: which groups show member by member (the others: one row each)
        self.collapse = Collapse(ui.get("expanded"))
        #: program-rolled movement previews by (name, movement), valid while
        #: the encounter is the one they were rolled on (every step replaces it)
        self._previews: dict[tuple[str, str], EnduranceCheck] = {}
        self._previews_of: Encounter | None = None

    @property
    def encounter(self) -> Encounter:
        return self.live.encounter

    def names(self) -> list[str]:
        return [c.name for c in self.encounter.combatants]

    def availability(self) -> tuple[bool, ...]:
        """What the footer's greyed keys depend on; it is rebuilt only when
        this changes."""
        live = self.live
        enc = live.encounter
        return (
            enc.started,
            bool(enc.combatants),
            live.can_undo,
            live.can_redo,
            bool(self.defeated()),
            bool(enc.delayed),
        )

    def defeated(self) -> list[str]:
        """The down monsters ``remove defeated`` would take out (RULES.md §4)."""
        return [c.name for c in self.encounter.combatants if c.down and not c.player]

    def rows(self) -> tuple[Span, ...]:
        """The initiative pane's rows: one per combatant, one per collapsed
        group (``tracker.collapse``)."""
        return self.collapse.rows(self.encounter.combatants)

    def row_of(self, index: int) -> int:
        """The row showing the combatant at *index* in the order."""
        return row_of(self.rows(), index)

    def selected_span(self) -> Span | None:
        """The row under the cursor (None: no rows)."""
        index = self._cursor()
        rows = self.rows()
        return rows[index] if index is not None and index < len(rows) else None

    def selected_group(self) -> list[Combatant]:
        """The members of the collapsed group under the cursor, in the order
        of play; empty when the cursor is on one combatant."""
        span = self.selected_span()
        if span is None or not span.collapsed:
            return []
        return list(self.encounter.combatants[span.start : span.start + span.size])

    def selected(self) -> Combatant | None:
        """The combatant under the row cursor; on a collapsed group, the
        member whose turn it is, else its first (None: nobody)."""
        span = self.selected_span()
        if span is None:
            return None
        enc = self.encounter
        return enc.combatants[span.lead(enc.turn if enc.started else None)]

    def step(self, delta: int) -> int | None:
        """The row *delta* rows below the cursor, clamped; None when there is
        nobody to select.  A collapsed group is one row."""
        index = self._cursor()
        count = len(self.rows())
        if index is None or count == 0:
            return None
        return max(0, min(index + delta, count - 1))

    def toggle_group(self) -> bool:
        """Expand the collapsed group under the cursor, or collapse the
        group of the member under it (saved with the UI state); False: the
        selection is in no group of two or more."""
        span = self.selected_span()
        if span is None or not self.collapse.toggle(self.encounter.combatants, span.start):
            return False
        self.live.set_ui_state(expanded=self.collapse.saved())
        return True

    def remember(self, name: str | None) -> None:
        """The selection is now *name* (saved with the UI state)."""
        if name != self.selected_name:
            self.selected_name = name
            self.live.set_ui_state(selected=name)

    def cursor_moved(self) -> Combatant | None:
        """Remember whoever the cursor is on now; return them."""
        current = self.selected()
        self.remember(None if current is None else current.name)
        return current

    def follow(self) -> int | None:
        """The row the remembered selection is on now; when it is gone, the
        selection becomes whoever the cursor is on, and None."""
        names = self.names()
        if self.selected_name in names:
            return self.row_of(names.index(self.selected_name))
        current = self.selected()
        self.selected_name = None if current is None else current.name
        self.live.set_ui_state(selected=self.selected_name)
        return None

    def _turn_key(self) -> tuple[bool, int, str | None]:
        enc = self.encounter
        active = enc.active if enc.started else None
        return (enc.started, enc.round, None if active is None else active.name)

    def turn_moved(self) -> int | None:
        """After any change (``next``, ``prev``, ``start``, their undo and
        redo, removing the active combatant): the active row when the turn
        passed to someone else (or the round changed) since last asked, else
        None.  With :attr:`follow_turn` the selection becomes the active
        combatant then; with ``keep_marks = "until-next-turn"`` the marks
        clear (the GM moved on)."""
        key = self._turn_key()
        if key == self._turn:
            return None
        self._turn = key
        if self.keep_marks == "until-next-turn":
            self.clear_marks()
        enc = self.encounter
        active = enc.active if enc.started else None
        if active is None or enc.turn is None:
            return None
        if self.follow_turn:
            self.remember(active.name)
        return self.row_of(enc.turn)

    def active_row(self) -> int | None:
        """The active combatant's row (the jump-to-active key; its group's
        when collapsed), None before the fight starts."""
        enc = self.encounter
        if not enc.started or enc.active is None or enc.turn is None:
            return None
        return self.row_of(enc.turn)

    def prune_marks(self) -> None:
        """Forget marks on combatants no longer in the encounter."""
        names = set(self.names())
        self.marked = [n for n in self.marked if n in names]

    def toggle_mark(self) -> bool:
        """Mark the selected combatant, or unmark them; on a collapsed group,
        mark its standing members (unmark them when all are marked); False:
        nobody selected."""
        current = self.selected()
        if current is None:
            return False
        group = self.selected_group()
        if group:
            names = standing(group)
            if all(n in self.marked for n in names):
                self.marked = [n for n in self.marked if n not in names]
            else:
                self.marked += [n for n in names if n not in self.marked]
        elif current.name in self.marked:
            self.marked.remove(current.name)
        else:
            self.marked.append(current.name)
        self.live.set_ui_state(marked=list(self.marked))
        return True

    def clear_marks(self) -> bool:
        """Forget every mark; False when there was none."""
        if not self.marked:
            return False
        self.marked = []
        self.live.set_ui_state(marked=[])
        return True

    def used_marks(self) -> None:
        """An action on the marked combatants was applied: with
        ``keep_marks = "after-each-action"`` the marks clear; else they stay
        for the next action (a spell that damages, then adds a condition)."""
        if self.keep_marks == "after-each-action":
            self.clear_marks()

    def marks_used(self) -> bool:
        """Whether the next targeted action goes to the marked combatants."""
        names = set(self.names())
        return any(n in names for n in self.marked)

    def targets(self) -> list[str]:
        """Marked combatants (in the order of play), else the selection (a
        collapsed group's standing members)."""
        chosen = set(self.marked)
        marked = [n for n in self.names() if n in chosen]
        if marked:
            return marked
        group = self.selected_group()
        if group:
            return standing(group)
        current = self.selected()
        return [] if current is None else [current.name]

    def present_conditions(self, names: list[str]) -> list[str]:
        """The conditions any of *names* has, sorted."""
        wanted = set(names)
        return sorted(
            {
                cond.name
                for c in self.encounter.combatants
                if c.name in wanted
                for cond in c.conditions
            }
        )

    def uncondition_line(self, names: Sequence[str], condition: str) -> str:
        """Remove *condition* from each of *names* that has it, as one line."""
        wanted = set(names)
        having = {
            c.name: {cond.name for cond in c.conditions}
            for c in self.encounter.combatants
            if c.name in wanted
        }
        who = [n for n in names if condition in having.get(n, ())]
        return lines.uncondition_line(who, condition)

    def names_for(self, action: str) -> list[str]:
        """Whom key *action* acts on now: the targets for the damage-like
        keys and ``uncondition``, else the selection."""
        if action in VISIBILITY_KEYS and self.selected_group() and not self.marks_used():
            # the players see the group, down members too: all or nothing
            return [c.name for c in self.selected_group()]
        if action in ON_TARGETS or action == "uncondition" or action in VISIBILITY_KEYS:
            return self.targets()
        if action == "delay":
            active = self.encounter.active if self.encounter.started else None
            return [] if active is None else [active.name]
        if action == "remove" and self.selected_group():
            return [c.name for c in self.selected_group()]
        current = self.selected()
        return [] if current is None else [current.name]

    def line(self, action: str, text: str = "", names: Sequence[str] | None = None) -> str | None:
        """The line key *action* sends with *text* from its prompt, on
        *names* (default :meth:`names_for`); None: nobody, or no such key."""
        names = self.names_for(action) if names is None else names
        if action == "uncondition":
            return self.uncondition_line(names, text) if names else None
        return lines.key_line(action, text, names)

    def ask(self, action: str) -> Ask | None:
        """The prompt key *action* opens, its names fixed now (the cursor may
        move while the GM types); None: nobody to act on."""
        names = self.names_for(action)
        if not names and action != "roll":
            return None

        def line(text: str) -> str:
            built = self.line(action, text, names)
            assert built is not None  # a key that builds lines, on somebody
            return built

        who = ", ".join(names)
        group = self.selected_group()
        if group and not self.marks_used() and action != "initiative":
            # not thirty names: the group, and whom the key reaches in it
            up = "standing" if any(not c.down for c in group) else "down, every one"
            who = f"group {group[0].group} ({len(names)} {up})"
        if action in ON_TARGETS:
            _, title, usage = ON_TARGETS[action]
            saves = None
            if action == "damage" and len(names) > 1:

                def saves(text: str, chosen: Mapping[str, str]) -> str:
                    return lines.saves_line(names, text, chosen)

            return Ask(
                f"{title}: {who}",
                usage,
                line,
                self.marks_used(),
                blank=action == "attack",
                names=tuple(names),
                saves=saves,
            )
        if action == "uncondition":
            present = tuple(self.present_conditions(names))
            if not present:
                return None
            return Ask(f"Remove condition: {who}", "", line, self.marks_used(), present)
        if action == "initiative":
            if group:  # a member's initiative is the whole group's (§4)
                who = f"group {group[0].group} ({len(group)})"
            return Ask(f"Initiative: {who}", "N (the rolled total)", line)
        if action == "roll":
            return Ask("Roll dice", "EXPR [adv N] [dis N] [dc N]", line)
        return None

    def players_without_initiative(self) -> list[str]:
        """The player combatants ``s`` asks the initiative form about."""
        return [c.name for c in self.encounter.combatants if c.player and c.initiative is None]

    def initiative_entry(self, totals: Mapping[str, str]) -> str | dict[str, str]:
        """The initiative form's line for the *totals* typed by player name
        (blank: ``start`` rolls it), or the engine's message by name for each
        total that is not a whole number within its bounds."""
        from rules.engine.values import bounded
        from rules.errors import ActionError

        values: list[tuple[str, int | None]] = []
        errors: dict[str, str] = {}
        for name, text in totals.items():
            try:
                values.append((name, bounded("init", text) if text.strip() else None))
            except ActionError as exc:
                errors[name] = str(exc)
        return errors or lines.initiative_line(values)

    def monster_dice(self, line: str) -> tuple[Action, Dice, list[bool]] | str:
        """For the initiative form's *line* when the GM rolls the monsters'
        dice: the parsed action, the monsters' initiative dice to ask for,
        and, for every die up to the last of those, whether it is the GM's
        (the others — a blank player's — the program rolls)."""
        parsed = self.dice_needed(line)
        if isinstance(parsed, str):
            return parsed
        action, needed = parsed
        cs = self.encounter.combatants
        theirs = {f"{c.name} initiative (d20)" for c in cs if not c.player and c.initiative is None}
        theirs |= {  # a group's one d20 (rules.engine.groups.share_initiative)
            f"group {c.group} initiative (d20)" for c in cs if c.group is not None and not c.player
        }
        gm = [label in theirs for label, _ in needed]
        while gm and not gm[-1]:
            gm.pop()
        return action, [d for d, mine in zip(needed, gm, strict=False) if mine], gm

    def with_monster_faces(
        self, action: Action, gm: Sequence[bool], typed: Sequence[int]
    ) -> Action:
        """:meth:`monster_dice`'s *action* carrying the faces: the GM's
        *typed* ones in their places, a program-rolled d20 in the others,
        up to where the GM stopped typing (the program rolls the rest).
        The faces go to ``start``, the batch's only part that rolls."""
        rng = self.live.session.rng
        faces: list[int] = []
        queue = list(typed)
        kept = 0  # the faces up to the GM's last one
        for mine in gm:
            if mine and not queue:
                break
            faces.append(queue.pop(0) if mine else rng.randint(1, 20))
            kept = len(faces) if mine else kept
        faces = faces[:kept]
        if not faces:
            return action
        if action.get("verb") != "batch":
            return {**action, "faces": faces}
        parts = list(action["actions"])  # type: ignore[call-overload]
        parts[-1] = {**parts[-1], "faces": faces}
        return {**action, "actions": parts}

    def add_line(self, values: Mapping[str, str], checks: Mapping[str, bool]) -> str:
        """The add form's line (``lines.add_line``; ValueError: no name)."""
        return lines.add_line(values, checks)

    def edit_line(self, c: Combatant, values: Mapping[str, str], player: bool | None) -> str:
        """The edit form's changes as one batch (empty: nothing changed)."""
        return lines.edit_line(c, values, player)

    def renamed(self, name: str | None) -> None:
        """The edit form renamed the selection to *name* (when given)."""
        self.selected_name = name or self.selected_name

    def move_line(self, name: str, movement: str, face: int | None, spend: bool) -> str:
        """``move`` for the movement dialog, carrying the previewed face."""
        return lines.move_line(name, movement, face, spend)

    def preview_move(
        self, name: str, movement: str, face: int | None, reroll: bool = False
    ) -> EnduranceCheck | str:
        """The endurance check a move would make, or why it cannot.  A check
        the program rolls (*face* None) is rolled once per combatant and
        movement and kept until an action changes the fight, so cancelling
        and reopening the dialog shows the same roll; *reroll* rolls anew."""
        from rules.errors import ActionError

        if self._previews_of is not self.encounter:
            self._previews = {}
            self._previews_of = self.encounter
        key = (name, movement)
        if face is None and not reroll and key in self._previews:
            return self._previews[key]
        try:
            check: EnduranceCheck = self.live.preview_move(name, movement, face)
        except ActionError as exc:
            return str(exc)
        if face is None:
            self._previews[key] = check
        return check

    def dice_needed(self, line: str) -> tuple[Action, Dice] | str:
        """*line* parsed, with the dice it will roll, or why it is refused."""
        from rules.engine.parse import parse_action
        from rules.engine.targets import group_names
        from rules.errors import ActionError

        try:
            action = parse_action(line, self.names(), group_names(self.encounter.combatants))
            return action, self.live.dice_needed(action)
        except ActionError as exc:
            return str(exc)

    def do(self, line_or_action: str | Action, faces: Sequence[int] = ()) -> str | None:
        """Apply and durably save one action (with the GM's *faces*); None
        when done, else what to tell the GM (nothing changed)."""
        from rules.errors import ActionError
        from saves.store import SaveError

        if faces:
            assert not isinstance(line_or_action, str)
            line_or_action = {**line_or_action, "faces": list(faces)}
        try:
            self.live.do(line_or_action)
        except ActionError as exc:
            return str(exc)
        except SaveError as exc:
            return f"not saved, nothing changed: {exc}"
        return None

    def history(self, undo: bool) -> str | None:
        """Undo (or redo) one step; None when done, else why not."""
        from rules.errors import ActionError
        from saves.store import SaveError

        try:
            self.live.undo() if undo else self.live.redo()
        except (ActionError, SaveError) as exc:
            return str(exc)
        return None

    def save_points(self) -> Callable[[str], str | None]:
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
                self.live.save_point(label, replace=asked == [label])
            except SavePointExists as exc:
                asked[:] = [label]
                return (
                    f"{exc.label!r} is kept already (saved {exc.created}): Enter again replaces it"
                )
            except SaveError as exc:
                return str(exc)
            return None

        return submit

    def compact_if_due(self) -> str | None:
        """Write a fresh snapshot when one is due; a warning if that failed."""
        from saves.store import SaveError

        try:
            self.live.compact_if_due()
        except SaveError as exc:
            return f"could not write a fresh snapshot (every action is saved): {exc}"
        return None

    def unavailable(self, action: str) -> str | None:
        """Why *action* does not apply now (None: it does), for the footer
        and the key pressed anyway."""
        enc = self.encounter
        if action in ("next_turn", "previous_turn", "select_active"):
            return None if enc.started else "the fight has not started: s starts it"
        if action == "start":
            if enc.started:
                return "the fight has started already"
            return None if enc.combatants else "add combatants first (a)"
        if action == "end_combat":
            return None if enc.started else "the fight has not started: nothing to end"
        if action == "remove_defeated" and not self.defeated():
            return "no monster is down (players at 0 HP stay)"
        if action == "undo":
            return None if self.live.can_undo else "nothing to undo"
        if action == "redo":
            return None if self.live.can_redo else "nothing to redo"
        if action == "clear_marks":
            return None if self.marked else "no marks to clear"
        if action in NEED_COMBATANT and not enc.combatants:
            return "no combatants yet: a adds some"
        if action == "toggle_group":
            span = self.selected_span()
            return None if span is None else self.collapse.why_not(enc.combatants, span.start)
        if action in ONE_COMBATANT and self.selected_group():
            group = self.selected_group()
            return (
                f"group {group[0].group} is one row: o expands it to pick one of its {len(group)}"
            )
        if action == "move":
            current = self.selected()
            if current is not None and current.endurance is None:
                return (
                    f"{current.name} has no endurance pool (needs CON and Athletics: e edits them)"
                )
        if action == "delay":
            return self._cannot_delay()
        if action == "return":
            return self._cannot_return()
        if action in VISIBILITY_KEYS:
            return self._cannot_show(action)
        if action == "uncondition" and not self.present_conditions(self.targets()):
            return f"{', '.join(self.targets())}: no conditions to remove"
        return None

    def _cannot_show(self, action: str) -> str | None:
        """Why the players' view key *action* does nothing now (None: it
        changes someone): a player is never hidden or masked."""
        to = VISIBILITY_KEYS[action]
        names = self.names_for(action)
        chosen = [c for c in self.encounter.combatants if c.name in names]
        if to != "visible" and any(c.player for c in chosen):
            return "players are always shown on the players' view (mark monsters only)"
        if chosen and all(c.visibility == to for c in chosen):
            who = chosen[0].name if len(chosen) == 1 else f"all {len(chosen)}"
            return f"{who}: {to} already"
        return None

    def _cannot_delay(self) -> str | None:
        """Why the active combatant cannot delay now (None: it can)."""
        enc = self.encounter
        active = enc.active if enc.started else None
        if active is None:
            return "the fight has not started: s starts it"
        if active.name in enc.delayed:
            return f"{active.name} is delaying already"
        return None

    def _cannot_return(self) -> str | None:
        """Why the selected combatant cannot return now (None: it can)."""
        delayed = self.encounter.delayed
        if not delayed:
            return "nobody is delaying (w: the active combatant delays)"
        current = self.selected()
        if current is None or current.name not in delayed:
            who = "nobody selected" if current is None else f"{current.name} is not delaying"
            return f"{who}; select one delaying: {', '.join(delayed)}"
        return None
