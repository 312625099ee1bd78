"""One action being applied: the :class:`Work` (the encounter as changed so
far and its log lines), its :class:`Roller` (typed faces first, then the
session's random source) and :func:`resolve_name`, the language's one rule
for what a typed name means."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rules.combatant import Combatant
from rules.encounter import Encounter
from rules.errors import ActionError
from rules.kept_marks import settle
from rules.rulesets import Ruleset
from rules.text import closest, name_key, shorten, visible

T = TypeVar("T")


class Roller(random.Random):
    """A random source that deals the GM's typed *faces* first, then *rng*.
    ``rolled`` lists every face dealt (so the journaled action carries its
    rolls); ``asked`` lists ``(label, sides)`` of each die *rng* rolled (for
    ``Session.dice_needed``).  Only ``randint`` is the contract."""

    def __init__(self, rng: random.Random, faces: Iterable[int] = (), spent: int = 0) -> None:
        """*spent*: the dice the earlier parts of a batch rolled, of the
        line's ``rules.limits.MAX_ROLLED`` (loaded with the first action,
        not with a resumed fight)."""
        from rules.limits import MAX_ROLLED

        super().__init__(0)
        self._rng = rng
        self._queue: deque[int] = deque(faces)
        self._left = MAX_ROLLED - spent
        self.rolled: list[int] = []
        self.asked: list[tuple[str, int]] = []
        self.label = ""

    def randint(self, a: int, b: int) -> int:
        if self._queue:
            face = self._queue.popleft()
            if not a <= face <= b:
                what = f" for {self.label}" if self.label else ""
                raise ActionError(
                    f"typed face {face} is not possible{what}: a d{b} shows {a} to {b}"
                )
        else:
            if len(self.rolled) >= self._left:
                from rules.limits import MAX_ROLLED

                raise ActionError(
                    f"this line rolls more than {MAX_ROLLED:,} dice: split it into several"
                )
            face = self._rng.randint(a, b)
            self.asked.append((self.label or f"d{b}", b))
        self.rolled.append(face)
        return face

    def random(self) -> float:
        return self._rng.random()

    def getrandbits(self, k: int) -> int:
        return self._rng.getrandbits(k)

    def push_front(self, face: int) -> None:
        """Deal *face* before anything else (``roll N``)."""
        self._queue.appendleft(face)

    @property
    def unused(self) -> list[int]:
        return list(self._queue)


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call a rules function, turning its ValueError (a bad value, with a
    message for the GM) into an ActionError."""
    try:
        return fn(*args, **kwargs)
    except ActionError:
        raise
    except ValueError as exc:
        raise ActionError(str(exc)) from None


def _listing(names: Sequence[str], limit: int = 12) -> str:
    shown = ", ".join(visible(n) for n in names[:limit])
    return shown + (f", … ({len(names)} in all)" if len(names) > limit else "")


