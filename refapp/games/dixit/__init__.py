"""Dixit: the storyteller, the laid-out positions, the votes and the score of a turn.

A turn's input names the storyteller, the owner of the card at each position (1-based on the
table, 0-based in the list) and each voter's position. The state carries the last storyteller and
the deck bookkeeping (draw pile and discards), so the next turn can be checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from ..errors import N_, MalformedInput, RuleViolation, quote
from ..game import Account, Game, Outcome, Preset, Table, signed
from ..inputs import mapping, require, sequence, whole_number
from ..options import label_of
from ..registry import register
from . import codes as _codes  # noqa: F401  (registers the game's error codes)
from . import how_we_score as dixit_how_we_score
from . import stats as dixit_stats
from .deck import after_turn, cards_laid, first_draw_pile, hand_size, position_count
from .ending import end_reasons, say_end, turns_left
from .options import OPTIONS, DixitRules
from .round_input import ROUND_INPUT
from .scoring import found_points, single_vote_bonus, vote_bonus
from .shapes import DixitInput, DixitResult, DixitState, Vote
from .table_view import TWO_VOTES_FROM, next_storyteller, two_votes


class Dixit(Game[DixitInput, DixitResult, DixitState]):
    """Dixit with the 2021 base rules, the three-player rules and the Odyssey options."""

    slug = "dixit"
    position = 3
    round_input = ROUND_INPUT
    title = N_("Dixit")
    min_players = 3
    max_players = 8
    #: measured 13,941 bytes: a turn of 12 players (20-letter accented names) with two votes each
    round_bytes = 16 * 1024
    topics = {
        "table": N_("Players and cards"),
        "voting": N_("Voting and vote bonus"),
        "end": N_("End of the game"),
    }
    options = OPTIONS
    house_rules_type = DixitRules

    presets = (
        Preset(
            "classic",
            N_("Classic"),
            N_("The 2021 base game for 3 to 8 players: every default."),
        ),
        Preset(
            "odyssey",
            N_("Odyssey"),
            N_(
                "3 to 12 players; vote bonus capped at 3; from 7 players each votes for one or "
                "two cards."
            ),
            {"two_votes_large_game": True},
        ),
    )

    #: a player's Dixit figures: the counters a round adds, the figures from their sums
    tally = staticmethod(dixit_stats.tally)
    figures_from = staticmethod(dixit_stats.figures_from)

    def player_range(self, rules: Mapping[str, Any]) -> tuple[int, int]:
        """Return 3..8 players, or 3..12 with the Odyssey two-votes rule or a large table."""
        house = DixitRules.of(rules)
        return (3, 12) if house.two_votes_large_game or house.large_table else (3, 8)

    def resolve_rules(
        self,
        overrides: Any,
        preset: str | None = None,
        *,
        stored: bool = False,
        seats: int | None = None,
    ) -> dict[str, Any]:
        """Return the effective house rules; without a target score the rounds to play end it.

        A session stored before this check (no target, no rounds: it never ended) still imports.
        """
        rules = super().resolve_rules(overrides, preset, seats=seats)
        if not stored and rules["target_score"] is None and rules["end_after_rounds"] is None:
            raise MalformedInput(
                "invalid_rules",
                "The house rule “{rule_t}” may be none only with “{other_t}” set: without "
                "either the game would never end.",
                "rules.target_score",
                rule_t=label_of(OPTIONS, "target_score"),
                other_t=label_of(OPTIONS, "end_after_rounds"),
            )
        return rules

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Return what this table's house rules mean, topic by topic."""
        return dixit_how_we_score.sentences(self.with_house_rules(table), self.topics)

    def start(
        self, players: Sequence[str], rules: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], DixitState]:
        """Deal the hands: the draw pile holds what is left of the 84 (or 168) cards."""
        state: DixitState = {
            "last_storyteller": None,
            "turns": 0,
            "draw_pile": first_draw_pile(rules, len(players)),
            "discard_pile": 0,
            "reshuffles": 0,
            "deck_exhausted": False,
        }
        return tuple(players), state

    # -- checking ---------------------------------------------------------------------------

    def play(
        self, table: Table, state: DixitState, raw: object, *, partial: bool = False
    ) -> Outcome[DixitInput, DixitResult, DixitState]:
        """Check a turn and score it; raises RuleViolation naming the broken rule."""
        table = self.with_house_rules(table)
        raw = mapping(raw, "round")
        storyteller = self._storyteller(table, state, raw)
        positions = self._positions(table, storyteller, raw)
        if partial and raw.get("votes") is None:
            checked: DixitInput = {"storyteller": storyteller, "positions": positions}
            progress: DixitResult = {"complete": False}
            unchanged: DixitState = {**state}  # a copy: the turn is not over yet
            return Outcome(checked, progress, unchanged)
        votes = self._votes(table, storyteller, positions, raw)
        entered: DixitInput = {"storyteller": storyteller, "positions": positions, "votes": votes}
        result = self.score(table, entered)
        after = self._next_state(table, state, storyteller)
        ending = Account()
        say_end(table.rules, state, after, table.size, ending)
        if ending.lines:
            result["explanation"] = [*result["explanation"], *ending.lines]
            result["explanation_parts"] = [*result["explanation_parts"], *ending.parts]
        return Outcome(entered, result, after)

    def _storyteller(self, table: Table, state: Mapping[str, Any], raw: Mapping[str, Any]) -> str:
        storyteller = table.player(require(raw, "storyteller"), "storyteller")
        expected = next_storyteller(table, state)
        if expected is not None and storyteller != expected:
            raise RuleViolation(
                "wrong_storyteller",
                "It is {expected}'s turn to be the storyteller (to the left of {last}), "
                "not {value}.",
                "storyteller",
                expected=expected,
                last=state.get("last_storyteller"),
                value=quote(storyteller),
            )
        return storyteller

    def _positions(self, table: Table, storyteller: str, raw: Mapping[str, Any]) -> list[str]:
        laid = sequence(require(raw, "positions"), "positions")
        owners = [table.player(owner, f"positions.{i}") for i, owner in enumerate(laid, 1)]
        expected = position_count(table.size)
        if len(owners) != expected:
            raise RuleViolation(
                "wrong_card_count",
                "With {players} players {expected} cards are laid out, but {count} positions "
                "were given.",
                "positions",
                players=table.size,
                expected=expected,
                count=len(owners),
            )
        for player in table.players:
            want = 1 if player == storyteller else cards_laid(table.size)
            laid_by = owners.count(player)
            if laid_by != want:
                role = N_("the storyteller") if player == storyteller else N_("each other player")
                raise RuleViolation(
                    "wrong_card_count",
                    "Cards laid by {player}: {count}, but {role_t} lays exactly {want}.",
                    "positions",
                    player=player,
                    count=laid_by,
                    role_t=role,
                    want=want,
                )
        return owners

    def _votes(
        self, table: Table, storyteller: str, positions: list[str], raw: Mapping[str, Any]
    ) -> dict[str, Vote]:
        given = mapping(require(raw, "votes"), "votes")
        by_voter: dict[str, Any] = {}
        for key, value in given.items():
            voter = table.player(key, f"votes.{key}")
            if voter in by_voter:
                raise RuleViolation(
                    "duplicate_vote",
                    "{voter} is listed twice among the votes.",
                    f"votes.{voter}",
                    voter=voter,
                )
            by_voter[voter] = value
        if storyteller in by_voter:
            raise RuleViolation(
                "storyteller_voted",
                "{storyteller} is the storyteller and does not vote (got {value}).",
                f"votes.{storyteller}",
                storyteller=storyteller,
                value=quote(by_voter[storyteller]),
            )
        votes: dict[str, Vote] = {}
        for voter in table.players:
            if voter in by_voter:
                votes[voter] = self._vote(table, voter, by_voter[voter], positions)
        for voter in table.players:
            if voter != storyteller and voter not in votes:
                raise RuleViolation(
                    "missing_vote",
                    "{voter} has not voted; every player but the storyteller votes once.",
                    f"votes.{voter}",
                    voter=voter,
                )
        return votes

    def _vote(self, table: Table, voter: str, value: Any, positions: list[str]) -> Vote:
        where = f"votes.{voter}"
        paired = two_votes(table.rules, table.size)
        if isinstance(value, list) and not paired:
            self._refuse_vote_list(table, voter, value)
        picks = value if isinstance(value, list) else [value]
        allowed = 2 if paired else 1
        if not picks:
            raise RuleViolation("missing_vote", "{voter} gave an empty vote.", where, voter=voter)
        if len(picks) > allowed:
            raise RuleViolation(
                "too_many_votes",
                "{voter} voted {value}, but the most votes a player has here is {allowed}.",
                where,
                voter=voter,
                value=quote(value),
                allowed=allowed,
            )
        numbers = [whole_number(pick, where) for pick in picks]
        for number in numbers:
            if not 1 <= number <= len(positions):
                raise RuleViolation(
                    "vote_out_of_range",
                    "{voter} voted for position {value}, but the positions are 1 to {count}.",
                    where,
                    voter=voter,
                    value=number,
                    count=len(positions),
                )
        if len(set(numbers)) != len(numbers):
            raise RuleViolation(
                "duplicate_vote",
                "{voter} put both votes on position {value}; two votes go to two different "
                "positions.",
                where,
                voter=voter,
                value=numbers[0],
            )
        for number in numbers:
            if positions[number - 1] == voter:
                raise RuleViolation(
                    "vote_own_card",
                    "{voter} voted for position {value}, which is {voter}'s own card.",
                    where,
                    voter=voter,
                    value=number,
                )
        return numbers if paired else numbers[0]

    def _refuse_vote_list(self, table: Table, voter: str, value: list[Any]) -> NoReturn:
        """Refuse a list of votes where each player votes once: a vote is one position number."""
        if not DixitRules.of(table.rules).two_votes_large_game:
            raise MalformedInput(
                "invalid_value",
                "{voter}'s vote is one position number, not the list {value}: two votes each "
                "need the house rule Two votes in a large game (Odyssey).",
                f"votes.{voter}",
                voter=voter,
                value=quote(value),
            )
        raise MalformedInput(
            "invalid_value",
            "{voter}'s vote is one position number, not the list {value}: with two votes in "
            "a large game (Odyssey) a player votes twice only at a table of {least} or more "
            "players, and this table has {players}.",
            f"votes.{voter}",
            voter=voter,
            value=quote(value),
            least=TWO_VOTES_FROM,
            players=table.size,
        )

    # -- scoring ----------------------------------------------------------------------------

    def score(self, table: Table, entered: DixitInput) -> DixitResult:
        """Score a checked turn and explain every point (trusted input: call after checking).

        Three steps, in the order the explanation tells them: who found the card, the Odyssey
        single-vote bonus, then the votes each card drew (capped when a cap is in force).
        """
        storyteller = entered["storyteller"]
        positions = entered["positions"]
        votes = {
            voter: (v if isinstance(v, list) else [v]) for voter, v in entered["votes"].items()
        }
        answer = positions.index(storyteller) + 1
        voters = [p for p in table.players if p != storyteller]
        finders = [v for v in voters if answer in votes[v]]
        account = Account()
        account.say(
            "{storyteller} was the storyteller; their card was at position {answer}.",
            storyteller=storyteller,
            answer=answer,
        )
        deltas, outcome = found_points(table, storyteller, voters, finders, account)
        if two_votes(table.rules, table.size):
            single_vote_bonus(deltas, finders, votes, account)
        bonus = vote_bonus(table, storyteller, voters, positions, votes, account)
        for player in voters:
            deltas[player] += bonus[player]
        account.say(
            "This turn: {deltas}.",
            deltas=", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
        )
        return {
            "deltas": deltas,
            **account.result(),
            "outcome": outcome,
            "storyteller": storyteller,
            "storyteller_position": answer,
            "storyteller_votes": len(finders),
            "finders": finders,
            "vote_bonus": {p: bonus[p] for p in voters},
        }

    # -- state ------------------------------------------------------------------------------

    def _next_state(self, table: Table, state: DixitState, storyteller: str) -> DixitState:
        """Pass the storyteller on, count the turn, and refill the hands from the draw pile."""
        return {
            **state,
            "last_storyteller": storyteller,
            "turns": state.get("turns", 0) + 1,
            **after_turn(table.rules, state, table.size),
        }

    def public_state(
        self, table: Table, state: DixitState, totals: Mapping[str, int]
    ) -> dict[str, Any]:
        """Tell the table the next storyteller, the target and the deck's counts."""
        table = self.with_house_rules(table)
        coming = next_storyteller(table, state)
        ended = end_reasons(table.rules, state, totals, table.size)
        return {
            "next_storyteller": coming,
            "storyteller_free": coming is None,
            "target_score": table.rules["target_score"],
            "hand_size": hand_size(table.size),
            "cards_per_player": cards_laid(table.size),
            "positions": position_count(table.size),
            "draw_pile": state["draw_pile"],
            "discard_pile": state["discard_pile"],
            "reshuffles": state.get("reshuffles", 0),
            "deck_exhausted": state.get("deck_exhausted", False),
            "turns": state.get("turns", 0),
            "full_rounds": state.get("turns", 0) // table.size,
            "turns_left": 0 if ended else turns_left(table.rules, state, table.size),
            "end_reasons": ended,
        }

    def describe_path(self, path: str) -> str:
        """Name a turn's input path in words: "Dee's vote", "card 3's owner"."""
        head, _, rest = path.partition(".")
        if head == "votes" and rest:
            return f"{rest}'s vote"
        if path == "positions":
            return "who laid cards 1, 2, ..."
        return super().describe_path(path)

    def is_over(self, table: Table, state: DixitState, totals: Mapping[str, int]) -> bool:
        """The game ends after a turn that reaches the target, the last round or the deck's end."""
        return bool(end_reasons(table.rules, state, totals, table.size))


register(Dixit())
