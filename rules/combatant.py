"""A combatant: one creature in the fight (RULES.md §4–§11 state)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from rules.bonuses import Bonus
from rules.conditions import Condition
from rules.damage import Defenses
from rules.durations import Duration
from rules.endurance import Endurance
from rules.persistent import PersistentDamage
from rules.view_settings import VISIBLE, visibility_of

T = TypeVar("T")


@dataclass(frozen=True)
class Combatant:
    """Everything the tracker knows about one combatant.  ``abilities`` maps
    ability keys to scores; ``init_bonus`` is a flat initiative modifier on
    top of the ability modifiers (RULES.md §4); ``initiative`` is None before
    combat starts; ``order_key`` is the GM's manual tie-break (lower first);
    ``group`` names the group it shares one initiative and slot with (§4);
    ``visibility`` is how the players' view shows it (a player: always
    visible)."""

    name: str
    max_hp: int
    hp: int
    al: int = 10
    temp_hp: int = 0
    temp_hp_duration: Duration | None = None
    initiative: int | None = None
    init_bonus: int = 0
    abilities: Mapping[str, int] = field(default_factory=dict)
    athletics: int | None = None
    player: bool = False
    defenses: Defenses = field(default_factory=Defenses)
    conditions: tuple[Condition, ...] = ()
    persistent: tuple[PersistentDamage, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    endurance: Endurance | None = None
    luck_points: int | None = None
    notes: str = ""
    order_key: int = 0
    group: str | None = None
    visibility: str = VISIBLE

    @property
    def down(self) -> bool:
        """At 0 HP: shown as down and keeps its place; a non-player's turns
        are then skipped unless the ruleset says keep (RULES.md §4)."""
        return self.hp <= 0

    @property
    def bloodied(self) -> bool:
        """At half its maximum HP or below (5 of 10 is bloodied, 6 of 11 is
        not), and not down (RULES.md §4): the tracker's ruling, README
        "Decisions" (Bloodied) and docs/rules.md, "The players' view"."""
        return not self.down and self.max_hp > 0 and self.hp * 2 <= self.max_hp

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out.update(
            temp_hp_duration=_optional(self.temp_hp_duration, Duration.to_dict),
            abilities=dict(self.abilities),
            defenses=self.defenses.to_dict(),
            conditions=[c.to_dict() for c in self.conditions],
            persistent=[p.to_dict() for p in self.persistent],
            bonuses=[b.to_dict() for b in self.bonuses],
            endurance=_optional(self.endurance, Endurance.to_dict),
        )
        if self.visibility == VISIBLE:
            # saves and journals from before visibilities existed stay exactly what this writes
            del out["visibility"]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        player = bool(data.get("player", False))
        return cls(
            name=str(data["name"]),
            max_hp=int(data["max_hp"]),
            hp=int(data["hp"]),
            al=int(data.get("al", 10)),
            temp_hp=int(data.get("temp_hp", 0)),
            temp_hp_duration=Duration.from_dict(data.get("temp_hp_duration")),
            initiative=_optional(data.get("initiative"), int),
            init_bonus=int(data.get("init_bonus", 0)),
            abilities={str(k).lower(): int(v) for k, v in dict(data.get("abilities", {})).items()},
            athletics=_optional(data.get("athletics"), int),
            player=player,
            defenses=Defenses.from_dict(data.get("defenses")),
            conditions=tuple(Condition.from_dict(c) for c in data.get("conditions", ())),
            persistent=tuple(PersistentDamage.from_dict(p) for p in data.get("persistent", ())),
            bonuses=tuple(Bonus.from_dict(b) for b in data.get("bonuses", ())),
            endurance=Endurance.from_dict(data.get("endurance")),
            luck_points=_optional(data.get("luck_points"), int),
            notes=str(data.get("notes", "")),
            order_key=int(data.get("order_key", 0)),
            group=_optional(data.get("group"), str),
            visibility=VISIBLE if player else visibility_of(data.get("visibility")),
        )


def _optional(value: Any, kind: Callable[[Any], T]) -> T | None:
    return None if value is None else kind(value)
