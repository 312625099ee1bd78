"""Dice notation (RULES.md §1, §5 step 1): :func:`parse` turns text into a
cached :class:`Expression`; :func:`roll` / :func:`roll_damage` evaluate it
with an injected random source (or the GM's typed faces) into a
:class:`RollResult` keeping every die, whose :meth:`~RollResult.render` is
the log's breakdown, ``2d20kh1 (5, **14**) + 5 = 19``."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from rules.kept_marks import mark

MAX_DICE = 1000
MAX_TERMS = 100
MAX_LENGTH = 200
MAX_SIDES = 1000

CritMode = Literal["double-dice", "double-total"]


class DiceError(ValueError):
    """Bad dice notation or a bad typed face (RULES.md §1): ``message`` names
    the offending part, ``position`` is its 0-based index or ``None``."""

    def __init__(self, message: str, position: int | None = None, expression: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.expression = expression

    def __str__(self) -> str:
        return self.message


class Die(NamedTuple):
    """One die rolled: its size, the face that came up, and whether it counts."""

    sides: int
    value: int
    kept: bool = True


class Term(NamedTuple):
    """One term of an expression: dice (``number`` > 0) or a constant."""

    sign: int  # +1 or -1
    number: int = 0  # dice rolled; 0 for a constant
    sides: int = 0
    keep: str = ""  # "", "kh" or "kl"
    keep_n: int = 0  # dice kept (== number without a keep suffix)
    value: int = 0  # the constant (0 for dice)
    no_double: bool = False  # trailing "!": not doubled on a critical hit

    def body(self) -> str:
        """Normalised text without the sign: ``2d20kh1``, ``1d6!``, ``5``."""
        if self.number:
            text = f"{self.number}d{self.sides}"
            if self.keep:
                text += f"{self.keep}{self.keep_n}"
        else:
            text = str(self.value)
        return text + "!" if self.no_double else text


def _join(terms: Sequence[Term]) -> str:
    out = []
    for i, term in enumerate(terms):
        if term.sign < 0:
            out.append("-")
        elif i:
            out.append("+")
        out.append(term.body())
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed dice expression (immutable).  ``text`` is the normalised form
    (``d20+5`` → ``1d20+5``); ``dice_count`` is the number of dice one roll
    throws; ``constant`` the signed sum of the flat terms."""

    text: str
    terms: tuple[Term, ...]
    dice_count: int
    constant: int

    @classmethod
    def from_terms(cls, terms: Sequence[Term]) -> Expression:
        """Build an expression from terms (used by checks to add advantage dice)."""
        terms = tuple(terms)
        return cls(
            _join(terms),
            terms,
            sum(t.number for t in terms),
            sum(t.sign * t.value for t in terms if not t.number),
        )

    def __str__(self) -> str:
        return self.text


_DIGITS = frozenset("0123456789")
_Token = tuple[str, int | str, int, int]


def _tokenise(text: str) -> list[_Token]:
    """(kind, value, start, end) tokens; kinds: num d % kh kl op ! ."""
    tokens: list[_Token] = []
    low = text.lower()
    i, n = 0, len(low)
    while i < n:
        c = low[i]
        if c in _DIGITS:
            j = i + 1
            while j < n and low[j] in _DIGITS:
                j += 1
            tokens.append(("num", int(low[i:j]), i, j))
            i = j
        elif c == "d":
            tokens.append(("d", c, i, i + 1))
            i += 1
        elif c == "k" and i + 1 < n and low[i + 1] in "hl":
            kind = "kh" if low[i + 1] == "h" else "kl"
            tokens.append((kind, kind, i, i + 2))
            i += 2
        elif c in "+-":
            tokens.append(("op", c, i, i + 1))
            i += 1
        elif c == "%" or c == "!":
            tokens.append((c, c, i, i + 1))
            i += 1
        elif c.isspace():
            i += 1
        else:
            shown = ": keep dice with kh or kl" if c == "k" else " is not dice notation"
            raise DiceError(f'"{text[i]}" (character {i + 1}){shown}', i, text)
    return tokens


