"""Luck points (RULES.md §11, source 003 "Lucky")."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.abilities import modifier

if TYPE_CHECKING:
    from rules.combatant import Combatant


def luck_points(score: int | None) -> int | None:
    """Maximum luck points = the LUCK modifier; ``None`` (no luck points at
    all) when the modifier is 0 or less, or there is no LUCK score (§11)."""
    if score is None:
        return None
    mod = modifier(score)
    return mod if mod > 0 else None


def spend_luck(c: Combatant) -> tuple[Combatant, str]:
    """Spend one luck point for one more d20, rolled by the caller
    (RULES.md §11); ``ValueError`` when *c* has no luck points or none left."""
    if c.luck_points is None:
        raise ValueError(f"{c.name} has no luck points (LUCK modifier is not positive)")
    if c.luck_points <= 0:
        raise ValueError(f"{c.name} has no luck points left (they return on a long rest)")
    left = c.luck_points - 1
    return (
        replace(c, luck_points=left),
        f"{c.name} spends a luck point ({left} left): roll one more d20 and choose which to use",
    )
