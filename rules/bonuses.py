"""Typed bonuses and their stacking rules, and cover (RULES.md §9)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.durations import Duration

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.rulesets import Ruleset


@dataclass(frozen=True)
class Bonus:
    """A typed bonus (deflection, dodge, insight, assist, luck, morale, item,
    untyped) of *value* to *applies_to*, with an optional duration (§9)."""

    type: str
    value: int
    applies_to: str = "al"
    duration: Duration | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "value": self.value,
            "applies_to": self.applies_to,
            "duration": None if self.duration is None else self.duration.to_dict(),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bonus:
        return cls(
            str(data["type"]),
            int(data["value"]),
            str(data.get("applies_to", "al")),
            Duration.from_dict(data.get("duration")),
            str(data.get("source", "")),
        )


class StackRule(NamedTuple):
    """How bonuses of one type combine: at most *limit* count (the highest;
    None = all add), and whether the type applies to AL only (§9)."""

    limit: int | None
    al_only: bool = False
    note: str = ""


#: RULES.md §9 table (000), as data.  Penalties (negative values) of any
#: type always apply in full: the limits choose among bonuses only.
STACKING: dict[str, StackRule] = {
    "deflection": StackRule(None, True, "AL only; all add"),
    "dodge": StackRule(1, True, "AL only; only the highest counts"),
    "insight": StackRule(None, False, "all add"),
    "assist": StackRule(3, False, "the three highest count"),
    "luck": StackRule(1, False, "only the highest counts"),
    "morale": StackRule(1, False, "only the highest counts"),
    "item": StackRule(2, False, "the two highest count; armor and shield are not items"),
    "untyped": StackRule(None, False, "all add"),
}

#: Bonus types that are counted per §2 (advantage dice), not as numbers.
DICE_TYPES = ("advantage", "disadvantage")

#: Cover degrees, least to most protective (§9).
COVER_DEGREES = ("none", "half", "three-quarters", "total")
_COVER_ALIASES = {
    **dict.fromkeys(("", "no", "none"), "none"),
    **dict.fromkeys(("half", "1/2"), "half"),
    **dict.fromkeys(
        ("three-quarters", "three-quarter", "three_quarters", "threequarters", "3/4"),
        "three-quarters",
    ),
    **dict.fromkeys(("total", "full"), "total"),
}


class CoverError(ValueError):
    """Total cover: the target cannot be targeted (RULES.md §9)."""


def bonus_label(b: Bonus) -> str:
    """``+2 deflection (Shield of Faith)`` for log lines."""
    source = f" ({b.source})" if b.source else ""
    return f"{b.value:+d} {b.type}{source}"


class StackResult(NamedTuple):
    """The total of the bonuses that count, which ones counted, which were
    ignored, and a text explaining it (RULES.md §9)."""

    total: int
    counted: tuple[Bonus, ...]
    ignored: tuple[Bonus, ...]
    text: str


def stack(bonuses: Iterable[Bonus], applies_to: str) -> StackResult:
    """Combine the bonuses that apply to *applies_to* (``al``, ``checks``,
    ``attacks``) per the RULES.md §9 table (``STACKING``).  Penalties always
    apply in full and take no slot; advantage types count per §2 and are
    ignored here.  An unknown type raises ``ValueError`` naming it."""
    target = applies_to.strip().lower()
    counted: list[Bonus] = []
    ignored: list[tuple[Bonus, str]] = []
    by_type: dict[str, list[Bonus]] = {}
    for b in bonuses:
        if b.applies_to.strip().lower() != target:
            continue
        kind = b.type.strip().lower()
        if kind in DICE_TYPES:
            ignored.append((b, "counts as advantage dice, not a number"))
            continue
        rule = STACKING.get(kind)
        if rule is None:
            raise ValueError(f"unknown bonus type {b.type!r} (known: {', '.join(STACKING)})")
        if rule.al_only and target != "al":
            ignored.append((b, f"{kind} applies to AL only"))
            continue
        if b.value < 0:
            counted.append(b)  # penalties always apply
            continue
        by_type.setdefault(kind, []).append(b)
    for kind, group in by_type.items():
        limit = STACKING[kind].limit
        ranked = sorted(group, key=lambda b: b.value, reverse=True)
        keep = ranked if limit is None else ranked[:limit]
        counted.extend(keep)
        for b in ranked[len(keep) :]:
            ignored.append((b, f"{kind}: {STACKING[kind].note}"))
    total = sum(b.value for b in counted)
    parts = [bonus_label(b) for b in counted]
    text = (" ".join(parts) if parts else "no bonuses") + f" = {total:+d}"
    if ignored:
        text += "; ignored: " + ", ".join(f"{bonus_label(b)} ({why})" for b, why in ignored)
    return StackResult(total, tuple(counted), tuple(b for b, _ in ignored), text)


def _cover_degree(degree: str | None) -> str:
    key = "" if degree is None else str(degree).strip().lower().replace(" ", "-")
    found = _COVER_ALIASES.get(key)
    if found is None:
        raise ValueError(f"unknown cover {degree!r} (choose {', '.join(COVER_DEGREES)})")
    return found


def cover_bonus(degree: str | None, ruleset: Ruleset) -> int:
    """The AL bonus of a cover degree (RULES.md §9, source 003): none 0,
    half ``cover_half`` (+2), three-quarters ``cover_three_quarters`` (+5).
    Total cover raises ``CoverError``: the target cannot be targeted."""
    found = _cover_degree(degree)
    if found == "total":
        raise CoverError("total cover: the target cannot be targeted")
    option = {"half": "cover_half", "three-quarters": "cover_three_quarters"}.get(found)
    return 0 if option is None else int(ruleset[option])


def effective_al(
    c: Combatant, ruleset: Ruleset, cover: str | Iterable[str] | None = None
) -> tuple[int, str]:
    """The AL an attack must reach: base AL + stacked AL bonuses + cover
    (RULES.md §9).  *cover* is one degree or several, of which only the most
    protective counts; total cover raises ``CoverError``.  The text explains
    the sum, including bonuses that did not stack."""
    degrees = [cover] if cover is None or isinstance(cover, str) else list(cover)
    best = max((_cover_degree(d) for d in degrees), key=COVER_DEGREES.index, default="none")
    cover_value = cover_bonus(best, ruleset)
    result = stack(c.bonuses, "al")
    total = c.al + result.total + cover_value
    parts = [f"{c.al} base"] + [bonus_label(b) for b in result.counted]
    if cover_value:
        parts.append(f"{cover_value:+d} {best} cover")
    text = f"{c.name} AL {total} = " + " ".join(parts)
    if result.ignored:
        text += " (not stacking: " + ", ".join(bonus_label(b) for b in result.ignored) + ")"
    return total, text