class _Parser:
    """Recursive-descent parser over the token list (one term at a time)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenise(text)
        self.k = 0
        self.term_start = 0  # where the term being read (or just read) starts

    def fail(self, problem: str, start: int, end: int, at: int | None = None) -> DiceError:
        part = self.text[start:end].strip() or self.text.strip()
        return DiceError(f'"{part}": {problem}', start if at is None else at, self.text)

    def peek(self) -> str:
        return self.tokens[self.k][0] if self.k < len(self.tokens) else ""

    def number(self) -> int:
        value = self.tokens[self.k][1]
        assert isinstance(value, int)
        self.k += 1
        return value

    def parse(self) -> Expression:
        tokens = self.tokens
        if not tokens:
            raise DiceError("empty dice expression (try something like 2d6+3)", 0, self.text)
        terms: list[Term] = []
        dice_total = 0
        sign = 1
        if tokens[0][0] == "op":  # a leading sign: -1+d20
            sign = -1 if tokens[0][1] == "-" else 1
            self.k = 1
        while True:
            if self.k >= len(tokens):
                op = tokens[self.k - 1]
                raise self.fail(f'a term is missing after "{op[1]}"', self.term_start, op[3], op[2])
            kind, value, start, end = tokens[self.k]
            if len(terms) >= MAX_TERMS:
                raise self.fail(
                    f"too many terms (at most {MAX_TERMS} in one expression)", start, end
                )
            self.term_start = start if kind != "op" else self.term_start
            term, end = self.term(sign)
            dice_total += term.number
            if dice_total > MAX_DICE:
                raise self.fail(
                    f"too many dice ({dice_total}; at most {MAX_DICE} in one expression)",
                    start,
                    end,
                )
            terms.append(term)
            if self.k >= len(tokens):
                return Expression.from_terms(terms)
            kind, value, tstart, tend = tokens[self.k]
            if kind != "op":
                what = "number" if kind == "num" else f'"{self.text[tstart:tend]}"'
                raise self.fail(f"unexpected {what} (join terms with + or -)", start, tend, tstart)
            sign = -1 if value == "-" else 1
            self.k += 1

    def term(self, sign: int) -> tuple[Term, int]:
        """One term starting at the current token; returns it and its end."""
        kind, value, start, end = self.tokens[self.k]
        count = 1
        if kind == "num":
            count = self.number()
            if self.peek() != "d":  # a constant
                no_double = self.peek() == "!"
                if no_double:
                    end = self.tokens[self.k][3]
                    self.k += 1
                return Term(sign, value=count, no_double=no_double), end
        elif kind == "op":
            raise self.fail("two operators in a row", self.term_start, end, start)
        elif kind != "d":
            raise self.fail(f'a term cannot start with "{value}"', start, end)
        d_end = self.tokens[self.k][3]
        self.k += 1
        if self.peek() == "num":
            end = self.tokens[self.k][3]
            sides = self.number()
        elif self.peek() == "%":
            sides, end = 100, self.tokens[self.k][3]
            self.k += 1
        else:
            raise self.fail("a die needs a number of sides after d (d6, d20, d%)", start, d_end)
        if count < 1:
            raise self.fail("roll at least one die", start, end)
        if sides < 2:
            raise self.fail("a die needs at least 2 sides", start, end)
        if sides > MAX_SIDES:
            raise self.fail(f"a die has at most {MAX_SIDES} sides", start, end)
        if count > MAX_DICE:
            raise self.fail(
                f"too many dice ({count}; at most {MAX_DICE} in one expression)", start, end
            )
        keep, keep_n = "", count
        if self.peek() in ("kh", "kl"):
            keep, end = self.tokens[self.k][0], self.tokens[self.k][3]
            self.k += 1
            keep_n = 1
            if self.peek() == "num":
                end = self.tokens[self.k][3]
                keep_n = self.number()
            if keep_n < 1:
                raise self.fail("keep at least one die", start, end)
            if keep_n > count:
                dice = "die" if count == 1 else "dice"
                raise self.fail(f"cannot keep {keep_n} of {count} {dice}", start, end)
        no_double = self.peek() == "!"
        if no_double:
            end = self.tokens[self.k][3]
            self.k += 1
        return Term(sign, count, sides, keep, keep_n, 0, no_double), end


@lru_cache(maxsize=1024)
def _parse(text: str) -> Expression:
    return _Parser(text).parse()


def parse(text: str) -> Expression:
    """Parse dice notation into an :class:`Expression` (RULES.md §1), cached;
    raises :class:`DiceError` for anything else, huge text at once."""
    if not isinstance(text, str):
        raise DiceError(f"a dice expression is text, not {type(text).__name__}", None, "")
    if len(text) > MAX_LENGTH:
        raise DiceError(
            f"dice expression too long ({len(text)} characters; at most {MAX_LENGTH})",
            MAX_LENGTH,
            text[:MAX_LENGTH],
        )
    return _parse(text)


_new = tuple.__new__


class _Faces:
    """Draws the GM's typed faces in order, then falls back to the rng."""

    __slots__ = ("faces", "i", "randint", "expression")

    def __init__(self, faces: Sequence[int], rng: random.Random, expression: str) -> None:
        self.faces = list(faces)
        self.i = 0
        self.randint = rng.randint
        self.expression = expression

    def __call__(self, low: int, high: int) -> int:
        i = self.i
        if i >= len(self.faces):
            return self.randint(low, high)
        face = self.faces[i]
        self.i = i + 1
        if isinstance(face, bool) or not isinstance(face, int):
            raise DiceError(f"typed face {face!r} is not a whole number", None, self.expression)
        if not low <= face <= high:
            raise DiceError(
                f"typed face {face} is not on a d{high} (1..{high})", None, self.expression
            )
        return face

    def finish(self) -> None:
        if self.i < len(self.faces):
            raise DiceError(
                f"{len(self.faces)} faces typed but only {self.i} dice rolled",
                None,
                self.expression,
            )


