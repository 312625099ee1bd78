"""Endurance: dash, run, sprint (RULES.md §8, source 003)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.abilities import check_face, modifier

if TYPE_CHECKING:
    from rules.combatant import Combatant


@dataclass(frozen=True)
class Endurance:
    """A combatant's endurance pool and movement state (RULES.md §8):
    ``active`` maps a movement action to the rounds it stays active;
    ``recovery_rounds_left`` counts down to the return of spent points."""

    points: int
    max_points: int
    passive: int
    check_bonus: int
    active: Mapping[str, int] = field(default_factory=dict)
    recovery_rounds_left: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "max_points": self.max_points,
            "passive": self.passive,
            "check_bonus": self.check_bonus,
            "active": dict(self.active),
            "recovery_rounds_left": self.recovery_rounds_left,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Endurance | None:
        if data is None:
            return None
        rec = data.get("recovery_rounds_left")
        return cls(
            int(data["points"]),
            int(data["max_points"]),
            int(data["passive"]),
            int(data["check_bonus"]),
            {str(k): int(v) for k, v in dict(data.get("active", {})).items()},
            None if rec is None else int(rec),
        )


class Movement(NamedTuple):
    """A movement action: its DL (None: no check), how many of the mover's own
    turns it stays active (None: always) and its speed multiple (§8)."""

    name: str
    dl: int | None
    active_rounds: int | None
    speed: int


#: RULES.md §8 table (003): walk, dash, run, sprint.
MOVEMENT: dict[str, Movement] = {
    "walk": Movement("walk", None, None, 1),
    "dash": Movement("dash", 14, 100, 2),
    "run": Movement("run", 18, 10, 3),
    "sprint": Movement("sprint", 22, 1, 4),
}

#: Spent points return after this many times the active time (003).
RECOVERY_FACTOR = 3


def endurance_for(con_score: int, athletics: int) -> Endurance:
    """A fresh pool: points = CON score + Athletics; passive = 10 + CON mod +
    Athletics; check bonus = CON mod + Athletics (RULES.md §8)."""
    if isinstance(athletics, bool) or not isinstance(athletics, int):
        raise ValueError(f"the Athletics bonus must be a whole number, not {athletics!r}")
    mod = modifier(con_score)
    points = max(0, con_score + athletics)
    return Endurance(points, points, 10 + mod + athletics, mod + athletics)


def endurance_of(c: Combatant) -> Endurance | None:
    """The combatant's pool from its CON score and Athletics bonus, or None
    when it lacks either (it is then skipped by endurance checks, §8)."""
    con = c.abilities.get("con")
    if con is None or c.athletics is None:
        return None
    return endurance_for(con, c.athletics)


class EnduranceCheck(NamedTuple):
    """One endurance check for a movement action (RULES.md §8); ``spent`` is
    the points paid to cover ``shortfall``, and ``already_active`` means no
    check was needed."""

    action: str
    face: int | None
    total: int
    used_passive: bool
    dl: int
    shortfall: int
    spent: int
    success: bool
    already_active: bool
    text: str


def _rounds(n: int) -> str:
    return f"{n} round{'' if n == 1 else 's'}"


def _used(state: Endurance, move: Movement, points: int) -> Endurance:
    """State after *move* is used successfully: active for its time, and the
    recovery countdown (re)started when any points are spent."""
    active = dict(state.active)
    if move.active_rounds is not None:
        active[move.name] = max(active.get(move.name, 0), move.active_rounds)
    recovery = None
    if points < state.max_points and move.active_rounds is not None:
        recovery = RECOVERY_FACTOR * move.active_rounds
    return replace(state, points=points, active=active, recovery_rounds_left=recovery)


def endurance_check(
    state: Endurance,
    action: str,
    face: int | None,
    spend: bool = True,
    *,
    preview: bool = False,
    use: bool = True,
) -> tuple[Endurance, EnduranceCheck]:
    """Check for a movement action (RULES.md §8): ``max(face + check_bonus,
    passive)`` against its DL (*face* None: the passive score alone).  A
    shortfall is paid from the pool when *spend* and enough points are left,
    else the movement fails; ``preview=True`` states the shortfall without a
    verdict.  Every use, even of a still active action, restarts recovery,
    but only a check opens the active window; ``use=False`` (a new combat's
    Dash, §8) leaves a still active one and the countdown as they are.  A
    failed check is not a use, and walking needs no check."""
    key = str(action).strip().lower()
    move = MOVEMENT.get(key)
    if move is None:
        raise ValueError(f"unknown movement action {action!r} (choose {', '.join(MOVEMENT)})")
    if face is not None:
        check_face(face)
    if move.dl is None:
        return state, EnduranceCheck(
            key, face, 0, False, 0, 0, 0, True, True, "walk: no endurance check needed"
        )
    if state.active.get(key, 0) > 0:
        # The window runs from the check that opened it (§8: no new roll
        # while active), so repeating the action must not lengthen it.
        new = replace(_used(state, move, state.points), active=state.active) if use else state
        left = state.active[key]
        text = f"{key}: still active ({_rounds(left)} left), no check needed"
        return new, EnduranceCheck(key, face, 0, False, move.dl, 0, 0, True, True, text)

    rolled = None if face is None else face + state.check_bonus
    used_passive = rolled is None or state.passive >= rolled
    total = state.passive if rolled is None else max(rolled, state.passive)
    shortfall = max(0, move.dl - total)
    if face is None:
        how = f"passive {state.passive}"
    elif used_passive:
        how = f"d20 ({face}) {state.check_bonus:+d} = {rolled}, passive {state.passive} is higher"
    else:
        how = f"d20 ({face}) {state.check_bonus:+d} = {total}"
    active_note = f"; {key} active for {_rounds(move.active_rounds or 0)}"
    dl = move.dl

    def checked(spent: int, success: bool, verdict: str) -> EnduranceCheck:
        text = f"{key} endurance check: {how} vs DL {dl}: {verdict}"
        return EnduranceCheck(
            key, face, total, used_passive, dl, shortfall, spent, success, False, text
        )

    if shortfall == 0:
        return _used(state, move, state.points), checked(0, True, f"success{active_note}")
    if spend and state.points >= shortfall:
        points = state.points - shortfall
        verdict = (
            f"{shortfall} short, spends {shortfall} endurance "
            f"({points}/{state.max_points} left){active_note}"
        )
        return _used(state, move, points), checked(shortfall, True, verdict)
    if state.points >= shortfall and preview:
        verdict = f"{shortfall} short ({state.points}/{state.max_points} endurance left)"
    elif state.points >= shortfall:
        verdict = (
            f"{shortfall} short: fails, no {key} "
            f"(the GM chose not to spend {shortfall} of {state.points} endurance)"
        )
    else:
        verdict = (
            f"{shortfall} short: fails, no {key} "
            f"(only {state.points} endurance left, {shortfall} needed)"
        )
    return state, checked(0, False, verdict)


def start_of_turn(state: Endurance) -> tuple[Endurance, list[str]]:
    """The start of one of the combatant's own turns (RULES.md §8): active
    windows lose a round, and the recovery countdown (3 × the active time)
    loses one; at 0 every point returns before that turn's actions, so a
    Sprint on turn N is recovered at the start of turn N+3."""
    lines: list[str] = []
    active: dict[str, int] = {}
    for name, left in state.active.items():
        if left - 1 > 0:
            active[name] = left - 1
        else:
            lines.append(f"{name} is no longer active")
    points = state.points
    recovery = state.recovery_rounds_left
    if recovery is not None:
        recovery -= 1
        if recovery <= 0:
            recovery = None
            if points < state.max_points:
                lines.append(
                    f"endurance recovered: {state.max_points - points} points back "
                    f"({state.max_points}/{state.max_points})"
                )
            points = state.max_points
    new = replace(state, points=points, active=active, recovery_rounds_left=recovery)
    return new, lines
