"""Every key of the tracker, as data: each :class:`Key` has a stable ``id``
the keymap file rebinds (:mod:`tracker.config`).  The footer, the help
screen and the command palette are all built from these tables, so they can
never disagree with what the keys do."""

from __future__ import annotations

from typing import NamedTuple

from textual.binding import Binding, BindingType


class Key(NamedTuple):
    """One rebindable key: ``key`` may list several keys (``"j,down"``)."""

    id: str
    key: str
    action: str
    label: str
    title: str
    help: str
    show: bool = True
    priority: bool = False
    #: shown in the footer too when the terminal is wide enough
    wide: bool = False

    def binding(self) -> Binding:
        """The Textual binding (the keymap swaps ``key`` by ``id``)."""
        return Binding(
            self.key,
            self.action,
            self.label,
            show=self.show,
            tooltip=self.help,
            id=self.id,
            priority=self.priority,
        )


#: The encounter screen's keys, in the order the help screen lists them.
ENCOUNTER_KEYS: tuple[Key, ...] = (
    Key(
        "encounter.start",
        "s",
        "start",
        "Start",
        "encounter: start combat",
        "ask the players' initiative totals in one form (blank: rolled), roll the rest, Dash checks, round 1",
    ),
    Key(
        "encounter.next_turn",
        "n",
        "next_turn",
        "Next",
        "encounter: next turn",
        "end this turn (persistent damage, durations) and start the next",
    ),
    Key(
        "encounter.previous_turn",
        "p",
        "previous_turn",
        "Prev",
        "encounter: previous turn",
        "step back to the previous turn (undoes the last next)",
    ),
    Key(
        "encounter.end",
        "E",
        "end_combat",
        "End",
        "encounter: end combat…",
        "end combat (asks first): the turn order stops, initiative is cleared so s starts "
        "a new combat; the fight stays saved and exportable",
        show=False,
    ),
    Key(
        "select.down",
        "j",
        "select_down",
        "Down",
        "selection: move down",
        "move the selection down (also the down arrow)",
        show=False,
    ),
    Key(
        "select.up",
        "k",
        "select_up",
        "Up",
        "selection: move up",
        "move the selection up (also the up arrow)",
        show=False,
    ),
    Key(
        "select.active",
        "g",
        "select_active",
        "Turn",
        "selection: go to the active combatant",
        "move the selection to whoever's turn it is (it follows the turn by itself "
        "unless follow_turn = false)",
        show=False,
        wide=True,
    ),
    Key(
        "order.down",
        "J",
        "order_down",
        "Move down",
        "order: move selected down",
        "move the selected combatant down in the order (ties, GM override)",
        show=False,
    ),
    Key(
        "order.up",
        "K",
        "order_up",
        "Move up",
        "order: move selected up",
        "move the selected combatant up in the order",
        show=False,
    ),
    Key(
        "select.mark",
        "space",
        "toggle_mark",
        "Mark",
        "selection: mark / unmark",
        "mark or unmark the selection; damage, heal, temp, persistent and conditions "
        "apply to every marked combatant; the marks stay for the next action until Esc "
        "or the turn passes (keep_marks in [settings])",
        show=False,
        wide=True,
    ),
    Key(
        "select.clear_marks",
        "escape",
        "clear_marks",
        "Unmark",
        "selection: clear the marks",
        "clear every mark (by default they also clear when the turn passes)",
        show=False,
        wide=True,
    ),
    Key(
        "select.group",
        "o",
        "toggle_group",
        "Group",
        "selection: expand / collapse the group",
        "a group shows as one row (Zombies ×12 · 4 bloodied · 2 down): o shows its members, "
        "o on a member folds them again; on the one row, damage, heal, temp, persistent, "
        "conditions, attack and space act on its standing members",
        show=False,
    ),
    Key(
        "combatant.add",
        "a",
        "add",
        "Add",
        "combatant: add…",
        "add combatants (name, count, HP number or dice, AL, initiative, the eight "
        "abilities, athletics, defenses, notes, group)",
    ),
    Key(
        "combatant.damage",
        "d",
        "damage",
        "Dmg",
        "combatant: damage…",
        "damage: AMOUNT|DICE [TAG…] [crit]",
    ),
    Key("combatant.heal", "h", "heal", "Heal", "combatant: heal…", "heal: AMOUNT|DICE"),
    Key(
        "combatant.temp",
        "t",
        "temp",
        "Temp",
        "combatant: temporary HP…",
        "temporary HP: AMOUNT [rounds N]",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.persistent",
        "x",
        "persistent",
        "Persist",
        "combatant: persistent damage…",
        "persistent damage: DICE [TAG…] [dc N]",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.condition",
        "c",
        "condition",
        "Cond",
        "combatant: add condition…",
        "condition: NAME [value V] [rounds N]",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.uncondition",
        "C",
        "uncondition",
        "Uncond",
        "combatant: remove condition…",
        "remove a condition: pick one of the combatant's conditions",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.move",
        "m",
        "move",
        "Move",
        "combatant: movement (dash / run / sprint)…",
        "endurance check for dash, run or sprint; shortfall shown, spend confirmed; "
        "the roll is kept until applied (ctrl+r in the dialog re-rolls) "
        "(needs an endurance pool: CON and Athletics)",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.initiative",
        "i",
        "initiative",
        "Init",
        "combatant: set initiative…",
        "set the selected combatant's initiative",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.attack",
        "A",
        "attack",
        "Attack",
        "combatant: attack…",
        "attack the targets: [with +N] [adv N] [dis N] [cover half|three-quarters|total] "
        "[roll N] [damage DICE [TAG…]] (Enter alone: a plain d20 against their AL)",
        show=False,
        wide=True,
    ),
    Key(
        "turn.delay",
        "w",
        "delay",
        "Delay",
        "turn: the active combatant delays",
        "the active combatant waits: out of the order until it returns (W)",
        show=False,
        wide=True,
    ),
    Key(
        "turn.return",
        "W",
        "return",
        "Return",
        "turn: the selected combatant returns",
        "the selected delaying combatant returns, acting right after the active one",
        show=False,
        wide=True,
    ),
    Key(
        "players.hide",
        "V",
        "hide",
        "Hide",
        "players' view: hide from the players",
        "the marked (else the selected) monsters leave the players' view until revealed (v); "
        "players are always shown",
        show=False,
    ),
    Key(
        "players.mask",
        "M",
        "mask",
        "Mask",
        "players' view: show as Unknown creature",
        "the marked (else the selected) monsters show on the players' view as \"Unknown "
        'creature": their place in the order, no name, HP or conditions',
        show=False,
    ),
    Key(
        "players.reveal",
        "v",
        "reveal",
        "Reveal",
        "players' view: reveal to the players",
        "the marked (else the selected) combatants show in full on the players' view",
        show=False,
    ),
    Key(
        "dice.roll",
        "r",
        "roll",
        "Roll",
        "dice: roll…",
        "dice roller: EXPR [adv N] [dis N] [dc N]; the result goes into the log",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.edit",
        "e",
        "edit",
        "Edit",
        "combatant: edit…",
        "edit the selected combatant (name, HP, AL, initiative, abilities, defenses, "
        "notes…): one undoable step",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.remove",
        "delete",
        "remove",
        "Remove",
        "combatant: remove…",
        "remove the selected combatant (asks first)",
        show=False,
        wide=True,
    ),
    Key(
        "combatant.remove_defeated",
        "ctrl+d",
        "remove_defeated",
        "Clear down",
        "combatant: remove every defeated monster…",
        "remove every monster at 0 HP in one step (asks first; players stay; ctrl+z brings "
        "them back)",
        show=False,
    ),
    Key(
        "details.down",
        "right_square_bracket",
        "details_down",
        "Details ↓",
        "combatant: scroll the details down",
        "scroll the combatant pane down (endurance, notes on a small terminal)",
        show=False,
    ),
    Key(
        "details.up",
        "left_square_bracket",
        "details_up",
        "Details ↑",
        "combatant: scroll the details up",
        "scroll the combatant pane up",
        show=False,
    ),
    Key(
        "command.line",
        "colon",
        "command_line",
        "Cmd",
        "command: action line…",
        "type any action of the action language, with completion",
    ),
    Key(
        "history.undo",
        "ctrl+z",
        "undo",
        "Undo",
        "history: undo",
        "undo the last change (any depth)",
    ),
    Key(
        "history.redo",
        "ctrl+y",
        "redo",
        "Redo",
        "history: redo",
        "redo what was undone",
        show=False,
        wide=True,
    ),
    Key(
        "encounter.save_point",
        "ctrl+s",
        "save_point",
        "Save",
        "encounter: named save point…",
        "store a named save point beside the autosave",
        show=False,
        wide=True,
    ),
    Key(
        "settings.physical_rolls",
        "f2",
        "toggle_physical",
        "Dice",
        "settings: physical rolls on/off",
        "ask for the face of every roll (Enter lets the program roll) or roll automatically",
        show=False,
    ),
    Key(
        "players.share",
        "P",
        "share",
        "Share",
        "players: share the fight",
        "show the fight on the players' phones or a TV: a live page, its link and QR code "
        "(P again in that dialog stops sharing)",
        show=False,
    ),
    Key("app.help", "question_mark,f1", "help", "Help", "help: keys", "this list of keys"),
    Key("app.quit", "q", "quit", "Quit", "app: quit", "quit (everything is already saved)"),
)

