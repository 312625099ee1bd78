"""Damage, healing and temporary hit points (RULES.md §5, §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.durations import Duration, describe_duration
from rules.text import closest

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.rulesets import Ruleset


@dataclass(frozen=True)
class Defenses:
    """What a combatant is immune, resistant (tag → value), weak (×2) or
    susceptible (×1.5) to; the tag ``all`` matches any damage (RULES.md §5)."""

    immunities: frozenset[str] = frozenset()
    resistances: Mapping[str, int] = field(default_factory=dict)
    weaknesses: frozenset[str] = frozenset()
    susceptibilities: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        return {
            "immunities": sorted(self.immunities),
            "resistances": dict(self.resistances),
            "weaknesses": sorted(self.weaknesses),
            "susceptibilities": sorted(self.susceptibilities),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Defenses:
        data = data or {}
        return cls(
            frozenset(str(t).lower() for t in data.get("immunities", ())),
            {str(k).lower(): int(v) for k, v in dict(data.get("resistances", {})).items()},
            frozenset(str(t).lower() for t in data.get("weaknesses", ())),
            frozenset(str(t).lower() for t in data.get("susceptibilities", ())),
        )


def _amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise ValueError(f"{what} must be 0 or more, not {value}")
    return value


def normalize_tags(tags: str | Iterable[str]) -> tuple[str, ...]:
    """Damage tags lower-cased and stripped, duplicates dropped, order kept;
    a single string is one tag."""
    if isinstance(tags, str):
        tags = (tags,)
    out = dict.fromkeys(str(tag).strip().lower() for tag in tags)
    return tuple(t for t in out if t)


def _matches(defense: Iterable[str], tags: tuple[str, ...]) -> bool:
    """Whether a defense tag matches this damage (``all`` matches any damage)."""
    return any(d == "all" or d in tags for d in (str(x).lower() for x in defense))


def _kind(tags: tuple[str, ...]) -> str:
    return f" {'/'.join(tags)}" if tags else ""


class DamageStep(NamedTuple):
    """One step of §5: a *label* such as ``weak ×2`` and the amount after it."""

    label: str
    value: int


class DamageResult(NamedTuple):
    """Everything that happened to one damage instance (RULES.md §5):
    ``steps`` in order, ``final`` the amount after them, then what temp HP
    soaked and what came off HP."""

    target: str
    amount: int
    tags: tuple[str, ...]
    steps: tuple[DamageStep, ...]
    final: int
    temp_absorbed: int
    hp_lost: int
    down: bool
    text: str


def defend(
    d: Defenses, amount: int, tags: tuple[str, ...], ruleset: Ruleset
) -> tuple[list[DamageStep], int]:
    """RULES.md §5 steps 2–4 for one amount of *tags*: immunity, then the
    strongest of weakness / susceptibility, then resistance per option
    ``resistance``; returns the steps taken and the amount after them."""
    steps: list[DamageStep] = []
    value = amount
    if _matches(d.immunities, tags):
        return [DamageStep("immune", 0)], 0
    if _matches(d.weaknesses, tags):
        value *= 2
        steps.append(DamageStep("weak ×2", value))
    elif _matches(d.susceptibilities, tags):
        value = value * 3 // 2
        steps.append(DamageStep("susceptible ×1.5", value))
    resist = [v for k, v in d.resistances.items() if _matches((k,), tags)]
    if resist:
        if ruleset["resistance"] == "subtract":
            best = max(resist)
            value = max(0, value - best)
            steps.append(DamageStep(f"resist {best}", value))
        else:
            value //= 2
            steps.append(DamageStep("resist ½", value))
    return steps, value


def apply_damage(
    c: Combatant, amount: int, tags: str | Iterable[str], ruleset: Ruleset
) -> tuple[Combatant, DamageResult]:
    """Apply one damage instance to *c* (RULES.md §5 steps 2–5, §6): its
    defenses (:func:`defend`), then temp HP, then HP.  Critical doubling
    happens before this (``rules.dice.roll_damage``)."""
    amount = _amount(amount, "damage")
    tags = normalize_tags(tags)
    steps, value = defend(c.defenses, amount, tags, ruleset)

    absorbed = min(c.temp_hp, value)
    hp_lost = min(c.hp, value - absorbed)
    temp_left = c.temp_hp - absorbed
    new = replace(
        c,
        temp_hp=temp_left,
        temp_hp_duration=c.temp_hp_duration if temp_left > 0 else None,
        hp=c.hp - hp_lost,
    )

    parts = [f"{c.name} takes {amount}{_kind(tags)}"]
    parts += [f"{s.label} = {s.value}" for s in steps]
    where = absorbed_text(absorbed, hp_lost, new.hp, c.max_hp)
    text = " → ".join(parts) + f" ({where})" + down_or_up(c, new)
    result = DamageResult(
        c.name, amount, tags, tuple(steps), value, absorbed, hp_lost, new.down, text
    )
    return new, result


def absorbed_text(absorbed: int, hp_lost: int, hp: int, max_hp: int) -> str:
    """Where a hit went and what is left (RULES.md §5 step 5, §6): ``3
    absorbed by temp HP, 2 HP lost, 18/20 left``, or ``2 HP lost, 18/20
    left`` when no temp HP took any.  The HP left is spelled out: a bare
    ``(2 HP)`` read as "now at 2 HP"."""
    left = f"{hp_lost} HP lost, {hp}/{max_hp} left"
    return f"{absorbed} absorbed by temp HP, {left}" if absorbed else left


class HealResult(NamedTuple):
    """How much HP a heal actually restored (RULES.md §5, last line)."""

    healed: int
    text: str


def heal(c: Combatant, amount: int) -> tuple[Combatant, HealResult]:
    """Raise HP by *amount*, up to the maximum; temp HP untouched (RULES.md §5).
    A down combatant healed above 0 is back up (§4), said in the same line
    as damage says it is down."""
    amount = _amount(amount, "healing")
    healed = max(0, min(amount, c.max_hp - c.hp))
    new = replace(c, hp=c.hp + healed)
    if healed == 0:
        text = f"{c.name} is already at full HP ({c.hp}/{c.max_hp})"
    else:
        text = f"{c.name} heals {healed} ({new.hp}/{c.max_hp} HP)"
    return new, HealResult(healed, text + down_or_up(c, new))


def down_or_up(before: Combatant, after: Combatant) -> str:
    """``; Mira is down`` when *after* went to 0 HP, ``; Mira is back up``
    when it came up from 0 (RULES.md §4), else nothing: the words damage,
    healing and the GM's ``set … hp`` add to their own line, so the table
    hears it the same way whatever brought it about."""
    if after.down and not before.down:
        return f"; {before.name} is down"
    if before.down and not after.down:
        return f"; {before.name} is back up"
    return ""


def grant_temp_hp(
    c: Combatant,
    amount: int,
    ruleset: Ruleset,
    duration: Duration | None = None,
    *,
    ends_round: int | None = None,
) -> tuple[Combatant, str]:
    """Grant temporary HP per option ``temp_hp`` (RULES.md §6):
    ``keep-higher`` replaces pool and duration only when larger; ``add`` adds
    up, a given duration replacing the pool's.  *ends_round* goes in the text."""
    amount = _amount(amount, "temporary HP")
    if ruleset["temp_hp"] == "add":
        total = c.temp_hp + amount
        dur = duration if duration is not None else c.temp_hp_duration
        new = replace(c, temp_hp=total, temp_hp_duration=dur if total > 0 else None)
        return (
            new,
            f"{c.name} gains {amount} temp HP ({total} temp)"
            f"{describe_duration(new.temp_hp_duration, ends_round if duration else None)}",
        )
    if amount > c.temp_hp:
        new = replace(c, temp_hp=amount, temp_hp_duration=duration)
        was = f", replacing {c.temp_hp}" if c.temp_hp else ""
        return new, (
            f"{c.name} gains {amount} temp HP{was}{describe_duration(duration, ends_round)}"
        )
    return c, (
        f"{c.name} keeps {c.temp_hp} temp HP (the new {amount} is not higher; "
        "temp HP from two sources do not add)"
    )