def _roll_terms(
    terms: tuple[Term, ...], rng: random.Random, faces: Sequence[int] | None, text: str
) -> tuple[list[int], list[tuple[Die, ...]], list[Die]]:
    """Roll every term, *faces* first: (signed term values, per-term dice, all dice)."""
    if faces:
        source = _Faces(faces, rng, text)
        rolled = _draw_terms(terms, source)
        source.finish()
        return rolled
    return _draw_terms(terms, rng.randint)


def _draw_terms(
    terms: tuple[Term, ...], draw: Callable[[int, int], int]
) -> tuple[list[int], list[tuple[Die, ...]], list[Die]]:
    values: list[int] = []
    groups: list[tuple[Die, ...]] = []
    every: list[Die] = []
    for sign, number, sides, keep, keep_n, value, _ in terms:
        if not number:
            values.append(value if sign > 0 else -value)
            groups.append(())
            continue
        if number == 1:
            subtotal = draw(1, sides)
            group: tuple[Die, ...] = (_new(Die, (sides, subtotal, True)),)
        else:
            faces = [draw(1, sides) for _ in range(number)]
            if not keep or keep_n == number:
                group = tuple([_new(Die, (sides, v, True)) for v in faces])
                subtotal = sum(faces)
            elif keep_n == 1:
                subtotal = max(faces) if keep == "kh" else min(faces)
                pick = faces.index(subtotal)  # ties: the die rolled first
                group = tuple([_new(Die, (sides, v, i == pick)) for i, v in enumerate(faces)])
            else:
                order = sorted(range(number), key=faces.__getitem__, reverse=keep == "kh")
                kept = set(order[:keep_n])
                group = tuple([_new(Die, (sides, v, i in kept)) for i, v in enumerate(faces)])
                subtotal = sum([faces[i] for i in kept])
        values.append(subtotal if sign > 0 else -subtotal)
        groups.append(group)
        every.extend(group)
    return values, groups, every


