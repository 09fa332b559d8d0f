"""Refereeing a hand's tricks play by play: turns, cards, what plays prove.

Every card played later was in that hand all along, so a later play proves an earlier break:
a card of a suit the player did not follow is a ``revoke``, the joker after a call it did not
answer is ``joker_call_ignored``, and a non-trump after trump in trick 1 is
``trump_led_in_first_trick`` (the boss's lead) or, when the table allows no trump in trick 1,
``trump_in_first_trick``. Plays are checked in the order they were played and the first play
that breaks a rule is reported; within one play a revoke comes before the trick-1 codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import MalformedInput, RuleViolation, quote
from ...inputs import sequence
from ..cards import JOKER, RANKS, TRUMP_NAMES, Face
from ..house_rules.rules import MightyTable
from ..seats.deal import check_in_deck
from ..shapes import Lead, MustPlay
from .log import PlayLog, Trick
from .trick import (
    TRICKS,
    Play,
    Specials,
    call_has_power,
    decide_trick,
    led_suit,
    read_play,
    suit_of,
)


def referee_tricks(
    table: MightyTable,
    contract: Lead | None,
    raw: object,
    partial: bool,
    absent: frozenset[str] = frozenset(),
) -> PlayLog:
    """Check a hand's ``tricks`` play by play and return what they show.

    ``table`` is the hand's players (one card each a trick); ``absent`` the cards the table
    plays without (``card_not_in_deck``). A stored hand (not ``partial``) needs all ten tricks
    (``tricks_incomplete``).
    """
    if contract is None:
        raise MalformedInput(
            "missing_field",
            "The field {path} is required: the boss leads trick 1 and the trump decides "
            "the tricks.",
            "contract",
            path="contract",
        )
    referee = _Referee(table, contract["boss"], Specials.of(contract["trump"], table.rules))
    referee.log.absent = absent
    log = referee.run(sequence(raw, "tricks"))
    if not partial and not log.complete:
        raise RuleViolation(
            "tricks_incomplete",
            "A recorded hand's tricks must be all 10, each with {plays} plays; {count} are "
            "finished.",
            "tricks",
            plays=table.size,
            count=len(log.finished),
        )
    return log


class _Referee:
    """Walks through the plays in order, remembering what they prove about each hand."""

    def __init__(self, table: MightyTable, boss: str, specials: Specials) -> None:
        self.table = table
        self.specials = specials
        self.no_trump_at_all = table.rules.trick1_trump == "none"
        self.log = PlayLog(boss, specials)
        #: player -> {suit: index of the first trick where they did not follow it}
        self.void: dict[str, dict[str, int]] = {}
        #: player -> index of the trick whose joker call they answered with another card
        self.skipped_call: dict[str, int] = {}
        #: the boss's trump lead in trick 1, and the trumps others played there (no trump)
        self.boss_trump_lead: str | None = None
        self.first_trumps: dict[str, str] = {}

    def run(self, tricks: Sequence[object]) -> PlayLog:
        """Check every play of every trick, then tell who plays next and what they must."""
        for index, raw in enumerate(tricks):
            plays = self._trick_plays(raw, index)
            current: list[Play] = []
            self.log.current = current
            for position, raw_play in enumerate(plays):
                self._check_size(index, position, plays)
                current.append(self._play(raw_play, index, position, current))
            if len(current) == self.table.size:
                self._finish(index, current)
            elif index < len(tricks) - 1:
                self._unfinished(index, len(current))
        self._next()
        return self.log

    def _trick_plays(self, raw: object, index: int) -> list[object]:
        """Return a trick's plays; a hand has at most 10 tricks."""
        if index >= TRICKS:
            raise MalformedInput(
                "invalid_value",
                "A hand has at most {most} tricks; trick {trick} is one too many.",
                "tricks",
                most=TRICKS,
                trick=index + 1,
            )
        return sequence(raw, f"tricks.{index}")

    def _check_size(self, index: int, position: int, plays: Sequence[object]) -> None:
        """Refuse a play past one card from each player in a trick (before its turn is checked)."""
        if position >= self.table.size:
            raise MalformedInput(
                "invalid_value",
                "Trick {trick} has {count} plays; a trick has one card from each of the "
                "{most} players.",
                f"tricks.{index}",
                trick=index + 1,
                count=len(plays),
                most=self.table.size,
            )

    def _unfinished(self, index: int, count: int) -> None:
        """Refuse a trick left unfinished when another one follows it."""
        raise MalformedInput(
            "invalid_value",
            "Trick {trick} has only {count} plays, yet trick {next} follows it; a trick has "
            "one card from each of the {most} players.",
            f"tricks.{index}",
            trick=index + 1,
            count=count,
            next=index + 2,
            most=self.table.size,
        )

    def _play(self, raw: object, index: int, position: int, current: list[Play]) -> Play:
        """Check one play: its form, its turn, a new card, and what it proves."""
        where = f"tricks.{index}.{position}"
        play = read_play(raw, where, position, self.specials, self._seated)
        self._check_turn(play, index, current, where)
        check_in_deck(play.card, f"{where}.card", self.log.absent)
        self._check_new_card(play, where)
        self._check_revoke(play, index, where)
        self._check_call(play, index, where)
        self._check_first_trick(play, index, where)
        self._note(play, index, current)
        return play

    def _seated(self, value: object, where: str) -> str:
        """Return a play's player, who must be seated."""
        if value is None:
            raise MalformedInput(
                "missing_field", "The field {path} is required.", where, path=where
            )
        return self.table.player(value, where)

    def _leader(self, index: int) -> str:
        """Return who leads trick index (from 0): the boss, else the last trick's winner."""
        won = self.log.finished[index - 1] if index else None
        return won.plays[won.decision.index].seated if won else self.log.boss

    def _check_turn(self, play: Play, index: int, current: list[Play], where: str) -> None:
        """Refuse a lead by the wrong player, or a play out of the order of the table."""
        if not current:
            expected = self._leader(index)
            if play.player == expected:
                return
            if index == 0:
                raise RuleViolation(
                    "wrong_leader",
                    "The boss {expected} leads trick 1, not {value}.",
                    f"{where}.player",
                    expected=expected,
                    value=quote(play.player),
                )
            raise RuleViolation(
                "wrong_leader",
                "{expected} took trick {previous} and leads trick {trick}, not {value}.",
                f"{where}.player",
                expected=expected,
                previous=index,
                trick=index + 1,
                value=quote(play.player),
            )
        expected = self.table.left_of(current[-1].seated)
        if play.player == expected:
            return
        if any(done.player == play.player for done in current):
            raise RuleViolation(
                "out_of_turn",
                "{value} already played in trick {trick}; each player plays one card a trick.",
                f"{where}.player",
                value=quote(play.player),
                trick=index + 1,
            )
        raise RuleViolation(
            "out_of_turn",
            "In trick {trick} {expected} plays after {previous}, not {value}.",
            f"{where}.player",
            trick=index + 1,
            expected=expected,
            previous=current[-1].player,
            value=quote(play.player),
        )

    def _check_new_card(self, play: Play, where: str) -> None:
        """Refuse a card already played in this hand."""
        if play.card in self.log.played:
            trick, player = self.log.played[play.card]
            raise RuleViolation(
                "card_played_twice",
                "{card} was already played by {player} in trick {trick}; no card is played twice.",
                f"{where}.card",
                card=Face(play.card),
                player=player,
                trick=trick + 1,
            )

    def _check_revoke(self, play: Play, index: int, where: str) -> None:
        """Refuse a card of a suit the player did not follow before: they held it then."""
        suit = suit_of(play.card)
        earlier = self.void.get(play.seated, {}).get(suit) if suit else None
        if suit is None or earlier is None:
            return
        raise RuleViolation(
            "revoke",
            "Revoke: {player} did not follow {suit_t} in trick {trick}, yet plays {card} in "
            "trick {later}, so they held it then.",
            where,
            player=play.player,
            suit_t=TRUMP_NAMES[suit],
            trick=earlier + 1,
            card=Face(play.card),
            later=index + 1,
        )

    def _check_call(self, play: Play, index: int, where: str) -> None:
        """Refuse the joker from a player who answered its call with another card."""
        earlier = self.skipped_call.get(play.seated)
        if play.card != JOKER or earlier is None:
            return
        called = self.log.finished[earlier]
        raise RuleViolation(
            "joker_call_ignored",
            "{leader} called the joker with {call_card} in trick {trick} and {player} did not "
            "play it, yet plays it in trick {later}.",
            where,
            leader=called.leader,
            call_card=Face(called.plays[0].card),
            trick=earlier + 1,
            player=play.player,
            later=index + 1,
        )

    def _check_first_trick(self, play: Play, index: int, where: str) -> None:
        """Refuse a non-trump from a player whose trump in trick 1 was not allowed."""
        if index == 0 or self.specials.is_trump(play.card):
            return
        if (
            play.player == self.log.boss
            and self.boss_trump_lead
            and not self.specials.free(play.card)
        ):
            raise RuleViolation(
                "trump_led_in_first_trick",
                "The boss {player} led trump ({led}) in trick 1, yet plays {card} in trick "
                "{later}: the boss may lead trump in trick 1 only with nothing but trump.",
                where,
                player=play.player,
                led=Face(self.boss_trump_lead),
                card=Face(play.card),
                later=index + 1,
            )
        if play.player in self.first_trumps:
            raise RuleViolation(
                "trump_in_first_trick",
                "{player} played trump ({trump_card}) in trick 1, where this table allows no "
                "trump, yet plays {card} in trick {later}, so they had another card.",
                where,
                player=play.player,
                trump_card=Face(self.first_trumps[play.seated]),
                card=Face(play.card),
                later=index + 1,
            )

    def _note(self, play: Play, index: int, current: list[Play]) -> None:
        """Remember what a checked play shows: the card, a suit not followed, a call, trump."""
        self.log.played[play.card] = (index, play.seated)
        if not current:
            if index == 0 and self._leads_trump(play):
                self.boss_trump_lead = play.card
            return
        lead = current[0]
        suit = led_suit(lead)
        free = self.specials.free(play.card)
        if not free and suit_of(play.card) != suit:
            self.void.setdefault(play.seated, {}).setdefault(suit, index)
        if not free and call_has_power(index + 1, lead, self.specials):
            self.skipped_call.setdefault(play.seated, index)
        if self._trumps_in_first_trick(index, suit, play.card):
            self.first_trumps[play.seated] = play.card

    def _trumps_in_first_trick(self, index: int, suit: str, card: str) -> bool:
        """Return True for a trump played on another suit's lead in trick 1 under no trump."""
        first = index == 0 and self.no_trump_at_all
        return first and suit != self.specials.trump and self.specials.is_trump(card)

    def _leads_trump(self, play: Play) -> bool:
        """Return True for a trump lead (a joker naming the trump suit counts)."""
        if play.card == JOKER:
            return self.specials.trump != "NT" and play.suit == self.specials.trump
        return self.specials.is_trump(play.card)

    def _finish(self, index: int, plays: list[Play]) -> None:
        """Decide a trick with all five plays in."""
        specials = self.specials
        decision = decide_trick(specials.trump, index + 1, plays, self.table.rules)
        self.log.finished.append(Trick(index + 1, tuple(plays), decision))
        self.log.current = []

    def _next(self) -> None:
        """Tell who plays next and what the referee knows they must play."""
        log = self.log
        if log.complete:
            return
        if not log.current:
            log.next_player = self._leader(len(log.finished))
            log.must_play = []
            return
        log.next_player = self.table.left_of(log.current[-1].seated)
        log.must_play = self._must_play(log.next_player, log.current)

    def _must_play(self, player: str, current: list[Play]) -> list[MustPlay]:
        """Return what player must play: follow the led suit unless shown void, the called joker."""
        lead = current[0]
        suit = led_suit(lead)
        must: list[MustPlay] = []
        if not self._shown_void(player, suit):
            must.append({"follow": suit})
        number = len(self.log.finished) + 1
        if call_has_power(number, lead, self.specials) and JOKER not in self.log.played:
            must.append({"joker_if_held": True})
        return must

    def _shown_void(self, player: str, suit: str) -> bool:
        """Return True when the tricks show player holds no card of suit."""
        if suit in self.void.get(player, {}):
            return True
        return sum(1 for card in self.log.played if suit_of(card) == suit) == len(RANKS)
