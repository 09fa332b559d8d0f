"""What every game shares: the table, outcomes explained, the Game protocol, the one pure replay.

Nothing here (or anywhere under ``refapp.games``) imports Flask or the database: a game is a pure
function of the table, its house rules, the state before a round and the round's input.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypedDict, TypeVar, cast

from .errors import Conflict, MalformedInput, Refusal, RuleViolation, quote
from .highlights import Highlights
from .options import HouseRules, RuleOption, RuleValue, find_preset, resolve_rules
from .options import Preset as Preset  # where the games imported it from
from .ratings import Side
from .records import SHARED_KEYS, Mark
from .roles import RoleBook
from .round_input import InputPath
from .tally import Figures, Tally, summed

#: the values a sentence's template is filled with (names, numbers, words to translate)
Params = dict[str, object]
#: one sentence of an explanation as stored: [template, params] (JSON keeps the pair a list)
ExplanationPart = list[str | Params]


class Explanation(TypedDict):
    """A result's explanation: English sentences, and each as a template with its values."""

    explanation: list[str]
    explanation_parts: list[ExplanationPart]


class Account:
    """A score's explanation, kept twice: English sentences, and templates with their values.

    The English lines are the result's ``explanation`` (the API's); the parts let a page show
    the same sentences in the reader's language. Values whose key ends in ``_t`` are words
    (a trump, a title) translated too.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.parts: list[ExplanationPart] = []

    def say(self, template: str, **params: object) -> None:
        """Add one sentence of the explanation."""
        self.parts.append([template, params])
        self.lines.append(template.format(**params) if params else template)

    def result(self) -> Explanation:
        """Return the result fields that carry the explanation."""
        return {"explanation": self.lines, "explanation_parts": self.parts}


@dataclass(frozen=True)
class Table:
    """The seated players in clockwise order and the house rules in force."""

    players: tuple[str, ...]
    rules: Mapping[str, object] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """Return the number of seated players."""
        return len(self.players)

    def seat(self, name: str) -> int:
        """Return the seat index of a seated player; a name not seated (a state read across a
        rename of the table's players, say) is refused ``unknown_player``, never a bare error."""
        if name in self.players:
            return self.players.index(name)
        raise self.not_seated(name, None)

    def not_seated(self, value: object, where: str | None) -> MalformedInput:
        """Return the refusal of a name no one at this table has (``unknown_player``)."""
        return MalformedInput(
            "unknown_player",
            "{value} is not seated at this table (players: {players}).",
            where,
            value=quote(value),
            players=", ".join(self.players),
        )

    def left_of(self, name: str) -> str:
        """Return the player in the next seat clockwise (to the left)."""
        return self.players[(self.seat(name) + 1) % self.size]

    def player(self, value: object, where: str) -> str:
        """Return value as a seated player's name (trimmed, NFC) or raise ``unknown_player``."""
        if not isinstance(value, str):
            raise MalformedInput(
                "invalid_value",
                "{where} must be a player's name, not {value}.",
                where,
                where=where,
                value=quote(value),
            )
        if value in self.players:  # a seated name is already trimmed and NFC: nothing to do
            return value
        name = unicodedata.normalize("NFC", value.strip())
        if name not in self.players:
            raise self.not_seated(value, where)
        return name


#: a game's round input as checked and stored (its shapes.py TypedDict)
InputT = TypeVar("InputT", bound=Mapping[str, object])
#: a game's round result as stored (deltas, explanation and the game's own keys)
ResultT = TypeVar("ResultT", bound=Mapping[str, object])
#: a game's state between rounds
StateT = TypeVar("StateT", bound=Mapping[str, object])


@dataclass
class Outcome(Generic[InputT, ResultT, StateT]):
    """What a round produced: the input as stored, its result, and the game state after it."""

    input: InputT
    result: ResultT
    state: StateT


def leaders(totals: Mapping[str, int]) -> list[str]:
    """Return every player on the highest total (all of them share the win)."""
    if not totals:
        return []
    best = max(totals.values())
    return [name for name, total in totals.items() if total == best]


def signed(points: int) -> str:
    """Write a score change with its sign: +3, -2, 0."""
    return f"+{points}" if points > 0 else str(points)


class Game(Generic[InputT, ResultT, StateT]):
    """A game's published facts and its rules engine; subclasses override the hooks below.

    A game is typed by its round input, result and state (``Game[DixitInput, DixitResult,
    DixitState]``); code that handles any game names it `AnyGame`.
    """

    slug: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 10
    options: tuple[RuleOption, ...] = ()
    #: extra keys a new session may carry (e.g. Dalmuti's ``initial_draw``)
    setup_keys: tuple[str, ...] = ()
    #: the game's frozen house-rules type (defaults filled once)
    house_rules_type: type[HouseRules] = HouseRules
    #: named sets of house rules a session may start from, the default (every default) first
    presets: tuple[Preset, ...] = ()
    #: where pages list the game among the others (lowest first)
    position: int = 100
    #: the topics the house rules are grouped under, in the order a page lists them (N_ words)
    topics: Mapping[str, str] = {}
    #: the round input's paths, declared once (more specific patterns of a prefix first)
    round_input: tuple[InputPath, ...] = ()
    #: what the game's own placeholders in ``round_input`` match (e.g. a role code)
    input_places: Mapping[str, str] = {}
    #: an upper bound on one realistic round's bytes as stored (escaped JSON): its input and
    #: result with the explanation, its record entry and one correction, at the most players.
    #: An import of the game's sessions is at most this times the rounds a session holds
    #: (services/limits.py); the default is the largest any game writes (28 KiB)
    round_bytes: int = 28 * 1024

    @property
    def default_preset(self) -> str | None:
        """Return the key of the preset a session without one starts from (the first)."""
        return self.presets[0].key if self.presets else None

    def preset(self, key: object = None) -> Preset | None:
        """Return the preset named key (None: the default), or raise ``invalid_rules``."""
        return find_preset(self.presets, key)

    def house_rules(self, rules: Mapping[str, object] | None) -> HouseRules:
        """Return stored or given rules as the game's typed house rules (defaults filled)."""
        return self.house_rules_type.of(rules)

    def with_house_rules(self, table: Table) -> Table:
        """Return the table with its rules typed: what every rules function reads."""
        if isinstance(table.rules, self.house_rules_type):
            return table
        return Table(table.players, self.house_rules(table.rules))

    def seat_defaults(self, seats: int | None) -> Mapping[str, RuleValue]:
        """Return the options whose default depends on the seat count, at that count."""
        return {}

    def resolve_rules(
        self,
        overrides: object,
        preset: str | None = None,
        *,
        stored: bool = False,
        seats: int | None = None,
    ) -> dict[str, RuleValue]:
        """Return the effective house rules for a new session, or raise ``invalid_rules``.

        The seat count's defaults (``seat_defaults``) first, then the preset's (None: the
        default), the overrides winning over both; an unknown preset is ``invalid_rules``. A
        session's own ``stored`` rules read back are not refused by a later check.
        """
        chosen = self.preset(preset)
        if overrides is not None and not isinstance(overrides, Mapping):
            return resolve_rules(self.options, overrides)  # refused there, with its words
        base = {**self.seat_defaults(seats), **(chosen.rules if chosen else {})}
        return resolve_rules(self.options, {**base, **(overrides or {})})

    def rules_changed(
        self, rules: Mapping[str, object], preset: str | None = None, seats: int | None = None
    ) -> list[str]:
        """Return the option keys whose value in a session's rules (a missing option: its
        default) differs from the preset's (None: the default) at the seat count, in order."""
        effective, reference = self.house_rules(rules), self.preset_rules(preset, seats)
        return [key for key, value in reference.items() if effective[key] != value]

    def preset_rules(self, preset: str | None, seats: int | None) -> Mapping[str, RuleValue]:
        """Return a preset's effective rules at a seat count (worked out once for each)."""
        chosen = self.preset(preset)  # an unknown one refused here
        kept: dict[object, dict[str, RuleValue]] = vars(self).setdefault("preset_rules_kept", {})
        key, base = (chosen.key if chosen else None, seats), chosen.rules if chosen else {}
        if key not in kept:
            kept[key] = resolve_rules(self.options, {**self.seat_defaults(seats), **base})
        return kept[key]

    def player_range(self, rules: Mapping[str, object]) -> tuple[int, int]:
        """Return the allowed (fewest, most) players under these rules."""
        return self.min_players, self.max_players

    def check_players(self, players: Sequence[str], rules: Mapping[str, object]) -> None:
        """Raise ``bad_player_count`` unless the table size fits the game and its rules."""
        low, high = self.player_range(rules)
        if not low <= len(players) <= high:
            raise RuleViolation(
                "bad_player_count",
                "{title_t} is played by {low} to {high} players, not {count}.",
                "players",
                title_t=self.title,
                low=low,
                high=high,
                count=len(players),
            )

    def start(
        self, players: Sequence[str], rules: Mapping[str, object], setup: Mapping[str, object]
    ) -> tuple[tuple[str, ...], StateT]:
        """Return the seat order and the state before the first round (default: empty)."""
        # a game whose state has required keys overrides this; an empty mapping is its own
        # state only for a game without any, so the cast names what that game declares
        return tuple(players), cast(StateT, {})

    def play(
        self, table: Table, state: StateT, raw: object, *, partial: bool = False
    ) -> Outcome[InputT, ResultT, StateT]:
        """Check one round's input against the rules and score it.

        With ``partial`` (a dry run) the parts sent may be incomplete and only they are checked.
        Raises a Refusal (MalformedInput, RuleViolation, Conflict).
        """
        raise NotImplementedError

    def replay_round(
        self,
        table: Table,
        state: StateT,
        raw: object,
        stored: Outcome[InputT, ResultT, StateT],
    ) -> Outcome[InputT, ResultT, StateT]:
        """Play a stored round (its input ``raw``, its ``stored`` outcome) again from another
        state before it, as ``play`` does (a correction's replay).

        A game may keep the stored result where the state before cannot change it; the replay
        keeps such a result only when the checked input is byte for byte the stored one.
        """
        return self.play(table, state, raw)

    def public_state(
        self, table: Table, state: StateT, totals: Mapping[str, int]
    ) -> dict[str, object]:
        """Return what the table needs to know about the next round (the API's ``state``)."""
        return dict(state)

    def is_over(self, table: Table, state: StateT, totals: Mapping[str, int]) -> bool:
        """Return True when the game has reached its natural end."""
        return False

    def end_reads_totals(self, table: Table) -> bool:
        """Return True when ``is_over`` reads the totals at this table (a correction checks it)."""
        return False

    def tally(self, name: str, result: ResultT) -> Tally:
        """Return the game's own counters one round's stored result adds for a player (never the
        shared ones of games/stats.py: rounds_played, points, sessions_played, sessions_won)."""
        return {}

    def figures_from(self, counted: Mapping[str, int]) -> Figures:
        """Return a player's figures of this game from their counters summed over rounds."""
        return {}

    #: what the game counts of its players' roles, partners and runs (games/roles.py)
    role_book: RoleBook[ResultT] = RoleBook()

    #: what the game tells of a night on its result card (games/highlights.py)
    highlights: Highlights[ResultT] = Highlights()
    #: the game's own records, besides the shared ones of games/records.py
    record_keys: tuple[str, ...] = ()

    def kept_records(self) -> tuple[str, ...]:
        """Return the records the game keeps: the shared ones, then its own."""
        return (*SHARED_KEYS, *self.record_keys)

    def marks(self, result: ResultT) -> list[Mark]:
        """Return the marks one round's stored result sets for the game's own records."""
        return []

    #: whether each round is a rated event (``hand_sides``) rather than each counted session
    rates_hands: bool = False

    def hand_sides(self, players: Sequence[str], result: ResultT) -> list[Side] | None:
        """Return a round as a rated event's ranked teams (None: the round is not rated)."""
        return None

    def figures(self, name: str, results: Iterable[ResultT]) -> Figures:
        """Return a player's figures of this game read from its rounds' stored results."""
        return self.figures_from(summed(self.tally(name, result) for result in results))

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Return what this table's house rules mean, as sentences under topic words (N_)."""
        return []

    def describe_path(self, path: str) -> str:
        """Name an input path in words for the audit trail ("votes.Dee" -> "Dee's vote")."""
        return path.replace("_", " ").replace(".", " › ")


#: any game, whatever its round's types: what services and pages that handle every game hold
AnyGame = Game[Any, Any, Any]
#: the outcome of a round of any game (what `replay` yields to the services)
AnyOutcome = Outcome[Any, Any, Any]


def past_the_end(number: int) -> Conflict:
    """Return the refusal of round ``number`` after the natural end (``session_finished``)."""
    return Conflict(
        "session_finished",
        "The game ended after round {last}; round {value} cannot follow it.",
        None,
        last=number - 1,
        value=number,
    )


def replay(
    game: AnyGame,
    table: Table,
    state: Mapping[str, object],
    inputs: Iterable[object],
    *,
    totals: Mapping[str, int] | None = None,
    first: int = 1,
) -> Iterator[AnyOutcome]:
    """Play inputs one after another from ``state``, yielding each round's outcome.

    The one replay of the app: corrections (from round ``first``, with the ``totals`` before
    it), imports and renames all go through it. ``inputs`` may be a generator that checks each
    entry as it is pulled, so refusals come in round order. A broken rule is raised with its
    ``round``; so is a round that follows the game's natural end (``session_finished``).
    """
    table = game.with_house_rules(table)  # typed once, not again for every round
    running = dict.fromkeys(table.players, 0) if totals is None else dict(totals)
    for number, entered in enumerate(inputs, first):
        try:
            if game.is_over(table, state, running):
                raise past_the_end(number)
            outcome = game.play(table, state, entered)
        except Refusal as error:
            if error.round is None:
                error.round = number
            raise
        running = running_totals(running, [outcome.result["deltas"]])
        state = outcome.state
        yield outcome


def running_totals(
    totals: Mapping[str, int], deltas: Iterable[Mapping[str, int]], sign: int = 1
) -> dict[str, int]:
    """Return totals with every round's deltas added (with ``sign`` -1: taken away)."""
    running = dict(totals)
    for changes in deltas:
        for name, delta in changes.items():
            running[name] = running.get(name, 0) + sign * delta
    return running