class RollResult(NamedTuple):
    """A rolled expression with its full breakdown (RULES.md §1): ``dice``
    holds every die in order, dropped ones included; ``crit`` names the
    critical-damage mode applied; ``raw_total`` is the total before damage
    was raised to 0."""

    expression: str
    total: int
    dice: tuple[Die, ...]
    constant: int
    terms: tuple[Term, ...] = ()
    groups: tuple[tuple[Die, ...], ...] = ()
    crit: str | None = None
    raw_total: int | None = None

    @property
    def kept(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.kept)

    def render(self, expression: bool = True) -> str:
        """The breakdown: ``2d20kh1 (5, **14**) + 5 = 19``; kept dice are in
        ``**bold**`` when a term dropped some (``rules.kept_marks.mark``).
        Critical damage is shown as ``crit ×2 dice:`` / ``crit ×2 total:``.
        *expression* False leaves each dice term's expression out, keeping
        its faces, ``(5, **14**) + 5 = 19``: one of several rolls of an
        expression said once (a horde's hit points)."""
        pairs = list(zip(self.terms, self.groups, strict=True))
        raw = self.total if self.raw_total is None else self.raw_total
        if not expression:
            text = _render_pairs(pairs, bodies=False)
        elif self.crit == "double-total":
            doubled = [p for p in pairs if p[0].sign > 0 and not p[0].no_double]
            rest = [p for p in pairs if not (p[0].sign > 0 and not p[0].no_double)]
            text = "crit ×2 total: "
            if doubled:
                text += f"({_render_pairs(doubled)}) ×2"
                text += _render_pairs(rest, first=False)
            else:
                text += _render_pairs(rest)
        else:
            text = "crit ×2 dice: " if self.crit == "double-dice" else ""
            text += _render_pairs(pairs)
        text += f" = {raw}"
        if raw != self.total:
            text += f" → {self.total}"
        return text

    def __str__(self) -> str:
        return self.render()


def _render_pairs(
    pairs: Sequence[tuple[Term, tuple[Die, ...]]], first: bool = True, bodies: bool = True
) -> str:
    out = []
    for term, group in pairs:
        if first:
            out.append("-" if term.sign < 0 else "")
            first = False
        else:
            out.append(" - " if term.sign < 0 else " + ")
        if bodies or not group:
            out.append(term.body())
        if group:
            dropped = term.keep_n < term.number
            faces = ", ".join(mark(d.value) if dropped and d.kept else str(d.value) for d in group)
            out.append(f" ({faces})" if bodies else f"({faces})")
    return "".join(out)


def _expression(text_or_expression: str | Expression) -> Expression:
    if isinstance(text_or_expression, Expression):
        return text_or_expression
    return parse(text_or_expression)


def roll(
    text_or_expression: str | Expression, rng: random.Random, faces: Sequence[int] | None = None
) -> RollResult:
    """Roll an expression (RULES.md §1); ``faces`` typed by the GM are used
    in order for every die before *rng*, and a face off the die or more
    faces than dice raise :class:`DiceError`."""
    expr = _expression(text_or_expression)
    values, groups, every = _roll_terms(expr.terms, rng, faces, expr.text)
    return _new(
        RollResult,
        (
            expr.text,
            sum(values),
            tuple(every),
            expr.constant,
            expr.terms,
            tuple(groups),
            None,
            None,
        ),
    )


