"""Every error code the app raises or answers: its HTTP status, its kind and what it means.

The API's status for a code is read here (``status_of``), so a code missing from ``CODES`` is
a programming error that fails loudly instead of silently becoming a 422. Pure: no Flask, no
database. docs/errors.md is generated from this table (``refapp/error_docs.py``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Kind(StrEnum):
    """What sort of refusal a code is; each error type in ``errors.py`` raises one kind."""

    MALFORMED = "malformed input"
    RULE = "broken rule"
    NOT_FOUND = "not found"
    CONFLICT = "conflict"
    BUSY = "busy"
    ACCESS = "access"
    REQUEST = "request"
    SERVER = "server"


class Code(NamedTuple):
    """One code's HTTP status, kind and one-line meaning."""

    status: int
    kind: Kind
    meaning: str


class UnknownCode(KeyError):
    """A code that is not in ``CODES``: a programming error, never answered as a guess."""


M, R, N, C = Kind.MALFORMED, Kind.RULE, Kind.NOT_FOUND, Kind.CONFLICT

_MALFORMED = {
    "invalid_json": (400, "the body (or a part of an import) is not the JSON object it must be"),
    "missing_field": (422, "a field the input needs is absent or null"),
    "invalid_value": (422, "a field has the wrong type, is out of range or is not allowed there"),
    "invalid_rules": (422, "a house rule, preset or saved rule set is unknown or out of range"),
    "unknown_game": (422, "`game` names no game refapp referees"),
    "unknown_player": (422, "the round names a player who is not seated at the table"),
    "duplicate_player": (422, "a player is seated twice (names equal after normalising)"),
    "invalid_card": (422, "a Mighty card is not written as a suit and rank (`H10`) or `JK`"),
    "invalid_rank": (422, "a Dalmuti card is not a rank 1 to 12 or `J` (jester)"),
    "invalid_hand": (422, "a Mighty dealt hand has the wrong size, a non-card or a card twice"),
    "invalid_points": (422, "Mighty `opposition_points` is not a whole number of point cards"),
    "import_disagrees": (422, "an export contradicts itself: its stored results or trail differ"),
}

_RULES = {
    "bad_player_count": "the game is not played by this many players",
    "too_many_rounds": "a session holds at most 10,000 rounds",
    "too_many_rule_sets": "the table keeps no more saved house rules",
    "session_full": "a session's stored rounds or history would pass their size limit",
    "rename_unsafe": "the new name would change more than the name in one of the sessions",
    "database_not_empty": "a backup is restored only into an empty database (or with --force)",
    # Dalmuti
    "card_not_in_hand": "a card is played or given that the hand does not hold",
    "draw_tie": "players tied in the draw for seats must draw again",
    "finish_order_invalid": "the finishing order leaves a player out or names one twice",
    "jester_in_tribute": "jesters never change hands in the tax",
    "mixed_ranks": "a play mixes ranks (only jesters may join another rank)",
    "play_not_better": "a play does not beat the play before it with a lower number",
    "revolution_kind_not_allowed": "this revolution (plain or greater) is not allowed here",
    "revolution_without_jesters": "a revolution is declared without holding both jesters",
    "supply_exceeded": "more copies of a rank are entered than the deck has",
    "tribute_not_allowed": "a tribute is entered in a hand where no tax is paid",
    "tribute_not_best": "a tribute to a greater player is not the giver's best cards",
    "tribute_required": "the tax is due this hand but its tribute is missing",
    "wrong_hand_size": "a dealt hand does not have the size its seat gets",
    "wrong_play_count": "a play is empty or not as many cards as the play before",
    "wrong_tribute_count": "a tribute is not the number of cards the role gives",
    # Mighty
    "auction_not_finished": "the bidding log stops while someone may still bid",
    "bid_after_pass": "a player who passed bids again in the same auction",
    "bid_not_higher": "a bid does not beat the highest bid so far",
    "bid_too_high": "a bid is more than the point cards in the deck",
    "bid_too_low": "a bid is below the auction's minimum",
    "boss_not_auction_winner": "the boss named is not the one who won the auction",
    "card_played_twice": "a card appears twice in the tricks",
    "contract_lowered": "the contract is lower than the winning bid",
    "friend_card_held_by_boss": "the friend card was the boss's own and this table forbids it",
    "friend_type_not_allowed": "this table does not allow that way of calling a friend",
    "holder_conflict": "who held the mighty, joker or friend card contradicts the points",
    "joker_call_ignored": "the joker was called and its holder kept it",
    "misdeal_not_allowed": "a misdeal is off at this table or the hand is worth too much",
    "out_of_turn": "a bid or a play is made by someone whose turn it is not",
    "revoke": "a player did not follow suit while holding the suit led",
    "tricks_disagree": "the recorded tricks contradict the round's totals or friend",
    "tricks_incomplete": "a recorded hand does not have all 10 tricks of 5 plays",
    "trump_change_too_cheap": "changing the trump needs a higher contract",
    "trump_in_first_trick": "trump is played in trick 1 where this table forbids it",
    "trump_led_in_first_trick": "the boss leads trump in trick 1 while holding another suit",
    "trump_locked": "the auction's win locks the trump and another is named",
    "wrong_dealer": "the dealer named is not the one whose turn it is to deal",
    "wrong_leader": "a trick is led by someone other than its leader",
    # Dixit
    "duplicate_vote": "a voter is listed twice or puts two votes on one card",
    "missing_vote": "a player other than the storyteller has not voted",
    "storyteller_voted": "the storyteller votes",
    "too_many_votes": "a player casts more votes than the house rules allow",
    "vote_out_of_range": "a vote names a position that is not on the table",
    "vote_own_card": "a player votes for their own card",
    "wrong_card_count": "a player lays the wrong number of cards, or positions do not add up",
    "wrong_storyteller": "the storyteller named is not the one whose turn it is",
}