def resolve_name(names: Sequence[str], target: str, groups: Sequence[str] = ()) -> str:
    """The combatant *target* means: an exact name (any case), else the one
    name it prefixes; unknown or ambiguous raises ActionError, an unknown
    one naming the name or group (*groups*) it most likely misspells."""
    key = name_key(target.strip())
    for name in names:
        if name_key(name) == key:
            return name
    matches = [n for n in names if name_key(n).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        return _ambiguous(target, matches)
    if not names:
        raise ActionError(f'no combatant named "{shorten(target)}": the encounter is empty')
    close = closest(target, [*names, *groups])
    if close is not None:
        raise ActionError(
            f'no combatant named "{shorten(target)}"; did you mean "{shorten(close)}"?'
        )
    raise ActionError(f'no combatant named "{shorten(target)}" (combatants: {_listing(names)})')


def _ambiguous(target: str, matches: Sequence[str]) -> str:
    raise ActionError(
        f'"{shorten(target)}" matches {len(matches)} combatants: {_listing(matches)} — type more of the name'
    )


class Work:
    """One action in progress: the encounter as changed so far, the log
    lines written so far (round, actor, text, where its kept dice are
    marked: ``LogEntry.kept``) and the random source."""

    def __init__(self, encounter: Encounter, roller: Roller) -> None:
        self.enc = encounter
        self.roller = roller
        self.entries: list[tuple[int, str, str, tuple[int, ...] | None]] = []
        #: fields of the journaled action rewritten with what was resolved
        self.resolved: dict[str, Any] = {}
        #: ``(label, sides)`` of every die the random source rolled (all parts)
        self.asked: list[tuple[str, int]] = []
        #: applying a batch: checks that span parts wait for its end
        self.batch = False
        #: combatants whose initiative a part of this action logged already
        #: (``init P N; start`` says each called-out total once)
        self.initiative_said: set[str] = set()
        #: warnings a part of this action logged already (a tag no one
        #: defends against, typed in each part of a batch, is warned once)
        self.warned: set[str] = set()
        #: the dice the parts applied so far rolled
        self.rolled = 0
        #: where each combatant is (:meth:`index`: one lookup per target,
        #: not a walk down hundreds), for the combatants as last indexed
        self._places: dict[str, int] = {}
        self._indexed: tuple[Combatant, ...] | None = None

    @property
    def ruleset(self) -> Ruleset:
        return self.enc.ruleset

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.enc.combatants]

    @property
    def active_name(self) -> str:
        active = self.enc.active
        return "" if active is None else active.name

    def log(self, actor: str, text: str) -> None:
        """Log *text* in the current round; outside combat (before the
        first ``start``, after ``end``) in round 0, shown "–" and exported
        "Before combat", never in a round of a combat that is over."""
        text, kept = settle(text)  # render's marks of kept dice, told from typed text
        self.entries.append((self.enc.round if self.enc.started else 0, actor, text, kept))

    def roll(self, label: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call a rolling rules function with this action's random source;
        *label* names its dice for ``dice_needed``."""
        self.roller.label = label
        try:
            return call(fn, *args, **kwargs)
        finally:
            self.roller.label = ""

    def d20(self, label: str) -> int:
        return self.roll(label, self.roller.randint, 1, 20)

    def index(self, name: str) -> int:
        cs = self.enc.combatants
        if cs is not self._indexed:  # changed by other means than put
            self._places = {}
            for i, c in enumerate(cs):
                self._places.setdefault(c.name, i)
            self._indexed = cs
        try:
            return self._places[name]
        except KeyError:
            raise ActionError(f'no combatant named "{shorten(name)}"') from None

    def get(self, name: str) -> Combatant:
        return self.enc.combatants[self.index(name)]

    def put(self, c: Combatant, old_name: str | None = None) -> None:
        """Replace the combatant called *old_name* (default: ``c.name``)."""
        i = self.index(old_name or c.name)
        cs = self.enc.combatants
        if cs[i] is c:
            return
        self.enc = replace(self.enc, combatants=(*cs[:i], c, *cs[i + 1 :]))
        if cs[i].name != c.name:
            del self._places[cs[i].name]
            self._places[c.name] = i
        self._indexed = self.enc.combatants

    def set_combatants(self, combatants: Sequence[Combatant], active: str | None) -> None:
        """New order; the turn follows the combatant called *active*."""
        combatants = tuple(combatants)
        turn = self.enc.turn
        if active:
            turn = next((i for i, c in enumerate(combatants) if c.name == active), None)
        self.enc = replace(self.enc, combatants=combatants, turn=turn)

    def resolve(self, target: str, key: str = "") -> str:
        """The one combatant *target* means (a name, a prefix, or a selector
        matching exactly one; ``rules.engine.targets``)."""
        from rules.engine.targets import resolve_targets

        names = resolve_targets(self.enc.combatants, [target])
        if len(names) != 1:
            what = f"{key}: takes" if key else "takes"
            raise ActionError(
                f'{what} one combatant; "{shorten(target)}" matches {len(names)}: {_listing(names)}'
            )
        return names[0]

    def resolve_all(self, targets: Sequence[str], key: str = "targets") -> list[str]:
        """The full names *targets* mean (names, prefixes, selectors), each
        once, recorded under *key* in the resolved action."""
        from rules.engine.targets import resolve_targets

        out = resolve_targets(self.enc.combatants, targets)
        self.resolved[key] = out
        return out

    def resolve_one(self, targets: Sequence[str], verb: str) -> str:
        """The one combatant a single-target *verb*'s *targets* mean."""
        (target,) = targets
        name = self.resolve(target, verb)
        self.resolved["targets"] = [name]
        return name
