"""Dixit's deck bookkeeping: hands, the cards laid each turn, the draw pile and its end."""

from __future__ import annotations

from collections.abc import Mapping

from .rules import DixitRules
from .shapes import DixitState

#: the picture cards of one box, and of two boxes for a large table
DECK_SIZE = 84
LARGE_DECK_SIZE = 168


def deck_size(rules: Mapping[str, object]) -> int:
    """Return the picture cards in play: 168 with the large-table rule, else 84."""
    return LARGE_DECK_SIZE if DixitRules.of(rules).large_table else DECK_SIZE


def hand_size(players: int) -> int:
    """Return the cards each player holds: 7 with three players, else 6."""
    return 7 if players == 3 else 6


def cards_laid(players: int) -> int:
    """Return the cards each player other than the storyteller lays: two with three players."""
    return 2 if players == 3 else 1


def position_count(players: int) -> int:
    """Return how many cards are laid out each turn: five with three players, else one each."""
    return 1 + cards_laid(players) * (players - 1)


def first_draw_pile(rules: Mapping[str, object], players: int) -> int:
    """Return the draw pile once every hand is dealt."""
    return deck_size(rules) - players * hand_size(players)


def first_state(rules: Mapping[str, object], players: int) -> DixitState:
    """Return the state before the first turn: no storyteller yet, every hand dealt."""
    return {
        "last_storyteller": None,
        "turns": 0,
        "draw_pile": first_draw_pile(rules, players),
        "discard_pile": 0,
        "reshuffles": 0,
        "deck_exhausted": False,
    }


#: the ways the draw pile may end the game: after the turn whose refill takes its last card, or
#: (as refapp counted before; kept for the sessions it recorded) only one whose refill falls short
DECK_ENDS = ("end", "end_when_short")


def turns_from_pile(draw_pile: int, players: int, mode: str = "end") -> int:
    """Return how many more turns a draw pile lasts, the turn that ends the game included.

    A refill that needs more cards than the pile holds is not made but still ends the game after
    its turn, so a pile of 4 at five players lasts one more turn, as does a pile of exactly 5
    (under ``end_when_short`` that pile of 5 lasts two: the refill after it falls short).
    """
    laid = position_count(players)
    if mode == "end_when_short":
        return draw_pile // laid + 1
    return max(1, -(-draw_pile // laid))


def deck_ended(rules: Mapping[str, object], state: DixitState) -> bool:
    """Return True when the deck has ended the game: a refill took its last card, or fell short.

    A pile at 0 under ``deck_exhausted: "end"`` counts too, for states stored before the flag was
    set on the turn that emptied it.
    """
    if state.get("deck_exhausted"):
        return True
    return DixitRules.of(rules).deck_exhausted == "end" and state.get("draw_pile") == 0


def after_turn(rules: Mapping[str, object], state: DixitState, players: int) -> DixitState:
    """Return the deck after a turn: laid cards discarded and every hand refilled.

    Under ``deck_exhausted: "end"`` the turn whose refill takes the last card (or needs more than
    the pile holds, and is then not made) marks the deck exhausted; otherwise a short pile takes
    the discards back, reshuffled, before the refill.
    """
    laid = position_count(players)
    draw, discard = state["draw_pile"], state["discard_pile"] + laid
    mode = DixitRules.of(rules).deck_exhausted
    if mode in DECK_ENDS:
        short = draw < laid
        return {
            "discard_pile": discard,
            "draw_pile": draw if short else draw - laid,
            "deck_exhausted": short or (mode == "end" and draw == laid),
        }
    if draw >= laid:
        return {"discard_pile": discard, "draw_pile": draw - laid}
    return {
        "discard_pile": 0,
        "draw_pile": draw + discard - laid,
        "reshuffles": state.get("reshuffles", 0) + 1,
    }