def roll_damage(
    text: str | Expression,
    rng: random.Random,
    *,
    crit: bool = False,
    mode: CritMode = "double-dice",
    faces: Sequence[int] | None = None,
) -> RollResult:
    """Roll damage, doubled on a critical hit per ``mode`` (RULES.md §5 step
    1): ``double-dice`` doubles the dice of each positive term,
    ``double-total`` doubles the positive terms' sum; ``!`` terms, subtracted
    terms and (for ``double-dice``) constants are not doubled.  The total is
    never below 0."""
    expr = _expression(text)
    if mode not in ("double-dice", "double-total"):
        raise DiceError(
            f'unknown critical damage mode "{mode}" (double-dice or double-total)', None, expr.text
        )
    terms = expr.terms
    if crit and mode == "double-dice":
        terms = tuple(
            t._replace(number=t.number * 2, keep_n=t.keep_n * 2)
            if t.number and t.sign > 0 and not t.no_double
            else t
            for t in terms
        )
        if sum(t.number for t in terms) > 2 * MAX_DICE:  # pragma: no cover - bounded by parse
            raise DiceError("too many dice", None, expr.text)
    values, groups, every = _roll_terms(terms, rng, faces, expr.text)
    if crit and mode == "double-total":
        doubled = sum(
            v for t, v in zip(terms, values, strict=True) if t.sign > 0 and not t.no_double
        )
        raw = sum(values) + doubled
    else:
        raw = sum(values)
    crit_mode = mode if crit else None
    return RollResult(
        expr.text, max(raw, 0), tuple(every), expr.constant, terms, tuple(groups), crit_mode, raw
    )


def _mean_keep_highest(count: int, sides: int, keep: int) -> float:
    """E[sum of the ``keep`` highest of ``count`` d``sides``], exactly: the
    sum over faces k of E[min(B_k, keep)], B_k ~ Binomial(count, P(die >= k))."""
    if keep >= count:
        return count * (sides + 1) / 2
    total = float(keep)  # k = 1: every die is >= 1
    log_c = [0.0] * keep  # log C(count, j) for j < keep
    for j in range(1, keep):
        log_c[j] = log_c[j - 1] + math.log(count - j + 1) - math.log(j)
    for k in range(2, sides + 1):
        p = (sides - k + 1) / sides
        lp, lq = math.log(p), math.log1p(-p)
        short = sum(
            (keep - j) * math.exp(log_c[j] + j * lp + (count - j) * lq) for j in range(keep)
        )
        total += keep - short
    return total


def _term_mean(term: Term) -> float:
    if not term.number:
        return float(term.value)
    n, m, kn = term.number, term.sides, term.keep_n
    if not term.keep or kn == n:
        return n * (m + 1) / 2
    # E[top K] = E[all] - E[bottom N-K]; E[bottom J] = J(M+1) - E[top J]
    # (a die's mirror M+1-x has the same distribution): pick the cheaper side.
    high = kn if term.keep == "kh" else n - kn
    if high <= n - high:
        top = _mean_keep_highest(n, m, high)
    else:
        low = n - high
        top = n * (m + 1) / 2 - (low * (m + 1) - _mean_keep_highest(n, m, low))
    return top if term.keep == "kh" else n * (m + 1) / 2 - top


@lru_cache(maxsize=256)
def _average(expr: Expression) -> float:
    return sum(t.sign * _term_mean(t) for t in expr.terms)


def average(text: str | Expression) -> float:
    """The exact expected total of an expression (RULES.md §1; used for
    average HP and to compare persistent damage, §4 and §7)."""
    return _average(_expression(text))


def _term_bounds(term: Term) -> tuple[int, int]:
    if not term.number:
        low = high = term.value
    else:
        low, high = term.keep_n, term.keep_n * term.sides
    return (low, high) if term.sign > 0 else (-high, -low)


def minimum(text: str | Expression) -> int:
    """The lowest total the expression can roll (RULES.md §1)."""
    return sum(_term_bounds(t)[0] for t in _expression(text).terms)


def maximum(text: str | Expression) -> int:
    """The highest total the expression can roll (RULES.md §1)."""
    return sum(_term_bounds(t)[1] for t in _expression(text).terms)