def set_temp_hp(
    c: Combatant, amount: int, duration: Duration | None = None
) -> tuple[Combatant, str]:
    """The GM sets temp HP directly, whatever the option says (RULES.md §6)."""
    amount = _amount(amount, "temporary HP")
    new = replace(c, temp_hp=amount, temp_hp_duration=duration if amount > 0 else None)
    if amount == 0:
        return new, f"{c.name} has no temp HP"
    return new, f"{c.name} has {amount} temp HP{describe_duration(new.temp_hp_duration)}"


def apply_damage_parts(
    c: Combatant, parts: Sequence[tuple[int, Iterable[str]]], ruleset: Ruleset
) -> tuple[Combatant, DamageResult]:
    """Apply one hit of several typed parts to *c*: each part through *c*'s
    defenses by its own tags (RULES.md §5 steps 2–4), the sum then through
    temp HP and HP (step 5, §6) as one instance; the text shows every
    part's steps (``Ogre takes [9 slashing → resist ½ = 4] + 6 fire = 10
    (10 HP lost, 40/50 left)``).  One part is :func:`apply_damage`."""
    if len(parts) == 1:
        return apply_damage(c, parts[0][0], parts[0][1], ruleset)
    shown: list[str] = []
    all_steps: list[DamageStep] = []
    all_tags: dict[str, None] = {}  # each once, in order
    total = rolled = 0
    for amount, part_tags in parts:
        amount = _amount(amount, "damage")
        tags = normalize_tags(part_tags)
        steps, value = defend(c.defenses, amount, tags, ruleset)
        text = " → ".join([f"{amount}{_kind(tags)}", *(f"{s.label} = {s.value}" for s in steps)])
        shown.append(f"[{text}]" if steps else text)
        all_steps += steps
        all_tags.update(dict.fromkeys(tags))
        total += value
        rolled += amount
    bare = replace(c, defenses=Defenses())
    new, res = apply_damage(bare, total, (), ruleset)
    head = f"{c.name} takes {total}"
    tail = res.text[len(head) :] if res.text.startswith(head) else f": {res.text}"
    text = f"{c.name} takes {' + '.join(shown)} = {total}{tail}"
    result = res._replace(amount=rolled, tags=tuple(all_tags), steps=tuple(all_steps), text=text)
    return replace(new, defenses=c.defenses), result