#: The resume picker's keys.
PICKER_KEYS: tuple[Key, ...] = (
    Key(
        "picker.resume",
        "enter",
        "resume",
        "Resume",
        "picker: resume",
        "resume the highlighted encounter",
    ),
    Key(
        "picker.down",
        "j",
        "cursor_down",
        "Down",
        "picker: move down",
        "highlight the next encounter (also the down arrow)",
        show=False,
    ),
    Key(
        "picker.up",
        "k",
        "cursor_up",
        "Up",
        "picker: move up",
        "highlight the previous encounter (also the up arrow)",
        show=False,
    ),
    Key(
        "picker.top",
        "g",
        "cursor_top",
        "Top",
        "picker: newest",
        "highlight the newest encounter (the first row; also Home)",
        show=False,
    ),
    Key(
        "picker.bottom",
        "G",
        "cursor_bottom",
        "Bottom",
        "picker: oldest",
        "highlight the oldest encounter (the last row; also End)",
        show=False,
    ),
    Key(
        "picker.new",
        "n",
        "new",
        "New",
        "picker: new encounter…",
        "start a new encounter (name and ruleset: core, forge or cinematic)",
    ),
    Key(
        "picker.restore",
        "r",
        "restore",
        "Restore",
        "picker: restore a save point…",
        "a save point of the highlighted encounter becomes a new encounter "
        "(the original is untouched)",
    ),
    Key(
        "picker.delete",
        "delete",
        "delete",
        "Delete",
        "picker: delete…",
        "delete the highlighted encounter (asks first)",
    ),
    Key("picker.help", "question_mark,f1", "help", "Help", "help: keys", "this list of keys"),
    Key("picker.quit", "q,escape", "app.quit", "Quit", "app: quit", "quit"),
)

