"""The encounter screen's decisions, without Textual: the one owner of the
selection and the marks (saved with the encounter, so a relaunch resumes
them), whom each key targets and the line it sends.  The row cursor moves
in the pane first, so it is read through a callable, never a stale copy; it
counts rows, and a collapsed group is one (``tracker.collapse``).  The
screen calls here for what lives beside it: ``tracker.availability``,
``tracker.initiative_entry`` and ``tracker.applying``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tracker import applying, availability, endings, lines
from tracker import initiative_entry as initiative
from tracker.applying import Action, Dice, MovePreviews
from tracker.collapse import Collapse, Span, row_of, standing
from tracker.endings import ENDINGS
from tracker.lines import ON_TARGETS, VISIBILITY_KEYS, Ask
from tracker.marks import Marks
from tracker.reversals import reversal

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.encounter import Encounter
    from rules.endurance import EnduranceCheck
    from rules.engine.step import Step
    from saves.live import LiveEncounter


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
        self._turn = self._turn_key()
        self._turn_at = self._turn_place()
        ui: Mapping[str, object] = live.ui_state
        selected = ui.get("selected")
        self.selected_name: str | None = selected if isinstance(selected, str) else None
        #: what ``space`` marked: combatants, and groups on their row (``tracker.marks``)
        self.marks = Marks(ui.get("marked"), ui.get("marked_groups"))
        #: which groups show member by member (the others: one row each)
        self.collapse = Collapse(ui.get("expanded"))
        self._previews = MovePreviews(live)
        self._reasons = availability.Reasons(self)
        #: what the last step undid or redid (``Undone: Ogre takes 7 fire``,
        #: ``tracker.breakdown.reversal``); None after an action
        self.reversal: str | None = None

    @property
    def encounter(self) -> Encounter:
        return self.live.encounter

    def cursor_row(self) -> int | None:
        return self._cursor()

    def names(self) -> list[str]:
        return [c.name for c in self.encounter.combatants]

    def defeated(self) -> list[str]:
        """The down monsters ``remove defeated`` would take out (RULES.md §4)."""
        return [c.name for c in self.encounter.combatants if c.down and not c.player]

    def rows(self) -> tuple[Span, ...]:
        """The initiative pane's rows (``tracker.collapse``)."""
        return self.collapse.rows(self.encounter.combatants)

    def row_of(self, index: int) -> int:
        return row_of(self.rows(), index)

    def selected_span(self) -> Span | None:
        """The row under the cursor (None: no rows)."""
        index = self._cursor()
        rows = self.rows()
        return rows[index] if index is not None and index < len(rows) else None

    def selected_group(self) -> list[Combatant]:
        """The collapsed group under the cursor, in the order of play (else empty)."""
        span = self.selected_span()
        if span is None or not span.collapsed:
            return []
        return list(self.encounter.combatants[span.start : span.start + span.size])

    def selected(self) -> Combatant | None:
        """Under the cursor; on a collapsed group, the member whose turn it is, else its first."""
        span = self.selected_span()
        if span is None:
            return None
        enc = self.encounter
        return enc.combatants[span.lead(enc.turn if enc.started else None)]

    def step(self, delta: int) -> int | None:
        """The row *delta* rows below the cursor, clamped (None: no rows)."""
        index = self._cursor()
        count = len(self.rows())
        if index is None or count == 0:
            return None
        return max(0, min(index + delta, count - 1))

    def toggle_group(self) -> bool:
        """Expand or collapse the group under the cursor (saved with the UI
        state); False: the selection is in no group of two or more."""
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
        current = self.selected()
        self.remember(None if current is None else current.name)
        return current

    def follow(self) -> int | None:
        """The remembered selection's row; gone: the cursor's combatant, and None."""
        names = self.names()
        if self.selected_name in names:
            return self.row_of(names.index(self.selected_name))
        current = self.selected()
        self.selected_name = None if current is None else current.name
        self.live.set_ui_state(selected=self.selected_name)
        return None

    def active(self) -> Combatant | None:
        """Whose turn it is (None before the fight starts)."""
        enc = self.encounter
        return enc.active if enc.started else None

    def _turn_key(self) -> tuple[bool, int, str | None]:
        enc, active = self.encounter, self.active()
        return (enc.started, enc.round, None if active is None else active.name)

    def _turn_place(self) -> tuple[int | None, int]:
        enc = self.encounter
        return (enc.turn, len(enc.combatants))

    def turn_moved(self) -> int | None:
        """The active row when the turn (or the round) moved since last asked, else None."""
        key, was = self._turn_key(), self._turn
        place, was_at = self._turn_place(), self._turn_at
        self._turn, self._turn_at = key, place
        if key == was:
            return None
        if key[:2] == was[:2] and place == was_at and was[2] not in self.names():
            return None  # the same turn, its combatant renamed (edit form, set, undo)
        if self.keep_marks == "until-next-turn":
            self.clear_marks()
        active = self.active()
        if active is not None and self.follow_turn:
            self.remember(active.name)
        return self.active_row()

    def active_row(self) -> int | None:
        """The active combatant's row (None before the fight starts)."""
        turn = self.encounter.turn
        return None if self.active() is None or turn is None else self.row_of(turn)

    def prune_marks(self) -> None:
        self.marks.prune(self.encounter.combatants)

    def _save_marks(self) -> None:
        self.live.set_ui_state(**self.marks.saved())

    def marked(self, every: bool = False) -> list[str]:
        """Whom the marks stand for now, in the order of play (``tracker.marks``:
        a marked group, its standing members; *every*: all its members)."""
        return self.marks.resolve(self.encounter.combatants, every)

    def toggle_mark(self) -> bool:
        """Mark the selected combatant, or unmark them; on a collapsed group,
        mark the group, which stands for its standing members when an action
        applies (unmark it when marked); False: nobody selected."""
        current = self.selected()
        if current is None:
            return False
        group = self.selected_group()
        if group:
            self.marks.toggle_group(group)
        else:
            self.marks.toggle(self.encounter.combatants, current)
        self._save_marks()
        return True

    def clear_marks(self) -> bool:
        """False when there was no mark."""
        if not self.marks.clear():
            return False
        self._save_marks()
        return True

    def used_marks(self) -> None:
        """An action on the marked combatants was applied: with
        ``keep_marks = "after-each-action"`` the marks clear; else they stay
        for the next action (a spell that damages, then adds a condition)."""
        if self.keep_marks == "after-each-action":
            self.clear_marks()

    def marks_used(self) -> bool:
        return bool(self.marked())

    def targets(self) -> list[str]:
        """The marked combatants (in the order of play), else the selection."""
        marked = self.marked()
        if marked:
            return marked
        group = self.selected_group()
        if group:
            return standing(group)
        current = self.selected()
        return [] if current is None else [current.name]

    def attacker(self) -> Combatant | None:
        """Who attacks with ``A``: the active combatant (None before the
        fight starts: the GM attacks, as ``attack`` on the command line)."""
        return self.active()

    def attacked(self) -> list[str]:
        """Whom ``A`` attacks: the targets, the attacker left out (it never
        attacks itself, docs/rules.md §9; as the only target: nobody)."""
        attacker = self.attacker()
        targets = self.targets()
        return targets if attacker is None else [n for n in targets if n != attacker.name]

    def _chosen(self, names: Sequence[str]) -> list[Combatant]:
        """*names*' combatants, in that order (the gone ones left out)."""
        by_name = {c.name: c for c in self.encounter.combatants}
        return [by_name[n] for n in names if n in by_name]

    def carried(self, action: str, names: Sequence[str]) -> list[str]:
        """What key *action* (``C``, ``X``: ``tracker.endings``) can end on *names*."""
        return endings.choices(action, self._chosen(names))

    def end_line(self, action: str, names: Sequence[str], choice: str) -> str:
        """End *choice* on each of *names* that carries it, as one line."""
        return endings.end_line(action, self._chosen(names), choice)

    def names_for(self, action: str) -> list[str]:
        """Whom key *action* acts on now: the targets, or the selection."""
        if action in VISIBILITY_KEYS:
            # the players see a group, down members too: all or nothing
            if self.marks_used():
                return self.marked(every=True)
            if group := self.selected_group():
                return [c.name for c in group]
        if action == "attack":
            return self.attacked()
        if action in ON_TARGETS or action in ENDINGS or action in VISIBILITY_KEYS:
            return self.targets()
        if action == "delay":
            active = self.active()
            return [] if active is None else [active.name]
        if action == "remove" and (group := self.selected_group()):
            return [c.name for c in group]
        current = self.selected()
        return [] if current is None else [current.name]

    def line(self, action: str, text: str = "", names: Sequence[str] | None = None) -> str | None:
        """``lines.key_line`` on *names* (default :meth:`names_for`)."""
        names = self.names_for(action) if names is None else names
        if action in ENDINGS:
            return self.end_line(action, names, text) if names else None
        return lines.key_line(action, text, names)

    def ask(self, action: str) -> Ask | None:
        """Key *action*'s prompt, its names fixed now (the GM may move the cursor); None: nobody."""
        names = self.names_for(action)
        if not names and action != "roll":
            return None

        def line(text: str) -> str:
            built = self.line(action, text, names)
            assert built is not None  # a key that builds lines, on somebody
            return built

        pick = None
        if action in ENDINGS:
            pick = (ENDINGS[action].title, self.carried(action, names))
        attacker = self.attacker() if action == "attack" else None
        by = "" if attacker is None else attacker.name
        left_out = bool(by) and by in self.targets()
        return lines.ask_for(
            action, names, line, self.selected_group(), self.marks_used(), pick, by, left_out
        )

    def prompt_completes(self, ask: Ask) -> bool:
        """Whether Tab can ever complete in *ask*'s prompt (not in ``h`` or ``i``)."""
        from rules.engine.complete import tail_completes

        return bool(ask.head) and tail_completes(ask.head)

    def prompt_completions(self, ask: Ask, text: str) -> list[str]:
        """What Tab offers in *ask*'s prompt holding *text*: the engine's
        completion of the prompt's whole line, its fixed start taken off."""
        if not ask.head:
            return []
        from rules.engine.complete import known_in, tail_completions

        return tail_completions(ask.head, text, known_in(self.encounter))

    # the initiative form (tracker.initiative_entry)
    def players_without_initiative(self) -> list[str]:
        return initiative.players_without_initiative(self.encounter)

    def initiative_entry(self, totals: Mapping[str, str]) -> str | dict[str, str]:
        return initiative.initiative_entry(totals)

    def monster_dice(self, line: str) -> tuple[Action, Dice, list[bool]] | str:
        parsed = self.dice_needed(line)
        if isinstance(parsed, str):
            return parsed
        return initiative.monster_dice(self.encounter, *parsed)

    def with_monster_faces(
        self, action: Action, gm: Sequence[bool], typed: Sequence[int]
    ) -> Action:
        return initiative.with_monster_faces(self.live.rng, action, gm, typed)

    # the forms' and the movement dialog's lines (tracker.lines)
    def add_line(self, values: Mapping[str, str], checks: Mapping[str, bool]) -> str:
        return lines.add_line(values, checks)

    def edit_line(self, c: Combatant, values: Mapping[str, str], player: bool | None) -> str:
        return lines.edit_line(c, values, player)

    def renamed(self, renames: Mapping[str, str]) -> None:
        """Combatants were renamed (old to new): the selection and their marks follow."""
        if self.marks.renamed(renames):
            self._save_marks()
        if self.selected_name is not None and self.selected_name in renames:
            self.remember(renames[self.selected_name])

    def move_line(self, name: str, movement: str, face: int | None, spend: bool) -> str:
        return lines.move_line(name, movement, face, spend)

    def preview_move(
        self, name: str, movement: str, face: int | None, reroll: bool = False
    ) -> EnduranceCheck | str:
        return self._previews.check(name, movement, face, reroll)

    # applying lines and the other calls into the live encounter (tracker.applying)
    def dice_needed(self, line: str) -> tuple[Action, Dice] | str:
        return applying.dice_needed(self.live, line)

    def do(self, line_or_action: str | Action, faces: Sequence[int] = ()) -> str | None:
        """None when done, else what to tell the GM (nothing changed)."""
        return self._done(applying.do(self.live, line_or_action, faces))

    def history(self, undo: bool) -> str | None:
        return self._done(applying.history(self.live, undo))

    def _done(self, step: Step | str) -> str | None:
        """The selection and the marks follow a rename; :attr:`reversal` says
        what an undo or redo reversed."""
        if isinstance(step, str):
            return step
        self.renamed(self.live.renames(step))
        self.reversal = reversal(step, self.live.reversed_step(step))
        return None

    def save_points(self) -> Callable[[str], str | None]:
        return applying.save_points(self.live)

    def compact_if_due(self) -> str | None:
        return applying.compact_if_due(self.live)

    def availability(self) -> tuple[bool, ...]:
        """What the footer's greyed keys depend on (``tracker.availability``)."""
        return availability.availability(self)

    def unavailable(self, action: str) -> str | None:
        return self._reasons.why(action)
