"""What ten tricks tell: the friend, the opposition's points, the holders.

The friend of a card call is whoever played the card (nobody: it is in the kitty, a self friend);
the first-trick friend is trick 1's winner. The opposition's points are the point cards in the
tricks it took; the mighty and the joker are held by whoever played them, and the cards nobody
played are the kitty's. Values the table entered must agree (``tricks_disagree``); the hand is
then scored exactly as one entered with these totals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleViolation, quote
from ..bidding.friend import friend_player
from ..cards import DECK, JOKER, Face
from ..house_rules.rules import MightyTable
from ..plurals import TRICKS_DISAGREE, in_tricks
from ..shapes import Friend, MightyInput, TricksResult
from .checks import referee_tricks
from .holders import holder_words
from .log import PlayLog


@dataclass(frozen=True)
class Totals:
    """A complete hand's tricks, summed up."""

    friend: str | None  # the real friend's name (None: declared none, or a self friend)
    opposition_points: int
    opposition_tricks: tuple[int, ...]  # the tricks (from 1) whose point cards it took
    mighty_holder: str
    joker_holder: str
    kitty: tuple[str, ...]

    def as_result(self) -> TricksResult:
        """Return the result fields the tricks derive."""
        return {
            "opposition_points": self.opposition_points,
            "mighty_holder": self.mighty_holder,
            "joker_holder": self.joker_holder,
            "friend": self.friend,
            "kitty": list(self.kitty),
        }


def settle(entered: MightyInput, log: PlayLog) -> Totals:
    """Derive the friend, points and holders from ten tricks, check and fill the entered ones.

    entered has the friend (the ruling side is needed to count the opposition's points).

    Raises ``tricks_disagree`` naming the first entered value the tricks contradict.
    """
    boss = log.boss
    entered["friend"] = _settle_friend(entered["friend"], log)
    friend = friend_player(entered["friend"], boss)
    ruling = (boss, friend)
    taken = [trick for trick in log.finished if trick.decision.winner not in ruling]
    totals = Totals(
        friend=friend,
        opposition_points=sum(len(trick.decision.points) for trick in taken),
        opposition_tricks=tuple(trick.number for trick in taken if trick.decision.points),
        mighty_holder=_holder(log.specials.mighty, log, friend),
        joker_holder=_holder(JOKER, log, friend),
        kitty=tuple(card for card in DECK if card not in log.played and card not in log.absent),
    )
    _agree_points(entered.get("opposition_points"), totals)
    _agree_holder("mighty_holder", log.specials.mighty, entered.get("mighty_holder"), totals, log)
    _agree_holder("joker_holder", JOKER, entered.get("joker_holder"), totals, log)
    entered["opposition_points"] = totals.opposition_points
    entered["mighty_holder"] = totals.mighty_holder
    entered["joker_holder"] = totals.joker_holder
    return totals


def reveal_friend(entered: MightyInput, log: PlayLog) -> None:
    """Name the friend of a card call left out of a dry run once the card has been played."""
    friend = entered.get("friend")
    if friend is None or "card" not in friend or "player" in friend or "kitty" in friend:
        return
    seen = log.played.get(friend["card"])
    if seen is not None:
        entered["friend"] = {"card": friend["card"], "player": seen[1]}


def _settle_friend(friend: Friend, log: PlayLog) -> Friend:
    """Return the friend the tricks show, in the entered form; refuse one they contradict."""
    if "first_trick" in friend:
        first = log.finished[0].decision.winner
        if friend["first_trick"] != first:
            raise RuleViolation(
                "tricks_disagree",
                "{winner} took trick 1, so the first-trick friend is {winner}, not {value}.",
                "friend.first_trick",
                winner=first,
                value=quote(friend["first_trick"]),
            )
        return friend.copy()
    if "card" not in friend:
        return friend.copy()
    card = friend["card"]
    seen = log.played.get(card)
    if "kitty" in friend:
        if seen is not None:
            raise RuleViolation(
                "tricks_disagree",
                "{card} was played by {player} in trick {trick}, so it was not in the kitty.",
                "friend.kitty",
                card=Face(card),
                player=seen[1],
                trick=seen[0] + 1,
            )
        return friend.copy()
    if "player" in friend:
        _agree_friend_player(card, friend["player"], seen, log.boss)
        return friend.copy()
    if seen is None:
        return {"card": card, "kitty": True}
    return {"card": card, "player": seen[1]}