#: The movement dialog's keys (``m``): the check is rolled once and kept
#: (cancel and reopen shows the same roll) until applied or re-rolled.
MOVEMENT_KEYS: tuple[Key, ...] = (
    Key("movement.dash", "d", "choose('dash')", "Dash", "movement: dash", "dash (DL 14)"),
    Key("movement.run", "r", "choose('run')", "Run", "movement: run", "run (DL 18)"),
    Key("movement.sprint", "s", "choose('sprint')", "Sprint", "movement: sprint", "sprint (DL 22)"),
    Key(
        "movement.spend",
        "y",
        "confirm(True)",
        "Spend",
        "movement: spend endurance",
        "spend the endurance points the check fell short by, and move",
        show=False,
    ),
    Key(
        "movement.dont_spend",
        "n",
        "confirm(False)",
        "Don't spend",
        "movement: don't spend",
        "keep the points: the movement fails",
        show=False,
    ),
    Key(
        "movement.apply",
        "enter",
        "apply",
        "Apply",
        "movement: apply",
        "apply the check as shown",
        show=False,
    ),
    Key(
        "movement.reroll",
        "ctrl+r",
        "reroll",
        "Re-roll",
        "movement: re-roll the check",
        "roll the endurance check again (the shown roll is otherwise kept until applied)",
    ),
    Key(
        "movement.cancel", "escape", "cancel", "Cancel", "movement: cancel", "close, nothing spent"
    ),
)


#: Keys of the ``:`` line and of every one-line prompt (damage, heal, …).
LINE_KEYS: tuple[Key, ...] = (
    Key(
        "line.previous",
        "up",
        "history_back",
        "Previous",
        "typing: previous entry",
        "in the : line and the prompts: the previous line typed in that one (kept across restarts)",
        show=False,
    ),
    Key(
        "line.next",
        "down",
        "history_forward",
        "Next",
        "typing: next entry",
        "in the : line and the prompts: the next line typed there, then what you were typing",
        show=False,
    ),
)