_CONFLICTS = {
    "stale_round": "the session moved on from what the client saw: `expected_round` is not the "
    "next round, or `If-Match` names a version another write has moved on from",
    "stale_tag": "`If-Match` names a player or saved house rules that have changed since",
    "lost_race": "another write stored the same round, name or rows at the same moment",
    "not_last_round": "only the last round can be undone",
    "session_finished": "the session (or the game) is over: no round can follow",
    "player_conflict": "a rename or merge collides with another player at the same session",
}

_OTHERS = {
    "not_found": Code(404, N, "no such session, round, player or saved house rules"),
    "busy": Code(503, Kind.BUSY, "a write waited past the busy timeout; nothing was stored"),
    "sign_in_required": Code(401, Kind.ACCESS, "the table's password is missing or wrong"),
    "too_many_attempts": Code(429, Kind.ACCESS, "too many wrong passwords: wait `Retry-After`"),
    "method_not_allowed": Code(405, Kind.REQUEST, "the route does not take this HTTP method"),
    "too_large": Code(413, Kind.REQUEST, "the request body is larger than its route accepts"),
    "bad_request": Code(400, Kind.REQUEST, "the request is not well-formed HTTP (server front)"),
    "request_timeout": Code(408, Kind.REQUEST, "headers or body arrived too slowly (front)"),
    "headers_too_large": Code(431, Kind.REQUEST, "the request's headers are too large (front)"),
    "not_implemented": Code(501, Kind.REQUEST, "a transfer encoding other than chunked (front)"),
    "http_error": Code(
        400, Kind.REQUEST, "another HTTP error, answered with that error's own status"
    ),
    "unavailable": Code(503, Kind.SERVER, "the app server is down (answered by nginx)"),
    "server_error": Code(500, Kind.SERVER, "an unexpected failure, logged; nothing was stored"),
}

#: every code: its status, kind and meaning (add codes, never rename: the API is stable)
CODES: dict[str, Code] = {
    **{code: Code(status, M, meaning) for code, (status, meaning) in _MALFORMED.items()},
    **{code: Code(422, R, meaning) for code, meaning in _RULES.items()},
    **{code: Code(409, C, meaning) for code, meaning in _CONFLICTS.items()},
    **_OTHERS,
}


def lookup(code: str) -> Code:
    """Return a code's entry, or raise ``UnknownCode`` for one that is not registered."""
    try:
        return CODES[code]
    except KeyError:
        raise UnknownCode(f"error code {code!r} is not in refapp/games/codes.py") from None


def status_of(code: str) -> int:
    """Return the HTTP status the API answers a code with."""
    return lookup(code).status
