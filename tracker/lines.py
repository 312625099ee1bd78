"""How keys, prompts and forms become lines of the action language (``d``
on Goblin 2 with ``2d6+3 fire`` sends ``damage 'Goblin 2' 2d6+3 fire``): the
app does no rules arithmetic.  Every name is quoted, so spaces, quotes or
``;`` in one never make a second action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rules.combatant import Combatant
from rules.text import visible

#: Add form: (key, label, placeholder); the key is the action word.  A
#: placeholder fits a field of the form at 80 columns: 20 characters at most.
ADD_FIELDS = (
    ("name", "Name", "Goblin"),
    ("count", "Count", "1"),
    ("hp", "HP", "number or 2d6+2"),
    ("al", "AL", "10"),
    ("init", "Initiative", "total, blank: rolled"),
    ("bonus", "Init bonus", "flat modifier"),
    ("dex", "DEX", "score"),
    ("per", "PER", "score"),
    ("str", "STR", "score"),
    ("con", "CON", "score (endurance)"),
    ("int", "INT", "score"),
    ("wis", "WIS", "score"),
    ("cha", "CHA", "score"),
    ("luck", "LUCK", "score"),
    ("athletics", "Athletics", "bonus (endurance)"),
    ("immune", "Immune", "e.g. poison,fire"),
    ("resist", "Resist", "e.g. fire=5,cold=3"),
    ("weak", "Weak ×2", "tags"),
    ("susceptible", "Susc ×1.5", "susceptible to: tags"),
    ("notes", "Notes", "free text"),
    ("group", "Group", "e.g. Zombies (1 row)"),
)

#: Add-form fields of one word: spaces typed in them are dropped (``fire, cold``)
_ONE_WORD = frozenset(key for key, _, _ in ADD_FIELDS) - {"name", "notes", "group"}

#: Edit form: (set FIELD, label), in the form's order (name first).
EDIT_FIELDS = (
    ("name", "Name"),
    ("al", "AL"),
    ("hp", "HP"),
    ("max_hp", "Max HP"),
    ("temp", "Temp HP"),
    ("initiative", "Initiative"),
    ("init_bonus", "Init bonus"),
    ("dex", "DEX"),
    ("per", "PER"),
    ("str", "STR"),
    ("con", "CON"),
    ("int", "INT"),
    ("wis", "WIS"),
    ("cha", "CHA"),
    ("luck", "LUCK"),
    ("athletics", "Athletics"),
    ("immunities", "Immune"),
    ("resistances", "Resist"),
    ("weaknesses", "Weak ×2"),
    ("susceptibilities", "Susc ×1.5"),
    ("notes", "Notes"),
)

#: The eight ability scores, in the forms' order.
ABILITY_FIELDS = ("dex", "per", "str", "con", "int", "wis", "cha", "luck")
#: The defenses, as ``set`` names them.
DEFENSE_FIELDS = ("immunities", "resistances", "weaknesses", "susceptibilities")

#: Fields an empty entry clears (``set T dex none``); the others keep their value.
CLEARABLE = {*ABILITY_FIELDS, *DEFENSE_FIELDS, "initiative", "athletics", "notes"}

#: The order the ``set`` parts are sent in: max_hp before hp (hp is checked
#: against the new maximum), the rename last (the others use the old name).
SEND_ORDER = (
    "max_hp",
    "hp",
    "temp",
    "al",
    "initiative",
    "init_bonus",
    *ABILITY_FIELDS,
    "athletics",
    *DEFENSE_FIELDS,
    "notes",
    "player",
    "name",
)


#: Keys that prompt for the rest of an action on the targets (the marked
#: combatants, else the selection): action → (verb, prompt title, usage).
ON_TARGETS = {
    "damage": ("damage", "Damage", "AMOUNT|DICE [TAG…] [crit]"),
    "heal": ("heal", "Heal", "AMOUNT|DICE"),
    "temp": ("temp", "Temporary HP", "AMOUNT [rounds N] [at start|end] [of C]"),
    "persistent": ("persist", "Persistent damage", "DICE [TAG…] [dc N] [of C]"),
    "condition": ("cond", "Condition", "NAME [VALUE] [rounds N] [at start|end] [of C]"),
    "attack": (
        "attack",
        "Attack",
        "[with +N] [adv N] [dis N] [cover half|three-quarters|total] [roll N] [damage DICE [TAG…]]",
    ),
}

#: Keys that send ``VERB T`` on whom they act on (``delay``: the active one;
#: the players' view keys: the marked combatants, else the selection).
ON_NAMES = ("delay", "return", "hide", "mask", "reveal")

#: The players' view keys: what each makes of its targets.
VISIBILITY_KEYS = {"hide": "hidden", "mask": "masked", "reveal": "visible"}

#: Keys that send one fixed line.
FIXED = {
    "start": "start",
    "next_turn": "next",
    "previous_turn": "prev",
    "end_combat": "end",
    "remove_defeated": "remove defeated",
}


@dataclass(frozen=True)
class Ask:
    """What a key asks the GM for, and how the answer becomes its line."""

    title: str
    usage: str
    #: the answer (the prompt's text, or the choice) → the action line
    line: Callable[[str], str]
    #: the line goes to the marked combatants (``keep_marks``: do they clear after)
    uses_marks: bool = False
    #: pick one of these instead of typing (``tracker.endings``: ``C``, ``X``)
    choices: tuple[str, ...] = ()
    #: an empty answer is an answer (``attack`` with no options)
    blank: bool = False
    #: whom the line acts on, in the order of play
    names: tuple[str, ...] = ()
    #: the answer and a save per target (:data:`SAVES`) → the line (damage)
    saves: Callable[[str, Mapping[str, str]], str] | None = None
    #: the start of the line the answer ends (:func:`line_head`): Tab
    #: completes the answer as the tail of that line ('': nothing to complete)
    head: str = ""


def _quote(word: str) -> str:
    """*word* as one word of the line (imported once a line is sent, not at start)."""
    from rules.engine.shell import quote_word

    return quote_word(word)


def targets(names: Sequence[str]) -> str:
    """One argument naming every target: ``'Goblin 1,Goblin 3'``."""
    return _quote(",".join(names))


def on_targets(verb: str, names: Sequence[str], rest: str) -> str:
    """``VERB TARGETS REST`` (``damage 'Goblin 2' 2d6+3 fire``)."""
    return f"{verb} {targets(names)} {rest}".rstrip()


#: What a target of area damage did with its save: takes it all, half
#: (rounded down, through its own defenses) or nothing.
SAVES = ("full", "half", "none")


def saves_line(names: Sequence[str], rest: str, saves: Mapping[str, str]) -> str:
    """``damage 'Zombie 1,Ogre' 8d6 fire half Ogre``: one roll (default save: full)."""
    line = on_targets("damage", names, rest)
    for save in SAVES[1:]:
        who = [n for n in names if saves.get(n) == save]
        if who:
            line += f" {save} {targets(who)}"
    return line


def with_value(text: str) -> str:
    """``poisoned 2 rounds 3`` → ``poisoned value 2 rounds 3`` (the condition prompt)."""
    words = text.split()
    if len(words) >= 2 and words[1].lstrip("-").isdigit():
        words.insert(1, "value")
    return " ".join(words)


def ending_line(verb: str, ends: Sequence[tuple[Sequence[str], str]]) -> str:
    """``VERB T WORD`` for each (names, word) of *ends*, one undoable batch
    (``uncond 'Goblin 1,Ogre' prone``: ``tracker.endings``)."""
    return "; ".join(f"{verb} {targets(names)} {_quote(word)}" for names, word in ends)


def line_head(action: str, names: Sequence[str]) -> str | None:
    """The start of prompt key *action*'s line on *names*, which the
    prompt's text ends: ``damage 'Goblin 2' `` (None: not a prompt's line,
    or nobody to act on)."""
    if action == "roll":
        return "roll "
    if not names:
        return None
    if action in ON_TARGETS:
        return on_targets(ON_TARGETS[action][0], names, "") + " "
    if action == "initiative":
        return f"init {targets(names)} "
    return None


def key_line(action: str, text: str, names: Sequence[str]) -> str | None:
    """Key *action*'s line on *names* with its prompt's *text* (None: nobody, or no key)."""
    if action in FIXED:
        return FIXED[action]
    head = line_head(action, names)
    if head is not None:
        return (head + (with_value(text) if action == "condition" else text)).rstrip()
    if not names:
        return None
    if action in ("order_down", "order_up"):
        return f"order {targets(names)} {action.removeprefix('order_')}"
    if action == "remove":
        return f"remove {targets(names)}"
    if action in ON_NAMES:
        return f"{action} {targets(names)}"
    return None


#: The cells a dialog's title has on one line (``.dialog``: 72 wide, less
#: its border and padding); a longer title would wrap.
TITLE_ROOM = 66


def targets_title(title: str, names: Sequence[str], note: str = "") -> str:
    """``Condition: Goblin 1, Goblin 3`` (*note* after the names, in
    brackets), on one line: with more targets than fit, how many, then the
    names that fit and ``…`` (the pane marks each one).  A title listing
    every one of a horde's names would push the prompt's field and keys off
    a small screen."""
    from rich.cells import cell_len

    after = f" ({note})" if note else ""
    whole = f"{title}: {', '.join(names)}{after}"
    if len(names) < 2 or cell_len(whole) <= TITLE_ROOM:
        return whole
    shown = f"{title} → {len(names)} targets:"
    room = TITLE_ROOM - cell_len(after)
    for name in names:
        if cell_len(shown) + cell_len(name) + 4 > room:  # " name, …"
            return shown + " …" + after
        shown += f" {name},"
    return shown.rstrip(",") + after


def ask_for(
    action: str,
    names: Sequence[str],
    line: Callable[[str], str],
    group: Sequence[Combatant] = (),
    uses_marks: bool = False,
    pick: tuple[str, Sequence[str]] | None = None,
    attacker: str = "",
    left_out: bool = False,
) -> Ask | None:
    """What prompt key *action* asks for on *names*, *line* making the answer
    its line.  *group*: the collapsed group under the cursor, named instead of
    its members; *pick*: a key that picks instead (``tracker.endings``): its
    title and its choices; *attacker*: who attacks (``A``), named in the
    title, *left_out* of the targets it was among.  None: not a prompt
    key, or nothing to pick."""
    who = ", ".join(names)
    head = line_head(action, names) or ""
    not_self = f"not {attacker}" if left_out else ""
    grouped = bool(group) and not uses_marks and action != "initiative"
    if grouped:
        # not thirty names: the group, and whom the key reaches in it
        up = "standing" if any(not c.down for c in group) else "down, every one"
        if not_self:
            up += f", {not_self}"
        who = f"group {group[0].group} ({len(names)} {up})"

    def titled(title: str) -> str:
        return f"{title}: {who}" if grouped else targets_title(title, names, not_self)

    if action in ON_TARGETS:
        _, title, usage = ON_TARGETS[action]
        title = f"{attacker} attacks" if attacker else title
        saves = None
        if action == "damage":

            def saves(text: str, chosen: Mapping[str, str]) -> str:
                return saves_line(names, text, chosen)

        return Ask(
            titled(title),
            usage,
            line,
            uses_marks,
            blank=action == "attack",
            names=tuple(names),
            saves=saves,
            head=head,
        )
    if pick is not None:
        title, choices = pick
        if not choices:
            return None
        return Ask(titled(title), "", line, uses_marks, tuple(choices))
    if action == "initiative":
        if group:  # a member's initiative is the whole group's (§4)
            who = f"group {group[0].group} ({len(group)})"
        return Ask(f"Initiative: {who}", "N (the rolled total)", line, head=head)
    if action == "roll":
        return Ask("Roll dice", "EXPR [adv N] [dis N] [dc N]", line, head=head)
    return None


def add_line(values: Mapping[str, str], checks: Mapping[str, bool]) -> str:
    """The ``add`` line for the add form; ValueError names a missing name."""
    name = values.get("name", "").strip()
    if not name:
        raise ValueError("a name is needed (e.g. Goblin; count 4 makes Goblin 1–4)")
    words = ["add", _quote(name)]
    for key, _, _ in ADD_FIELDS[1:]:
        value = values.get(key, "").strip()
        if value:
            words += [key, _quote(value.replace(" ", "") if key in _ONE_WORD else value)]
    if checks.get("avg"):
        words.append("avg")
    if checks.get("player"):
        words.append("player")
    return " ".join(words)


def edit_values(c: Combatant) -> dict[str, str]:
    """The edit form's starting values for *c*."""

    def score(name: str) -> str:
        value = c.abilities.get(name)
        return "" if value is None else str(value)

    d = c.defenses
    return {
        "name": c.name,
        "al": str(c.al),
        "hp": str(c.hp),
        "max_hp": str(c.max_hp),
        "temp": str(c.temp_hp),
        "initiative": "" if c.initiative is None else str(c.initiative),
        "init_bonus": str(c.init_bonus),
        **{name: score(name) for name in ABILITY_FIELDS},
        "athletics": "" if c.athletics is None else str(c.athletics),
        "immunities": ",".join(sorted(d.immunities)),
        "resistances": ",".join(f"{k}={v}" for k, v in sorted(d.resistances.items())),
        "weaknesses": ",".join(sorted(d.weaknesses)),
        "susceptibilities": ",".join(sorted(d.susceptibilities)),
        "notes": c.notes,
    }