#: common damage tags of tabletop games, for completion and the did-you-mean of
#: an unknown tag only: a tag is any word, and these carry no rule.
COMMON_TAGS: tuple[str, ...] = (
    "acid", "bleed", "bludgeoning", "cold", "fire", "force", "lightning", "magical", "necrotic",
    "physical", "piercing", "poison", "psychic", "radiant", "slashing", "supernatural", "thunder",
)  # fmt: skip


def defense_tags(combatants: Iterable[Combatant]) -> set[str]:
    """Every tag any of *combatants* is immune, resistant, weak or
    susceptible to."""
    tags: set[str] = set()
    for c in combatants:
        d = c.defenses
        tags |= {*d.immunities, *d.resistances, *d.weaknesses, *d.susceptibilities}
    return tags


#: the defenses of §5 in the order its steps apply them, each by the word
#: :func:`defense_naming` answers
DEFENSE_KINDS: tuple[str, ...] = ("immune", "weak", "susceptible", "resist")


def defense_naming(c: Combatant, tag: str) -> str | None:
    """Which of *c*'s defenses names *tag* itself (``all`` aside), the first
    in §5's order of steps (:data:`DEFENSE_KINDS`); None when none does."""
    d = c.defenses
    named = (d.immunities, d.weaknesses, d.susceptibilities, d.resistances)
    return next(
        (kind for kind, tags in zip(DEFENSE_KINDS, named, strict=True) if tag in tags), None
    )


def unknown_tag_warnings(tags: Iterable[str], combatants: Iterable[Combatant]) -> list[str]:
    """A warning per tag that no combatant here defends against and that is
    not a common tag (RULES.md §5: a tag only matters through defenses),
    with a did-you-mean from the fight's and the common tags.  One close
    to a tag a target defends against is refused before this
    (``rules.engine.damage_parts.judge_tags``)."""
    known = defense_tags(combatants) - {"all"}
    out = []
    for tag in normalize_tags(tags):
        if tag in known or tag in COMMON_TAGS:
            continue
        close = closest(tag, sorted(known | set(COMMON_TAGS)))
        hint = f"; did you mean {close}?" if close else ""
        out.append(f"no combatant here resists or is weak to {tag!r}{hint}")
    return out