def _agree_friend_player(card: str, player: str, seen: tuple[int, str] | None, boss: str) -> None:
    """Refuse a friend.player other than the one who played the card (or the boss if nobody)."""
    if seen is not None and seen[1] != player:
        raise RuleViolation(
            "tricks_disagree",
            "{card} was played by {player} in trick {trick}, so the friend is {player}, "
            "not {value}.",
            "friend.player",
            card=Face(card),
            player=seen[1],
            trick=seen[0] + 1,
            value=quote(player),
        )
    if seen is None and player != boss:
        raise RuleViolation(
            "tricks_disagree",
            "Nobody played {card}, so it is in the kitty and the boss {boss} is their own "
            "friend; the friend cannot be {value}.",
            "friend.player",
            card=Face(card),
            boss=boss,
            value=quote(player),
        )


def _holder(card: str, log: PlayLog, friend: str | None) -> str:
    """Return who held card: the side of whoever played it, or the kitty if nobody did."""
    seen = log.played.get(card)
    if seen is None:
        return "kitty"
    if seen[1] == log.boss:
        return "boss"
    return "friend" if seen[1] == friend else "opposition"


def _agree_points(value: int | None, totals: Totals) -> None:
    """Refuse entered opposition_points other than the tricks give."""
    if value is None or value == totals.opposition_points:
        return
    if not totals.opposition_tricks:
        raise RuleViolation(
            "tricks_disagree",
            "The tricks give the opposition no point cards, not {value}.",
            "opposition_points",
            value=value,
        )
    raise RuleViolation(
        "tricks_disagree",
        in_tricks(TRICKS_DISAGREE, totals.opposition_points, len(totals.opposition_tricks)),
        "opposition_points",
        points=totals.opposition_points,
        tricks=", ".join(str(number) for number in totals.opposition_tricks),
        value=value,
    )


def _agree_holder(key: str, card: str, value: str | None, totals: Totals, log: PlayLog) -> None:
    """Refuse an entered holder of card other than the tricks show."""
    holder = getattr(totals, key)
    if value is None or value == holder:
        return
    seen = log.played.get(card)
    if seen is None:
        raise RuleViolation(
            "tricks_disagree",
            "Nobody played {card}, so it ended in the kitty, not with {value_t}.",
            key,
            card=Face(card),
            value_t=holder_words(value),
        )
    raise RuleViolation(
        "tricks_disagree",
        "{card} was played by {player} in trick {trick}, so it ended with {holder_t}, not "
        "with {value_t}.",
        key,
        card=Face(card),
        player=seen[1],
        trick=seen[0] + 1,
        holder_t=holder_words(holder),
        value_t=holder_words(value),
    )


#: a hand's tricks and, once all ten are in with the friend named, what they show
Refereed = tuple[PlayLog, Totals | None]
#: a hand's ten tricks and what they show
Settled = tuple[PlayLog, Totals]


def play_tricks(
    table: MightyTable,
    sent: object,
    entered: MightyInput,
    partial: bool,
    absent: frozenset[str] = frozenset(),
) -> Refereed:
    """Referee a hand's ``tricks`` and store them in entered; settle the hand once all ten are in.

    ``table`` is the hand's players; ``absent`` the cards a table of four plays without.
    Returns the tricks and, when all ten are in and the friend is named, what they show.
    """
    log = referee_tricks(table, entered.get("contract"), sent, partial, absent)
    entered["tricks"] = log.as_input()
    if log.complete and "friend" in entered:
        return log, settle(entered, log)
    reveal_friend(entered, log)
    return log, None


def tricks_result(log: PlayLog, totals: Totals | None) -> TricksResult:
    """Return the result fields of a hand's tricks: each finished trick, then what they show."""
    result: TricksResult = {"tricks": [trick.as_dict() for trick in log.finished]}
    if totals is not None:
        result.update(totals.as_result())
    if not log.complete:
        result["next_player"] = log.next_player
        result["must_play"] = list(log.must_play)
    return result
