"""An audit trail applied entry by entry to the rounds it speaks of (their inputs, by seat).

``trail.check_trail`` reads the entries; ``TrailReplay`` applies each one and says why it does
not fit: a round that did not exist, a ``before`` that was not the round, a rename of someone
not at the table, a time going backwards, a finish whose winners are not its leaders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...games.errors import MalformedInput, Refusal, quote
from ...games.game import AnyGame, Table, leaders
from ...games.inputs import mapping, sequence
from .. import values
from .checks import excerpt
from .staging import pack, unpack

#: the actions that concern no single round (their ``round`` is null)
ROUNDLESS = (
    "create_session",
    "finish_session",
    "rename_player",
    "import_session",
    "set_location",
)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seated player's name inside a round the replay keeps: a rename moves the seat's name."""

    index: int


@dataclass
class Start:
    """What a trail must arrive at: the export's game, table and setup, and its rounds replayed.

    Each round's input (as the rules normalise it) and the state after it are kept packed.
    """

    game: AnyGame
    table: Table
    setup: Mapping[str, Any]
    initial: Mapping[str, Any]
    inputs: Sequence[bytes]
    states: Sequence[bytes]

    def input_of(self, number: int) -> Any:
        """Return round ``number``'s input as replayed."""
        return unpack(self.inputs[number - 1])

    def state_before(self, number: int) -> Any:
        """Return the state before round ``number``."""
        return unpack(self.states[number - 2]) if number > 1 else self.initial


