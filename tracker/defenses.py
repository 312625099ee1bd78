"""A combatant's defenses (RULES.md §5) worded as the ruleset applies them:
``resist fire=3`` reads ``fire (halved)`` under ``resistance = halve``,
``fire −3`` under ``subtract``."""

from __future__ import annotations

from rules.damage import Defenses
from rules.rulesets import Ruleset


def resistance_text(tag: str, value: int, ruleset: Ruleset) -> str:
    if ruleset["resistance"] == "subtract":
        return f"{tag} −{value}"
    return f"{tag} (halved)"


def defense_parts(d: Defenses, ruleset: Ruleset) -> list[str]:
    """``immune …``, ``resist …``, ``weak ×2 …``, ``susceptible ×1.5 …``,
    each kind present once, tags sorted."""
    resists = [resistance_text(k, v, ruleset) for k, v in sorted(d.resistances.items())]
    kinds = [
        ("immune", sorted(d.immunities)),
        ("resist", resists),
        ("weak ×2", sorted(d.weaknesses)),
        ("susceptible ×1.5", sorted(d.susceptibilities)),
    ]
    return [f"{word} {', '.join(tags)}" for word, tags in kinds if tags]


def defenses_text(d: Defenses, ruleset: Ruleset) -> str:
    """Every defense on one line, ``; ``-separated ('' when none)."""
    return "; ".join(defense_parts(d, ruleset))
