"""d20 rolls with advantage (RULES.md §2), checks, degrees of success, flat
checks and Difficulty Levels (§3)."""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceError, Expression, RollResult, Term, parse, roll
from rules.rulesets import Ruleset, RulesetError
from rules.rulesets import ruleset as _named_ruleset


class CheckError(DiceError):
    """A bad check request (negative advantage count, unknown DL name, …)."""


def _resolve(ruleset: Ruleset | str | None) -> Ruleset:
    if ruleset is None:
        return _named_ruleset()
    if isinstance(ruleset, str):
        try:
            return _named_ruleset(ruleset)
        except RulesetError as exc:
            raise CheckError(str(exc)) from None
    return ruleset


def advantage_dice(adv: int, dis: int, ruleset: Ruleset | str | None = None) -> tuple[int, int]:
    """(number of d20s, flat bonus) for ``adv`` advantages and ``dis``
    disadvantages, per option ``advantage`` (RULES.md §2 table)."""
    for name, count in (("advantage", adv), ("disadvantage", dis)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise CheckError(f"{name} count must be a whole number 0 or more, not {count!r}")
    rules = _resolve(ruleset)
    net = adv - dis
    k = abs(net)
    if k == 0:
        return 1, 0
    sign = 1 if net > 0 else -1
    mode = rules["advantage"]
    if mode == "stack":
        return min(k, max(int(rules["stack_cap"]), 0)) + 1, 0
    if mode == "cap2":
        return min(k, 2) + 1, 0
    if mode == "alternate":
        extra = 1 if k < 3 else 2
        return extra + 1, sign * 2 * (k - extra)
    raise CheckError(f"unknown advantage mode {mode!r} (alternate, stack or cap2)")


@dataclass(frozen=True)
class D20Roll:
    """A rolled d20 (with any advantage dice) plus modifiers (RULES.md §2):
    ``natural`` is the kept d20's face or ``None``; ``modifier`` every flat
    number added, ±2 steps included."""

    result: RollResult
    natural: int | None
    total: int
    modifier: int

    @property
    def text(self) -> str:
        return self.result.render()


_D20 = Term(1, 1, 20, "", 1)


def _natural(result: RollResult, index: int | None) -> int | None:
    if index is None:
        return None
    kept = [d.value for d in result.groups[index] if d.kept]
    return kept[0] if len(kept) == 1 else None


def _d20_index(terms: Sequence[Term]) -> int | None:
    return next((i for i, t in enumerate(terms) if t.number and t.sides == 20 and t.sign > 0), None)


def roll_expression_with_advantage(
    text: str | Expression,
    adv: int,
    dis: int,
    ruleset: Ruleset | str | None,
    rng: random.Random,
    faces: Sequence[int] | None = None,
) -> D20Roll:
    """Roll any expression, giving its d20 term the advantage dice
    (RULES.md §2).  With net advantage it must hold exactly one added plain
    ``1d20``, else :class:`CheckError`; ``faces`` are the GM's dice in order.
    A flat bonus (``alternate``'s ±2 steps) is its own constant term, so the
    breakdown shows it: ``2d20kh1 (5, **14**) + 5 + 2 = 21``."""
    expr = parse(text) if isinstance(text, str) else text
    dice, flat = advantage_dice(adv, dis, ruleset)
    index = _d20_index(expr.terms)
    if dice > 1 or flat:
        if index is None:
            raise CheckError(
                f'"{expr.text}": advantage and disadvantage need a d20 in the roll', None, expr.text
            )
        d20_terms = [t for t in expr.terms if t.number and t.sides == 20]
        term = expr.terms[index]
        if len(d20_terms) > 1 or term.number != 1 or term.keep:
            raise CheckError(
                f'"{expr.text}": advantage needs exactly one plain 1d20 term', None, expr.text
            )
        keep = "kh" if adv > dis else "kl"
        terms = list(expr.terms)
        terms[index] = term._replace(number=dice, keep=keep if dice > 1 else "", keep_n=1)
        if flat:
            terms.append(Term(1 if flat > 0 else -1, value=abs(flat)))
        expr = Expression.from_terms(terms)
    result = roll(expr, rng, faces)
    return D20Roll(result, _natural(result, index), result.total, result.constant)


def roll_d20(
    modifier: int,
    adv: int,
    dis: int,
    ruleset: Ruleset | str | None,
    rng: random.Random,
    faces: Sequence[int] | None = None,
) -> D20Roll:
    """d20 + ``modifier`` with advantage / disadvantage (RULES.md §2);
    ``faces`` are d20s typed by the GM."""
    if isinstance(modifier, bool) or not isinstance(modifier, int):
        raise CheckError(f"a modifier is a whole number, not {modifier!r}")
    terms = [_D20]
    if modifier:
        terms.append(Term(1 if modifier > 0 else -1, value=abs(modifier)))
    return roll_expression_with_advantage(
        Expression.from_terms(terms), adv, dis, ruleset, rng, faces
    )


class Degree(enum.IntEnum):
    """Degrees of success, ordered worst to best (RULES.md §3)."""

    CRITICAL_FAILURE = 0
    FAILURE = 1
    SUCCESS = 2
    CRITICAL_SUCCESS = 3

    @property
    def label(self) -> str:
        """``"critical success"``, ``"success"``, ``"failure"``, ``"critical failure"``."""
        return self.name.lower().replace("_", " ")

    @property
    def succeeded(self) -> bool:
        return self >= Degree.SUCCESS

    def step_up(self) -> Degree:
        """One degree better (a critical success stays one)."""
        return Degree(min(self + 1, Degree.CRITICAL_SUCCESS))

    def step_down(self) -> Degree:
        """One degree worse (a critical failure stays one)."""
        return Degree(max(self - 1, Degree.CRITICAL_FAILURE))


def degree_of(total: int, dc: int) -> Degree:
    """The degree of ``total`` against ``dc`` before naturals (RULES.md §3):
    ≥ DC+10 critical success; ≥ DC success; > DC−10 failure; else critical
    failure."""
    if total >= dc + 10:
        return Degree.CRITICAL_SUCCESS
    if total >= dc:
        return Degree.SUCCESS
    if total > dc - 10:
        return Degree.FAILURE
    return Degree.CRITICAL_FAILURE


NaturalMode = Literal["step", "crit"]


def apply_natural(degree: Degree, natural: int | None, mode: NaturalMode | str) -> Degree:
    """Adjust a degree for a natural 20 or 1 (RULES.md §3, option
    ``natural``): ``crit`` sets the critical degree, ``step`` moves one."""
    if mode not in ("step", "crit"):
        raise CheckError(f"unknown natural mode {mode!r} (step or crit)")
    if natural == 20:
        return Degree.CRITICAL_SUCCESS if mode == "crit" else degree.step_up()
    if natural == 1:
        return Degree.CRITICAL_FAILURE if mode == "crit" else degree.step_down()
    return degree


@dataclass(frozen=True)
class CheckResult:
    """A check against a DC with its degree and log text (RULES.md §3)."""

    roll: D20Roll
    dc: int
    degree: Degree
    text: str

    @property
    def success(self) -> bool:
        return self.degree.succeeded


def judge(d20: D20Roll, dc: int, ruleset: Ruleset | str | None = None) -> CheckResult:
    """The degree of an already rolled :class:`D20Roll` against ``dc`` with
    the ruleset's natural 20 / 1 option applied (RULES.md §3)."""
    rules = _resolve(ruleset)
    base = degree_of(d20.total, dc)
    degree = apply_natural(base, d20.natural, rules["natural"])
    text = f"{d20.result.render()} vs DC {dc}: {degree.label}"
    if degree is not base:
        text += f" (natural {d20.natural}: {base.label} → {degree.label})"
    return CheckResult(d20, dc, degree, text)


def check(
    modifier: int,
    dc: int,
    adv: int,
    dis: int,
    ruleset: Ruleset | str | None,
    rng: random.Random,
    faces: Sequence[int] | None = None,
) -> CheckResult:
    """Roll d20 + ``modifier`` (with advantage) against ``dc`` (RULES.md §2,
    §3), e.g. ``1d20 (20) + 2 = 22 vs DC 15: critical success (natural 20:
    success → critical success)``."""
    return judge(roll_d20(modifier, adv, dis, ruleset, rng, faces), dc, ruleset)


@dataclass(frozen=True)
class FlatCheck:
    """A flat check: a bare d20 against a DC (RULES.md §3)."""

    face: int
    dc: int
    success: bool
    text: str


def flat_check(dc: int, rng: random.Random, face: int | None = None) -> FlatCheck:
    """A bare d20 (or the typed ``face``) against ``dc``: no modifiers,
    advantage or natural 20 / 1 rule (RULES.md §3)."""
    faces = None if face is None else [face]
    rolled = roll(Expression.from_terms([_D20]), rng, faces).total
    success = rolled >= dc
    text = f"flat check d20 ({rolled}) vs DC {dc}: {'success' if success else 'failure'}"
    return FlatCheck(rolled, dc, success, text)


#: Difficulty Levels by name (RULES.md §3, from 003).
DIFFICULTY_LEVELS: dict[str, int] = {
    "Routine": 0, "Simple": 3, "Standard": 6, "Demanding": 9, "Difficult": 12, "Challenging": 15,
    "Intimidating": 18, "Formidable": 21, "Heroic": 24, "Immortal": 27, "Impossible": 30,
}  # fmt: skip
_DL_LOWER = {name.lower(): value for name, value in DIFFICULTY_LEVELS.items()}


def difficulty_level(name: str) -> int:
    """The DL of a named Difficulty Level, case-insensitive (RULES.md §3)."""
    key = str(name).strip().lower()
    if key in _DL_LOWER:
        return _DL_LOWER[key]
    names = ", ".join(f"{n} {v}" for n, v in DIFFICULTY_LEVELS.items())
    raise CheckError(f"unknown difficulty level {name!r} (choose {names})")