def seated(value: Any, seats: Mapping[str, int]) -> Any:
    """Return a copy of an input with every key and text equal to a seated name made its Seat."""
    if isinstance(value, str):
        return Seat(seats[value]) if value in seats else value
    if isinstance(value, Mapping):
        return {seated(key, seats): seated(item, seats) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [seated(item, seats) for item in value]
    return value


def named(value: Any, names: Sequence[str]) -> Any:
    """Return a kept input with each Seat written as the seat's name now (as a rename writes)."""
    if isinstance(value, Seat):
        return names[value.index]
    if isinstance(value, Mapping):
        return {named(key, names): named(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [named(item, names) for item in value]
    return value


def fields(value: Any) -> Mapping[str, Any]:
    """Return an entry's before or after as an object ({} when it is not one)."""
    return value if isinstance(value, Mapping) else {}


def renamed_name(entry: Mapping[str, Any], side: str, where: str) -> str:
    """Return the name a rename_player entry holds on one side (before or after)."""
    name = mapping(entry[side], f"{where}.{side}").get("name")
    if not isinstance(name, str):
        raise MalformedInput(
            "invalid_value",
            "A rename_player audit entry names a player, not {value}.",
            f"{where}.{side}.name",
            value=excerpt(name),
        )
    return name


class TrailReplay:
    """A trail applied entry by entry to the rounds it speaks of (their inputs, by seat)."""

    def __init__(self, start: Start, names: list[str], wrong: set[int] | None) -> None:
        """Start before the trail's first entry, the table seated as it began.

        ``wrong`` holds the renames that do not fit the table (refused when reached); None: the
        table is the creation's, and each rename is checked against it as it comes.
        """
        self.start = start
        self.names = names
        self.wrong = wrong
        #: each round's input (by seat, packed; None: imported without its history), its entry
        self.rounds: list[tuple[bytes | None, int]] = []
        self.setup: dict[str, Any] | None = None
        self.finished: int | None = None
        self.last: datetime | None = None

    def seats(self) -> dict[str, int]:
        """Return each seated name's seat, now."""
        return {name: seat for seat, name in enumerate(self.names)}

    def apply(self, index: int, entry: Mapping[str, Any]) -> None:
        """Apply one entry, refusing it when it does not fit the trail above it."""
        where = f"audit.{index}"
        self.check_time(entry["at"], where)
        action, number = entry["action"], entry["round_number"]
        if (action == "create_session" and index != 0) or (
            self.finished is not None
            and action in ("record_round", "delete_round", "finish_session")
        ):
            raise out_of_place(action, where)
        if action in ROUNDLESS:
            if number is not None:
                raise MalformedInput(
                    "invalid_value",
                    "A {action} audit entry names no round, not {value}.",
                    f"{where}.round",
                    action=action,
                    value=quote(number),
                )
            self.apply_roundless(index, entry)
            return
        count = len(self.rounds)
        if not round_existed(action, number, count):
            raise MalformedInput(
                "invalid_value",
                "A {action} audit entry cannot name round {value} when the session had "
                "{count} round(s).",
                f"{where}.round",
                action=action,
                value=quote(number),
                count=count,
            )
        if action != "record_round":
            self.check_before(entry, number, where)
        if action == "delete_round":
            self.rounds.pop()
            return
        after = seated(mapping(entry["after"], f"{where}.after"), self.seats())
        if action == "record_round":
            self.rounds.append((pack(after), index))
        else:
            self.rounds[number - 1] = (pack(after), index)

    def check_time(self, at: datetime | None, where: str) -> None:
        """Refuse an entry dated before the entry above it."""
        if at is None:  # a trail with no time at all (made by hand): stored as imported now
            return
        if self.last is not None and at < self.last:
            raise MalformedInput(
                "invalid_value",
                "Audit entry {entry} is dated {value}, before the entry above it ({previous}); "
                "a trail's times never go backwards.",
                f"{where}.at",
                entry=where,
                value=at.isoformat(),
                previous=self.last.isoformat(),
            )
        self.last = at

    def apply_roundless(self, index: int, entry: Mapping[str, Any]) -> None:
        """Apply a creation, a finish, a rename or an import (a location changes no round)."""
        action, where = entry["action"], f"audit.{index}"
        if action == "set_location":
            return
        if action == "create_session":
            self.check_creation(entry, where)
        elif action == "finish_session":
            finish_totals(entry, where)
            self.finished = index
        elif action == "rename_player":
            old, new = renamed_name(entry, "before", where), renamed_name(entry, "after", where)
            fits = old in self.names and new not in self.names
            if (index in self.wrong) if self.wrong is not None else not fits:
                raise MalformedInput(
                    "invalid_value",
                    "Audit entry {entry} renames {old} to {new}, but the table then was {value}.",
                    f"{where}.after.name",
                    entry=where,
                    old=quote(old),
                    new=quote(new),
                    value=excerpt(self.names),
                )
            self.names[self.names.index(old)] = new
        elif index == 0:  # the import of an export without a trail: its rounds, unknown
            self.rounds = [(None, index)] * imported_rounds(entry, where)
        elif imported_rounds(entry, where) != len(self.rounds):
            raise MalformedInput(
                "invalid_value",
                "Audit entry {entry} says {value} round(s) were imported, but the trail above "
                "it has {count}.",
                f"{where}.after.rounds",
                entry=where,
                value=imported_rounds(entry, where),
                count=len(self.rounds),
            )

    def check_creation(self, entry: Mapping[str, Any], where: str) -> None:
        """Refuse a creation of another game, or with other rules or players than the export.

        Only what the entry says is compared (a hand-made entry may say nothing).
        """
        after = fields(entry["after"])
        game = self.start.game
        if after.get("game") is not None and after["game"] != game.slug:
            raise differs(where, "game", after["game"], game.slug)
        if after.get("players") is not None and after["players"] != self.names:
            raise differs(where, "players", after["players"], self.names)
        if after.get("rules") is not None:
            try:
                rules = game.resolve_rules(after["rules"], stored=True)
            except Refusal:
                rules = None
            if rules != dict(self.start.table.rules):
                raise differs(where, "rules", after["rules"], dict(self.start.table.rules))
        seats = self.seats()
        self.setup = {key: seated(after[key], seats) for key in game.setup_keys if key in after}

    def check_before(self, entry: Mapping[str, Any], number: int, where: str) -> None:
        """Refuse a correction or an undo whose ``before`` is not the round the trail had."""
        kept = self.rounds[number - 1][0]
        if kept is None:  # imported without its history: what it was is not known
            return
        wanted = named(unpack(kept), self.names)
        if entry["before"] != wanted:
            raise MalformedInput(
                "invalid_value",
                "Audit entry {entry} says round {number} was {value} before this change, but "
                "the trail above it left {wanted}.",
                f"{where}.before",
                entry=where,
                number=number,
                value=excerpt(entry["before"]),
                wanted=excerpt(wanted),
            )

    def check_rounds(self) -> None:
        """Refuse the first entry whose round is not the export's, as the rules normalise it."""
        wrong = None
        for number, (kept, index) in enumerate(self.rounds, 1):
            if kept is None or (wrong is not None and index >= wrong[1]):
                continue
            value = named(unpack(kept), self.names)
            if not self.same_round(number, value):
                wrong = (number, index, value)
        if wrong is None:
            return
        number, index, value = wrong
        raise MalformedInput(
            "invalid_value",
            "Audit entry {entry} says round {number} was {value}, but the export's round "
            "{number} is {wanted}.",
            f"audit.{index}.after",
            entry=f"audit.{index}",
            number=number,
            value=excerpt(value),
            wanted=excerpt(self.start.input_of(number)),
        )

    def same_round(self, number: int, value: Any) -> bool:
        """Return True if an input is the export's round ``number`` once the rules read it."""
        wanted = self.start.input_of(number)
        if value == wanted:
            return True
        state = self.start.state_before(number)
        try:
            same: bool = self.start.game.play(self.start.table, state, value).input == wanted
            return same
        except Refusal:
            return False

    def check_setup(self) -> None:
        """Refuse a creation whose setup, renamed as the trail says, is not the export's."""
        if self.setup is None:
            return
        for key, value in self.setup.items():
            wanted = self.start.setup.get(key)
            if named(value, self.names) != wanted:
                raise differs("audit.0", key, value, wanted)


def differs(where: str, key: str, given: Any, wanted: Any) -> MalformedInput:
    """Return the refusal of a creation entry that does not start the export's session."""
    return MalformedInput(
        "invalid_value",
        "Audit entry {entry} says the session started with {key} {value}, but the export's "
        "session started with {wanted}.",
        f"{where}.after.{key}",
        entry=where,
        key=key,
        value=excerpt(given),
        wanted=excerpt(wanted),
    )


def round_existed(action: str, number: int | None, count: int) -> bool:
    """Return True if a round's audit entry fits a session that had ``count`` rounds.

    record_round names the next round, replace_round an existing one, delete_round the last one.
    """
    if number is None:
        return False
    if action == "record_round":
        return number == count + 1
    if action == "delete_round":
        return number == count
    return number <= count


def imported_rounds(entry: Mapping[str, Any], where: str) -> int:
    """Return how many rounds an import_session entry says were imported."""
    after = entry["after"] if isinstance(entry["after"], Mapping) else {}
    rounds = after.get("rounds")
    if type(rounds) is not int or not 0 <= rounds <= values.MAX_ROUNDS:
        raise MalformedInput(
            "invalid_value",
            "An import_session audit entry says how many rounds were imported (0 to {most}), "
            "not {value}.",
            f"{where}.after.rounds",
            most=values.MAX_ROUNDS,
            value=excerpt(rounds),
        )
    return rounds


def out_of_place(action: str, where: str) -> MalformedInput:
    """Return the refusal of an entry the app never writes at that point of a trail."""
    return MalformedInput(
        "invalid_value",
        "A {action} audit entry cannot come at this point of the trail: a session is created "
        "once, first, and the table's finish ends its rounds.",
        f"{where}.action",
        action=action,
    )


def finish_totals(entry: Mapping[str, Any], where: str) -> dict[str, int]:
    """Return a finish_session entry's totals, refusing winners that are not their leaders."""
    after = mapping(entry["after"], f"{where}.after")
    totals = mapping(after.get("totals"), f"{where}.after.totals")
    for name, value in totals.items():
        if type(value) is not int:
            raise MalformedInput(
                "invalid_value",
                "A total is a whole number, not {value}.",
                f"{where}.after.totals.{name}",
                value=excerpt(value),
            )
    winners = sequence(after.get("winners"), f"{where}.after.winners")
    wanted = leaders(totals)
    if not all(isinstance(name, str) for name in winners) or sorted(winners) != sorted(wanted):
        raise MalformedInput(
            "import_disagrees",
            "The export says {where} is {given}, but the entry's own totals make {wanted} the "
            "winners.",
            f"{where}.after.winners",
            where=f"{where}.after.winners",
            given=excerpt(winners),
            wanted=excerpt(wanted),
        )
    return dict(totals)