def edit_lines(c: Combatant, values: Mapping[str, str], player: bool | None = None) -> list[str]:
    """One ``set`` line per changed field, in :data:`SEND_ORDER`; an empty
    :data:`CLEARABLE` field clears it.  *player*: the check box, or None."""
    before = edit_values(c)
    name = _quote(c.name)
    changed: dict[str, str] = {}
    for key, _ in EDIT_FIELDS:
        if key not in values:  # not in the form: left as it is
            continue
        value = values[key].strip()
        # a name holding control characters shows made visible: left so, unchanged
        if value in (before[key], visible(before[key])) or (not value and key not in CLEARABLE):
            continue
        if not value and key != "notes":
            value = "none"
        changed[key] = value
    if player is not None and player != c.player:
        changed["player"] = "true" if player else "false"
    return [f"set {name} {key} {_quote(changed[key])}" for key in SEND_ORDER if key in changed]


def edit_line(c: Combatant, values: Mapping[str, str], player: bool | None = None) -> str:
    """Every change of the edit form as one undoable batch ('' for none)."""
    return "; ".join(edit_lines(c, values, player))


def move_line(name: str, movement: str, face: int | None, spend: bool) -> str:
    """``move T dash|run|sprint [roll N] [nospend]`` (RULES.md §8)."""
    line = f"move {_quote(name)} {movement}"
    if face is not None:
        line += f" roll {face}"
    if not spend:
        line += " nospend"
    return line


def initiative_line(totals: Sequence[tuple[str, int | None]]) -> str:
    """``init 'Mira' 17; start``: each typed total (None: ``start`` rolls it), one step."""
    parts = [f"init {targets([name])} {total}" for name, total in totals if total is not None]
    return "; ".join([*parts, "start"])
