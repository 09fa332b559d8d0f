"""A Dixit turn checked on its parsed entry: whose story it is, the cards laid, the votes, the
score and the state after it (the deck refilled, the end told)."""

from __future__ import annotations

from typing import NoReturn

from ..errors import N_, MalformedInput, RuleViolation, quote
from ..game import Account, Outcome, Table
from ..inputs import missing
from .deck import after_turn, cards_laid, position_count
from .ending import last_turn
from .explain import say_end
from .rules import DixitRules
from .scoring import score
from .shapes import DixitInput, DixitResult, DixitState, TurnEntry, Vote
from .table_view import TWO_VOTES_FROM, next_storyteller, two_votes

#: a turn's outcome: the input as kept, its result, and the state after it
TurnOutcome = Outcome[DixitInput, DixitResult, DixitState]


def play_turn(table: Table, state: DixitState, entry: TurnEntry, partial: bool) -> TurnOutcome:
    """Check a parsed turn against the rules and score it (``partial``: a dry run)."""
    storyteller = check_storyteller(table, state, entry.storyteller)
    positions = check_positions(table, storyteller, entry.positions)
    if partial and entry.votes is None:
        checked: DixitInput = {"storyteller": storyteller, "positions": positions}
        progress: DixitResult = {"complete": False}
        unchanged: DixitState = {**state}  # a copy: the turn is not over yet
        return Outcome(checked, progress, unchanged)
    if entry.votes is None:
        raise missing("votes")
    votes = check_votes(table, storyteller, positions, entry.votes)
    entered: DixitInput = {"storyteller": storyteller, "positions": positions, "votes": votes}
    result = score(table, entered)
    after = next_state(table, state, storyteller)
    ending = Account()
    rounds = DixitRules.of(table.rules).end_after_rounds
    say_end(ending, state, after, table.size, last_turn(table.rules, table.size), rounds)
    if ending.lines:
        result["explanation"] = [*result["explanation"], *ending.lines]
        result["explanation_parts"] = [*result["explanation_parts"], *ending.parts]
    return Outcome(entered, result, after)


def check_storyteller(table: Table, state: DixitState, storyteller: str) -> str:
    """Return the storyteller once it is their turn: to the left of the last one."""
    expected = next_storyteller(table, state)
    if expected is not None and storyteller != expected:
        raise RuleViolation(
            "wrong_storyteller",
            "It is {expected}'s turn to be the storyteller (to the left of {last}), not {value}.",
            "storyteller",
            expected=expected,
            last=state.get("last_storyteller"),
            value=quote(storyteller),
        )
    return storyteller


def check_positions(table: Table, storyteller: str, owners: list[str]) -> list[str]:
    """Return the cards' owners once each player laid as many cards as they lay."""
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


def check_votes(
    table: Table, storyteller: str, positions: list[str], sent: dict[str, Vote]
) -> dict[str, Vote]:
    """Return every voter's vote in seat order, once each voter but the storyteller voted."""
    if storyteller in sent:
        raise RuleViolation(
            "storyteller_voted",
            "{storyteller} is the storyteller and does not vote (got {value}).",
            f"votes.{storyteller}",
            storyteller=storyteller,
            value=quote(sent[storyteller]),
        )
    votes: dict[str, Vote] = {}
    for voter in table.players:
        if voter in sent:
            votes[voter] = check_vote(table, voter, sent[voter], positions)
    for voter in table.players:
        if voter != storyteller and voter not in votes:
            raise RuleViolation(
                "missing_vote",
                "{voter} has not voted; every player but the storyteller votes once.",
                f"votes.{voter}",
                voter=voter,
            )
    return votes


def check_vote(table: Table, voter: str, value: Vote, positions: list[str]) -> Vote:
    """Return one voter's vote: one position, or up to two under the Odyssey rule, none own."""
    where = f"votes.{voter}"
    paired = two_votes(table.rules, table.size)
    if isinstance(value, list) and not paired:
        refuse_vote_list(table, voter, value)
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
    for number in picks:
        if not 1 <= number <= len(positions):
            raise RuleViolation(
                "vote_out_of_range",
                "{voter} voted for position {value}, but the positions are 1 to {count}.",
                where,
                voter=voter,
                value=number,
                count=len(positions),
            )
    if len(set(picks)) != len(picks):
        raise RuleViolation(
            "duplicate_vote",
            "{voter} put both votes on position {value}; two votes go to two different positions.",
            where,
            voter=voter,
            value=picks[0],
        )
    for number in picks:
        if positions[number - 1] == voter:
            raise RuleViolation(
                "vote_own_card",
                "{voter} voted for position {value}, which is {voter}'s own card.",
                where,
                voter=voter,
                value=number,
            )
    return picks if paired else picks[0]


def refuse_vote_list(table: Table, voter: str, value: list[int]) -> NoReturn:
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


def next_state(table: Table, state: DixitState, storyteller: str) -> DixitState:
    """Pass the storyteller on, count the turn, and refill the hands from the draw pile."""
    return {
        **state,
        "last_storyteller": storyteller,
        "turns": state.get("turns", 0) + 1,
        **after_turn(table.rules, state, table.size),
    }
