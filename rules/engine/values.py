"""The values the action language reads wherever they are typed: whole
numbers within their bounds (typo guards, not rules, worded alike for
every field by :func:`bounded`), dice expressions (:func:`check_dice`),
resistance tables (``fire=5,cold``) and the words that clear a field.
Only size and syntax: what depends on the combatant is the engine's."""

from __future__ import annotations

from rules.errors import ActionError
from rules.text import shorten

#: Size limits of the language's whole numbers (typo guards, not rules), all
#: checked by :func:`bounded` so every field words its error alike.
MAX_NUMBER = 1_000_000
MAX_MODIFIER = 1000
MAX_COUNT = 100
MAX_ROUNDS = 1000
MAX_FACES = 1000
#: the most tags in one list (a defense's, ``immune fire,cold``; a damage
#: hit's, over all its parts; persistent damage's): a hit's tags are written
#: into every target's log line, and every later hit is checked against a
#: defense's
MAX_TAGS = 30
#: the most parts of one hit of damage (``1d8 slashing + 2d6 fire``)
MAX_PARTS = 10

#: (lowest, highest) of a whole-number field by the word that names it; any
#: other whole-number field (al, init, bonus, with, value, athletics, …) is
#: within ±MAX_MODIFIER.
BOUNDS: dict[str, tuple[int, int]] = {
    "count": (1, MAX_COUNT),
    "adv": (0, MAX_COUNT),
    "dis": (0, MAX_COUNT),
    "rounds": (1, MAX_ROUNDS),
    "dc": (1, MAX_MODIFIER),
    "hp": (1, MAX_NUMBER),
    "max_hp": (1, MAX_NUMBER),
    "temp": (0, MAX_NUMBER),
    "endurance": (0, MAX_NUMBER),
    "luck_points": (0, MAX_COUNT),
    "resist": (0, MAX_NUMBER),
}
_MODIFIER_BOUNDS = (-MAX_MODIFIER, MAX_MODIFIER)


def bounded(key: str, value: int | str, low: int | None = None, high: int | None = None) -> int:
    """*value* (an int, or text like ``-3`` / ``+12``) as a whole number
    within the bounds of field *key* (:data:`BOUNDS`, or *low*/*high*);
    raises :class:`ActionError` (``hp 9999999 is too large (at most …)``)."""
    default_low, default_high = BOUNDS.get(key.split(" ")[0], _MODIFIER_BOUNDS)
    low = default_low if low is None else low
    high = default_high if high is None else high
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ActionError(f"{key} must be a whole number, not {value!r}")
    text = str(value).strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit():
        raise ActionError(f"{key} must be a whole number, not {shorten(str(value), 40)!r}")
    if len(digits.lstrip("0")) > 12:  # no int() of a thousand digits
        sign = "small" if text.startswith("-") else "large"
        limit = f"at least {low:,}" if sign == "small" else f"at most {high:,}"
        raise ActionError(f"{key} {shorten(text, 40)} is too {sign} ({limit})")
    n = int(text)
    if n > high:
        raise ActionError(f"{key} {n} is too large (at most {high:,})")
    if n < low:
        raise ActionError(f"{key} {n} is too small (at least {low:,})")
    return n


#: what clears a field that may be empty (``set T initiative none``).
CLEARING = ("none", "-", "")


def clears(value: str) -> bool:
    """Whether *value* is ``none``, ``-`` or nothing, which clears a field."""
    return value.strip().lower() in CLEARING


def check_tags(what: str, count: int) -> None:
    """Refuse a list of *count* tags longer than :data:`MAX_TAGS`; *what*
    names it (``add immune``)."""
    if count > MAX_TAGS:
        raise ActionError(f"{what}: at most {MAX_TAGS} tags, not {count}")


def parse_resistances(text: str, what: str = "") -> dict[str, int]:
    """A resistance table as typed: ``fire=5,cold`` → ``{"fire": 5, "cold":
    0}``; a problem raises ActionError led by *what*."""
    lead = f"{what}: " if what else ""
    table: dict[str, int] = {}
    for part in text.split(","):
        tag, sep, amount = part.partition("=")
        tag = tag.strip().lower()
        if not tag:
            raise ActionError(f"{lead}empty tag in {shorten(text)!r} (write fire=5,cold=5)")
        try:
            table[tag] = bounded(f"resist {shorten(tag)}", amount) if sep else 0
        except ActionError as exc:
            raise ActionError(f"{lead}{exc}") from None
    check_tags(what or "resist", len(table))
    return table


def check_dice(text: str, what: str = "dice", amount: bool = False) -> str:
    """Validate a dice expression (RULES.md §1), raising :class:`ActionError`
    with the dice module's message.  An *amount* must be able to come to at
    least 1: ``damage X 0`` would change nothing, and saying it did is false."""
    if not text.strip():
        raise ActionError(f"{what}: a dice expression or number is needed")
    from rules.dice import DiceError, maximum, parse
    from rules.limits import check_amount

    try:
        expr = parse(text)
    except (DiceError, ValueError) as exc:
        raise ActionError(f"{what}: {exc}") from None
    for term in expr.terms:
        if term.value > MAX_NUMBER:
            raise ActionError(f"{what}: {term.value} is too large (at most {MAX_NUMBER:,})")
    check_amount(what, text)
    if amount and maximum(expr) < 1:
        shown = shorten(text, 40)
        if expr.dice_count:
            shown += f" can come to at most {maximum(expr)}"
        raise ActionError(f"{what}: {shown}; an amount is at least 1 hit point")
    return text
