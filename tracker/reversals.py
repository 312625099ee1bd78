"""What an undo or redo reversed, in a few words for the GM (``Undone:
Ogre takes 7 fire``): held down, ``ctrl+z`` otherwise says only that log
lines vanish.  Plain text, each control character spelled out, one line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.kept_marks import unmarked
from rules.text import shorten

if TYPE_CHECKING:
    from rules.encounter import LogEntry
    from rules.engine.step import Step

#: the verbs that pass the turn: a step of one is named by the turn it gave
#: (``next (Mira's turn)``), its first line being a tick or a roll
TURN_VERBS = ("start", "next")
#: the actors of lines about no one combatant (a roll, the round)
NOBODY = ("", "GM")
#: about as long as a notice gets (the log pane's border cuts it to its width)
LIMIT = 100


def entry_line(entry: LogEntry) -> str:
    """*entry* as the log pane words it, without its round or the kept
    dice's marks (``Ogre takes 7 fire``, ``Mira: …``); not yet made visible."""
    body = unmarked(entry.text, entry.kept)
    if entry.actor in NOBODY or body.startswith(entry.actor):
        return body
    return f"{entry.actor}: {body}"


def step_summary(step: Step) -> str:
    """What *step* did, in words from its log: the first line about a
    combatant (``Ogre takes 10 fire → resist ½ = 5 …``, not the roll
    before it), else its first line, else its action line; a step that
    passed the turn, its verb and the turn it gave (``next (Mira's turn)``);
    one action on several targets says how many first (``damage ×12:
    Grunt 1 takes 9 fire …``: the border cuts the rest, and the first
    target's line alone read as if only it was undone)."""
    log = step.log
    if not log:
        return step.line
    action = step.action
    verbs = [a.get("verb") for a in action.get("actions", ())] or [action.get("verb")]
    turn = next((v for v in verbs if v in TURN_VERBS), None)
    if turn is not None:
        return f"{turn} ({entry_line(log[-1])})"
    about = next((e for e in log if e.actor not in NOBODY), log[0])
    targets = action.get("targets", ())
    if "actions" not in action and isinstance(targets, list) and len(targets) > 1:
        return f"{action.get('verb')} ×{len(targets)}: {entry_line(about)}"
    return entry_line(about)


def reversal(step: Step, target: Step | None) -> str | None:
    """``Undone: Ogre takes 7 fire`` (or ``Redone: …``) for *step*, an undo
    (``p`` too) or redo of *target* (None: not known, its action line is
    said); one line of plain text cut to about :data:`LIMIT` characters.
    None for an action."""
    if step.kind == "do":
        return None
    done = "Undone" if step.kind == "undo" else "Redone"
    what = step_summary(target) if target is not None else str(step.action.get("line", ""))
    return shorten(f"{done}: {what}", LIMIT)
