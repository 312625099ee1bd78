"""The encounter: combatants in initiative order, round, whose turn, and the
event log entries (state only; changes happen in ``rules.engine``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.combatant import Combatant
from rules.rulesets import Ruleset
from rules.view_settings import ViewSettings


class LogEntry(NamedTuple):
    """One line of the fight's log: the action's sequence number, the round,
    who acted (or was acted on) and the text, dice breakdowns included.
    ``kept``: where in the text a breakdown marks a kept die, recorded when
    the shape of a breakdown would not find exactly those (typed text that
    looks like one); None: where that shape finds them (``rules.kept_marks``)."""

    seq: int
    round: int
    actor: str
    text: str
    kept: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"seq": self.seq, "round": self.round, "actor": self.actor, "text": self.text}
        if self.kept is not None:
            out["kept"] = list(self.kept)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogEntry:
        kept = data.get("kept")
        return cls(
            int(data["seq"]),
            int(data["round"]),
            str(data["actor"]),
            str(data["text"]),
            None if kept is None else tuple(_place(at) for at in kept),
        )


def _place(at: Any) -> int:
    """A place in a log entry's text, as a saved entry gives it."""
    if isinstance(at, bool) or not isinstance(at, int):
        raise ValueError(f"a kept die's place is a whole number, not {type(at).__name__}")
    return at


@dataclass(frozen=True)
class Encounter:
    """An encounter's state, without its log and history.  ``combatants`` is
    in initiative order (delayed ones stay, named in ``delayed``); ``turn``
    indexes the active one (None and round 0 before ``start``).  ``rewound``
    counts the turns ``prev`` moved back without undoing: the next that many
    turn boundaries were already processed (``rules.engine.turns``).
    ``view`` is what the players' view shows (``rules.players_view``)."""

    name: str
    ruleset: Ruleset = field(default_factory=Ruleset)
    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    turn: int | None = None
    started: bool = False
    delayed: tuple[str, ...] = ()
    rewound: int = 0
    view: ViewSettings = field(default_factory=ViewSettings)

    @property
    def active(self) -> Combatant | None:
        if self.turn is None or not (0 <= self.turn < len(self.combatants)):
            return None
        return self.combatants[self.turn]

    def to_dict(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "ruleset": self.ruleset.to_dict(),
            "combatants": [c.to_dict() for c in self.combatants],
            "round": self.round,
            "turn": self.turn,
            "started": self.started,
            "delayed": list(self.delayed),
        }
        if self.rewound:
            out["rewound"] = self.rewound
        if self.view != ViewSettings():
            out["view"] = self.view.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Encounter:
        turn = data.get("turn")
        return cls(
            name=str(data["name"]),
            ruleset=Ruleset.from_dict(data.get("ruleset", {})),
            combatants=tuple(Combatant.from_dict(c) for c in data.get("combatants", ())),
            round=int(data.get("round", 0)),
            turn=None if turn is None else int(turn),
            started=bool(data.get("started", False)),
            delayed=tuple(str(n) for n in data.get("delayed", ())),
            rewound=int(data.get("rewound", 0)),
            view=ViewSettings.from_dict(data.get("view")),
        )