#: Keys of area damage: the damage prompt on two targets or more opens the
#: saves form, where each target takes full, half or no damage.
SAVES_KEYS: tuple[Key, ...] = (
    Key(
        "saves.open",
        "ctrl+s",
        "saves",
        "Saves",
        "area damage: saves per target…",
        "in the damage prompt on two targets or more: after the amount, choose full / "
        "half / none per target (one roll, one step)",
        show=False,
    ),
    Key(
        "saves.next",
        "space,right",
        "cycle(1)",
        "Cycle",
        "saves: next choice",
        "in the saves form: full → half → none for the highlighted target",
        show=False,
    ),
    Key(
        "saves.previous",
        "left",
        "cycle(-1)",
        "Back",
        "saves: previous choice",
        "in the saves form: none → half → full for the highlighted target",
        show=False,
    ),
    Key(
        "saves.full",
        "f",
        "choose('full')",
        "Full",
        "saves: full",
        "in the saves form: the highlighted target takes it all, then the next row",
        show=False,
    ),
    Key(
        "saves.half",
        "h",
        "choose('half')",
        "Half",
        "saves: half",
        "in the saves form: the highlighted target saved for half (rounded down), then the next",
        show=False,
    ),
    Key(
        "saves.none",
        "n",
        "choose('none')",
        "None",
        "saves: none",
        "in the saves form: the highlighted target takes nothing, then the next row",
        show=False,
    ),
)


#: Keys of the players' view dialog (``P``: the link, QR code and settings).
SHARE_KEYS: tuple[Key, ...] = (
    Key(
        "share.stop",
        "P",
        "stop",
        "Stop",
        "players: stop sharing",
        "in the players' view dialog: stop sharing (pages say reconnecting…; P shares again)",
    ),
    Key(
        "share.lan",
        "l",
        "lan",
        "LAN",
        "players: local network on/off",
        "in the players' view dialog: let phones and TVs on this network open the page, "
        "or only this computer",
    ),
    Key(
        "share.new_link",
        "N",
        "new_link",
        "New link",
        "players: new link",
        "in the players' view dialog: a new link and QR code; the old one stops working",
    ),
    *(
        Key(
            f"share.{setting}",
            str(number),
            f"cycle('{setting}')",
            label,
            f"players: {label} {choices}",
            f"in the players' view dialog: {label}, the next of {choices} (an action, "
            f"view {setting} …: logged and undoable)",
            show=False,
        )
        for number, (setting, label, choices) in enumerate(
            (
                ("monster_hp", "monster HP", "band/exact/hidden"),
                ("player_hp", "player HP", "band/exact/hidden"),
                ("show_al", "AL", "on/off"),
                ("show_initiative", "initiative", "on/off"),
                ("new_monsters", "new monsters", "visible/masked/hidden"),
                ("reveal_on_turn", "reveal on their turn", "on/off"),
            ),
            1,
        )
    ),
    Key(
        "share.close", "escape,enter", "close", "Close", "players: close", "close (sharing goes on)"
    ),
)


def bindings(keys: tuple[Key, ...]) -> list[BindingType]:
    """Textual bindings for a table of keys (for a class's ``BINDINGS``)."""
    return [k.binding() for k in keys]


def wide_ids() -> set[str]:
    """Ids of keys the footer also shows when there is room."""
    return {k.id for k in ENCOUNTER_KEYS + PICKER_KEYS + MOVEMENT_KEYS if k.wide}


def key_tables() -> list[list[tuple[str, str]]]:
    """``(id, default keys)`` of each screen's keys: a key may mean one
    thing per screen (the keymap checks are per table)."""
    tables = (ENCOUNTER_KEYS, PICKER_KEYS, MOVEMENT_KEYS, SAVES_KEYS, SHARE_KEYS)
    return [[(k.id, k.key) for k in t] for t in tables]


def key_ids() -> set[str]:
    """Every rebindable id (the keymap file is checked against these)."""
    return {
        k.id
        for k in ENCOUNTER_KEYS + PICKER_KEYS + LINE_KEYS + MOVEMENT_KEYS + SAVES_KEYS + SHARE_KEYS
    }
