"""The fight the saves benchmarks share (bench_live, bench_resume) and how
they spread samples (bench_live, bench_saves): no imports of the project, so
a benchmark can use it in a process that runs another checkout."""

from __future__ import annotations

import random
from collections.abc import Iterator

#: A 10-combatant fight: 8 goblins, an ogre and a player character.
SETUP = (
    "add Goblin count 8 hp 2d6+2 al 13",
    "add Ogre hp 60 al 11 resist fire=5",
    "add Zalek hp 38 al 15 con 17 athletics 4 dex 12 player",
    "start",
)

#: One cycle of a turn's worth of GM actions ({g}, {h}: goblins 1-8).
CYCLE = (
    'damage "Goblin {g}" 2d6+3 fire',
    "damage Ogre 1d8+2 slashing",
    'cond "Goblin {h}" frightened rounds 2',
    "heal Ogre 1d8",  # after a hit: a heal at full HP is refused
    'heal "Goblin {g}" 1d8',
    "next",
)


def action_lines(seed: int) -> Iterator[str]:
    """The endless, seeded stream of action lines every variant applies."""
    rng = random.Random(seed)
    while True:
        g, h = rng.randint(1, 8), rng.randint(1, 8)
        for template in CYCLE:
            yield template.format(g=g, h=h)


def spread(samples: int, rounds: int) -> set[int]:
    """*samples* round numbers evenly spread over ``1..rounds``."""
    samples = min(samples, rounds)
    return {1 + (i * rounds) // samples for i in range(samples)}
