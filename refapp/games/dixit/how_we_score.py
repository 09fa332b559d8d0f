"""What a Dixit table's house rules mean, said in sentences: the "How we score" page."""

from __future__ import annotations

from collections.abc import Mapping

from ..game import Account, Table
from ..registry import get_game
from .deck import deck_size, first_draw_pile, hand_size, position_count, turns_from_pile
from .ending import last_turn
from .rules import DixitRules
from .scoring import FOUND_POINTS, OTHERS_POINTS, SINGLE_VOTE_POINT, VOTE_POINT, bonus_cap
from .table_view import TWO_VOTES_FROM, two_votes

#: the game's slug: its registered ``Game`` says the seat range (``player_range``)
SLUG = "dixit"


def sentences(table: Table, topics: Mapping[str, str]) -> list[tuple[str, Account]]:
    """Return the table's house rules in sentences under the game's topics, in their order."""
    said = {"table": players_and_cards(table), "voting": voting(table), "end": ending(table)}
    return [(topics[key], said[key]) for key in topics]


def players_and_cards(table: Table) -> Account:
    """Say who may sit at the table, the deck, the hands and the cards laid out each turn."""
    house = DixitRules.of(table.rules)
    account = Account()
    least, most = get_game(SLUG).player_range(house)
    account.say(
        "These rules are for {least} to {most} players; this table has {players}.",
        least=least,
        most=most,
        players=table.size,
    )
    deck = {
        "cards": deck_size(house),
        "hand": hand_size(table.size),
        "pile": first_draw_pile(house, table.size),
    }
    if house.large_table:
        account.say(
            "Two boxes, {cards} picture cards: each player holds {hand}, and the draw pile "
            "starts at {pile}.",
            **deck,
        )
    else:
        account.say(
            "One box, {cards} picture cards: each player holds {hand}, and the draw pile "
            "starts at {pile}.",
            **deck,
        )
    if table.size == 3:
        account.say(
            "With three players each player but the storyteller lays two cards: {positions} "
            "cards are laid out each turn.",
            positions=position_count(table.size),
        )
    else:
        account.say(
            "Each player but the storyteller lays one card: {positions} cards are laid out "
            "each turn.",
            positions=position_count(table.size),
        )
    return account


def voting(table: Table) -> Account:
    """Say how many votes each player casts, the points for finding, and the vote bonus."""
    house = DixitRules.of(table.rules)
    account = Account()
    if two_votes(house, table.size):
        account.say(
            "Each player but the storyteller votes for one or two different cards; a finder "
            "who voted for a single card gets {single} more point.",
            single=SINGLE_VOTE_POINT,
        )
    elif house.two_votes_large_game:
        account.say(
            "Each player but the storyteller votes once: the second vote of the Odyssey rule "
            "comes only from {least} players, and this table has {players}.",
            least=TWO_VOTES_FROM,
            players=table.size,
        )
    else:
        account.say(
            "Each player but the storyteller votes once, for the card they think is the "
            "storyteller's."
        )
    account.say(
        "If all or none find the storyteller's card, the storyteller scores 0 and every other "
        "player {others}; otherwise the storyteller and each finder score {found}.",
        others=OTHERS_POINTS,
        found=FOUND_POINTS,
    )
    cap = bonus_cap(house)
    if cap is None:
        account.say(
            "Every other player gets {point} point for each vote on their cards, with no cap.",
            point=VOTE_POINT,
        )
    elif cap == 0:
        account.say("Votes on other players' cards bring them no points.")
    else:
        account.say(
            "Every other player gets {point} point for each vote on their cards, at most {cap} "
            "in one turn.",
            point=VOTE_POINT,
            cap=cap,
        )
    return account


def ending(table: Table) -> Account:
    """Say the ends this table plays to: the target, the rounds of storytellers, the deck."""
    house = DixitRules.of(table.rules)
    account = Account()
    if house.target_score is None:
        account.say("There is no target score.")
    else:
        account.say(
            "The game ends after the turn in which someone reaches {target} points.",
            target=house.target_score,
        )
    last = last_turn(house, table.size)
    if last is not None:
        account.say(
            "The game ends after round {rounds} of storytellers, turn {turn} at this table, if "
            "it has not ended before: every player is the storyteller as often as the others.",
            rounds=house.end_after_rounds,
            turn=last,
        )
    if house.deck_exhausted == "end":
        account.say(
            "The game ends after the turn whose refill takes the last card of the draw pile or "
            "needs more cards than it holds: turn {turn} at this table, if it has not ended "
            "before.",
            turn=turns_from_pile(first_draw_pile(house, table.size), table.size),
        )
    elif house.deck_exhausted == "end_when_short":
        account.say(
            "The game ends after the turn whose refill needs more cards than the draw pile holds "
            "(a refill that takes its last card does not end it): turn {turn} at this table, if "
            "it has not ended before.",
            turn=turns_from_pile(first_draw_pile(house, table.size), table.size, "end_when_short"),
        )
    else:
        account.say(
            "When the draw pile runs short, the discards are shuffled into it and the game goes on."
        )
    account.say("Whoever has the highest total at the end wins; players tied on it all win.")
    return account
