"""Persistent damage entries (RULES.md §7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.abilities import check_face
from rules.text import possessive, shorten

if TYPE_CHECKING:
    from rules.combatant import Combatant
    from rules.damage import DamageResult
    from rules.rulesets import Ruleset


@dataclass(frozen=True)
class PersistentDamage:
    """Damage that repeats at the end of the affected combatant's turn until a
    flat check against *dc* ends it (RULES.md §7)."""

    dice: str
    tags: tuple[str, ...] = ()
    dc: int = 20
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.dice, "tags": list(self.tags), "dc": self.dc, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PersistentDamage:
        return cls(
            str(data["dice"]),
            tuple(str(t) for t in data.get("tags", ())),
            int(data.get("dc", 20)),
            str(data.get("source", "")),
        )


def _tagset(entry: PersistentDamage) -> frozenset[str]:
    """The entry's tags, lower-cased; an untagged entry counts as ``untyped``."""
    tags = frozenset(t.strip().lower() for t in entry.tags if t.strip())
    return tags or frozenset({"untyped"})


def describe(entry: PersistentDamage) -> str:
    """``1d6 bleed (DC 20, from Ogre)`` for log lines (RULES.md §7)."""
    tags = " ".join(sorted(_tagset(entry)))
    source = f", from {entry.source}" if entry.source else ""
    return f"{entry.dice} {tags} (DC {entry.dc}{source})"


def persistent_entry(
    dice: str, tags: str | Iterable[str], ruleset: Ruleset, dc: int | None = None, source: str = ""
) -> PersistentDamage:
    """Build an entry whose flat DC defaults to the ruleset's
    ``persistent_dc`` (RULES.md §7).  The dice expression is validated."""
    from rules.damage import normalize_tags
    from rules.dice import average

    average(dice)  # raises DiceError (a ValueError) pointing at the problem
    if dc is None:
        dc = int(ruleset["persistent_dc"])
    if isinstance(dc, bool) or not isinstance(dc, int) or dc < 1:
        raise ValueError(f"a flat DC is a whole number of at least 1, not {dc!r}")
    return PersistentDamage(dice.strip(), normalize_tags(tags), dc, source)


def add_persistent(c: Combatant, entry: PersistentDamage) -> tuple[Combatant, str]:
    """Add persistent damage to *c*, one entry per damage tag (RULES.md §7):
    the new entry replaces every entry sharing a tag only when its average
    is higher than each of theirs.  A bad expression raises ``DiceError``."""
    from rules.dice import average

    new_avg = average(entry.dice)
    tags = _tagset(entry)
    clashing = [p for p in c.persistent if _tagset(p) & tags]
    if not clashing:
        return replace(c, persistent=(*c.persistent, entry)), (
            f"{c.name} takes persistent {describe(entry)}"
        )
    old_avgs = {id(p): average(p.dice) for p in clashing}
    best = max(clashing, key=lambda p: old_avgs[id(p)])
    if new_avg > old_avgs[id(best)]:
        kept = tuple(p for p in c.persistent if p not in clashing)
        olds = ", ".join(f"{p.dice} (avg {old_avgs[id(p)]:g})" for p in clashing)
        return replace(c, persistent=(*kept, entry)), (
            f"{c.name}: persistent {describe(entry)} (avg {new_avg:g}) replaces {olds}"
        )
    return c, (
        f"{c.name} keeps persistent {describe(best)}: the new {entry.dice} "
        f"(avg {new_avg:g}) is not higher than {best.dice} (avg {old_avgs[id(best)]:g})"
    )


def remove_persistent(c: Combatant, tag: str) -> tuple[Combatant, str]:
    """The GM ends the persistent damage tagged *tag* (any case), e.g. someone
    stopped the bleeding (RULES.md §7).  Raises ``ValueError`` if absent."""
    key = tag.strip().lower()
    kept = tuple(p for p in c.persistent if key not in _tagset(p))
    if len(kept) == len(c.persistent):
        have = ", ".join(" ".join(sorted(_tagset(p))) for p in c.persistent) or "none"
        raise ValueError(
            f"{c.name} has no persistent {shorten(tag.strip())} damage (has: {shorten(have, 200)})"
        )
    gone = [p for p in c.persistent if p not in kept]
    ended = "; ".join(describe(p) for p in gone)
    return replace(c, persistent=kept), f"{possessive(c.name)} persistent {ended} ends"


def ending_tag(entry: PersistentDamage) -> str:
    """The tag :func:`remove_persistent` takes to end *entry* (RULES.md §7:
    the GM ends an entry at any time).  A combatant's entries share no tag
    (one entry per damage tag), so this tag ends that entry and no other."""
    return min(_tagset(entry))


class PersistentTick(NamedTuple):
    """One end-of-turn tick: the damage applied, the flat check's *face*
    against *dc*, and whether the entry *ended* (RULES.md §7)."""

    damage: DamageResult
    face: int
    dc: int
    ended: bool
    text: str


def tick_persistent(
    c: Combatant, entry: PersistentDamage, damage_total: int, flat_face: int, ruleset: Ruleset
) -> tuple[Combatant, PersistentTick]:
    """End-of-turn persistent damage (RULES.md §7): *damage_total*, rolled by
    the caller, goes through ``apply_damage`` with the entry's tags; then
    ``flat_face >= dc`` ends the entry (no natural 20 / 1 rule, §3)."""
    from rules.damage import apply_damage

    if entry not in c.persistent:
        raise ValueError(f"{c.name} has no persistent {describe(entry)}")
    check_face(flat_face, "a flat check face")
    new, dmg = apply_damage(c, damage_total, entry.tags, ruleset)
    ended = flat_face >= entry.dc
    if ended:
        idx = new.persistent.index(entry)
        new = replace(new, persistent=new.persistent[:idx] + new.persistent[idx + 1 :])
    verdict = "ends" if ended else "continues"
    text = (
        f"Persistent {describe(entry)}: {dmg.text}; "
        f"flat check {flat_face} vs DC {entry.dc}: {verdict}"
    )
    return new, PersistentTick(dmg, flat_face, entry.dc, ended, text)
