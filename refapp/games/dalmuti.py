"""The Great Dalmuti: ranks, the deal, revolutions, the tax, legal plays and the score of a hand.

A round is one hand: an optional revolution, the tax (tribute) when due, optionally the hands as
dealt (for the checks that need them) and the finishing order, which is the next hand's ranks.
The state carries the ranks (Greater Dalmuti first) and the number of hands played; the seats
follow the ranks, so the session's own player list is only the table's roster.

Cards are written as in the API: ranks 1..12 (lower is better) and ``"J"`` for a jester.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import (
    N_,
    Account,
    Game,
    Outcome,
    RuleOption,
    RuleViolation,
    Table,
    mapping,
    quote,
    require,
    sequence,
    signed,
)

JESTER = "J"
JESTER_RANK = 13
JESTER_COPIES = 2
RANKS = tuple(range(1, 13))
MIN_CARDS_EACH = 2

LANGUAGES = ("en", "de", "ko", "hu")

#: the cards' titles as printed (en / de / ko / hu), one line per rank, from the rules file
RANK_TABLE = """
1 Dalmuti / Dalmuti / 달무티 / Dalmuti
2 Archbishop / Erzbischof / 대주교 / érsek
3 Earl Marshal / Hofmarschall / 시종장 / marsall
4 Baroness / Baronin / 남작부인 / báróné
5 Abbess / Äbtissin / 수녀원장 / zárdafőnöknő
6 Knight / Ritter / 기사 / lovag
7 Seamstress / Näherin / 재봉사 / varrónő
8 Mason / Steinmetz / 석공 / kőműves
9 Cook / Köchin / 요리사 / szakácsnő
10 Shepherdess / Schafhirtin / 양치기 / pásztorlány
11 Stonecutter / Bergmann / 광부 / bányász
12 Peasant / Tagelöhner / 농노 / paraszt
J Jester / Narr / 어릿광대 / bolond
"""

ROLES = ("greater_dalmuti", "lesser_dalmuti", "merchant", "lesser_peasant", "greater_peasant")

#: the roles' titles (en / de / ko / hu): the Amigo rules, the Korean seed, the Hungarian seed.
#: The English ones are marked: messages and explanations carry them as ``_t`` values (their
#: catalog entries should follow the seeds); pages take the titles from ROLE_NAMES directly.
ROLE_TABLE = (
    ("greater_dalmuti", N_("Greater Dalmuti"), "Großer Dalmuti", "달무티", "Nagy Dalmuti"),
    ("lesser_dalmuti", N_("Lesser Dalmuti"), "Kleiner Dalmuti", "총리대신", "Kis Dalmuti"),
    ("merchant", N_("Merchant"), "Kaufmann", "상인", "Kereskedő"),
    ("lesser_peasant", N_("Lesser Peasant"), "Kleiner Diener", "소작농", "Kis Paraszt"),
    ("greater_peasant", N_("Greater Peasant"), "Großer Diener", "농노", "Nagy Paraszt"),
)


def _titles(rows: Iterable[Sequence[Any]]) -> dict[str, dict[Any, str]]:
    """Read title rows (key, en, de, ko, hu) into language -> key -> title."""
    titles: dict[str, dict[Any, str]] = {language: {} for language in LANGUAGES}
    for key, *names in rows:
        for language, name in zip(LANGUAGES, names, strict=True):
            titles[language][key] = name
    return titles


def _rank_rows(table: str) -> list[list[Any]]:
    """Split the rank table's lines ('rank en / de / ko / hu') into rows."""
    rows = []
    for line in table.strip().splitlines():
        head, rest = line.split(" ", 1)
        rows.append([head if head == JESTER else int(head), *rest.split(" / ")])
    return rows


RANK_NAMES: dict[str, dict[int | str, str]] = _titles(_rank_rows(RANK_TABLE))
ROLE_NAMES: dict[str, dict[str, str]] = _titles(ROLE_TABLE)

#: giving role -> (receiving role, cards given, "best" or "any")
TRIBUTE: dict[str, tuple[str, int, str]] = {
    "greater_peasant": ("greater_dalmuti", 2, "best"),
    "greater_dalmuti": ("greater_peasant", 2, "any"),
    "lesser_peasant": ("lesser_dalmuti", 1, "best"),
    "lesser_dalmuti": ("lesser_peasant", 1, "any"),
}
#: the keys of one exchange of the tax in the API's state (``tribute_due``), as API.md lists them
EXCHANGE_KEYS = ("from", "to", "count", "which")
#: a Dalmuti's return gift -> the peasant tribute it answers (sequential timing: may pass it on)
ANSWERS = {"greater_dalmuti": "greater_peasant", "lesser_dalmuti": "lesser_peasant"}

REVOLUTION_KINDS = ("plain", "greater")
SCORING_NOTE = {
    "players_below": N_("players below"),
    "players_below_plus_one": N_("players below + 1"),
}
#: the finishing places as words (ten players at most); a template also gets the bare number
ORDINALS = (
    N_("1st"),
    N_("2nd"),
    N_("3rd"),
    N_("4th"),
    N_("5th"),
    N_("6th"),
    N_("7th"),
    N_("8th"),
    N_("9th"),
    N_("10th"),
)
#: why no tax is paid (besides a revolution), shown inside a sentence
NO_TAX_RULE = N_("the house rule tax is off")
NO_TAX_FIRST_HAND = N_("the first hand, and tax_first_hand is off")
#: what holds too many copies of a card, in check_supply's message
HANDS_ENTERED = N_("The hands entered")
TRIBUTE_CARDS = N_("The tribute's cards")
HANDS_AND_TRIBUTE = N_("The hands entered and the tribute's cards")
CARDS_GIVEN = N_("The cards given")
THESE_CARDS = N_("These cards")


# -- cards and the deck ----------------------------------------------------------------------------


def parse_card(value: Any, where: str) -> int | str:
    """Return value as a card (1..12 or "J"), or raise ``invalid_rank`` quoting it."""
    if isinstance(value, str) and value.strip().upper() == JESTER:
        return JESTER
    number = value
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]{1,2}\s*", value):
        number = int(value)
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 12:
        return number
    raise RuleViolation(
        "invalid_rank",
        "{value} is not a card: a card is a rank from 1 (Dalmuti) to 12 (Peasant) or 'J' (Jester).",
        where,
        value=quote(value),
    )


def parse_cards(value: Any, where: str) -> list[int | str]:
    """Return a JSON list of cards (a bare card counts as a list of one), each checked."""
    items = value if isinstance(value, list) else [value]
    return [parse_card(item, where) for item in items]


def card_value(card: int | str) -> int:
    """Return a card's rank number: a jester alone counts 13, the worst."""
    return JESTER_RANK if card == JESTER else int(card)


def sort_cards(cards: Iterable[int | str]) -> list[int | str]:
    """Return cards best first, jesters last."""
    return sorted(cards, key=card_value)


def cards_text(cards: Iterable[int | str]) -> str:
    """Write cards for a sentence: '2, 4, J'."""
    return ", ".join(str(card) for card in cards)


def rank_name(card: int | str, language: str = "en") -> str:
    """Return a card's title in a language (en, de, ko, hu), e.g. 9 -> 'Cook'."""
    return RANK_NAMES.get(language, RANK_NAMES["en"])[card]


def role_name(role: str, language: str = "en") -> str:
    """Return a role's title in a language (en, de, ko, hu), e.g. 'Greater Peasant'."""
    return ROLE_NAMES.get(language, ROLE_NAMES["en"])[role]


def deck(removed: Iterable[int] = ()) -> Counter:
    """Return the deck as card -> copies: rank r has r copies, two jesters, minus removed ranks."""
    gone = set(removed)
    cards: Counter = Counter({rank: rank for rank in RANKS if rank not in gone})
    cards[JESTER] = JESTER_COPIES
    return cards


def deck_size(rules: Mapping[str, Any]) -> int:
    """Return how many cards are dealt under these house rules (80 without removed ranks)."""
    return sum(deck(settings(rules)["removed_ranks"]).values())


def over_supply(cards: Counter, removed: Iterable[int] = ()) -> tuple[int | str, int, int] | None:
    """Return (card, count, copies) for the first card seen more often than the deck holds."""
    copies = deck(removed)
    for card in sorted(cards, key=card_value):
        if cards[card] > copies[card]:
            return card, cards[card], copies[card]
    return None


def check_supply(cards: Counter, removed: Iterable[int], where: str, what: str) -> None:
    """Raise ``supply_exceeded`` if cards hold more copies of a card than the deck has.

    what names the cards in words, a constant marked with N_ ("These cards").
    """
    found = over_supply(cards, removed)
    if found is None:
        return
    card, count, copies = found
    if copies == 0 and card != JESTER:
        raise RuleViolation(
            "supply_exceeded",
            "{what_t} hold {count} copies of card {card}, but the deck has only {copies} "
            "(that rank is out of the deck).",
            where,
            what_t=what,
            count=count,
            card=quote(card),
            copies=copies,
        )
    raise RuleViolation(
        "supply_exceeded",
        "{what_t} hold {count} copies of card {card}, but the deck has only {copies}.",
        where,
        what_t=what,
        count=count,
        card=quote(card),
        copies=copies,
    )


# -- house rules, ranks and roles ------------------------------------------------------------------


def settings(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Return every house rule with the defaults filled in (the engine reads only this)."""
    effective = {option.key: option.default for option in Dalmuti.options}
    effective.update(rules)
    return effective


def role_of(position: int, count: int) -> str:
    """Return the role at a rank position (1-based) among count players.

    With three players there is no lesser pair: the middle player is a merchant.
    """
    if position == 1:
        return "greater_dalmuti"
    if position == count:
        return "greater_peasant"
    if count >= 4 and position == 2:
        return "lesser_dalmuti"
    if count >= 4 and position == count - 1:
        return "lesser_peasant"
    return "merchant"


def roles_of(ranks: Sequence[str]) -> dict[str, str]:
    """Return every player's role, by the rank order (Greater Dalmuti first)."""
    return {name: role_of(index, len(ranks)) for index, name in enumerate(ranks, 1)}


def holders(ranks: Sequence[str]) -> dict[str, str]:
    """Return role -> player for the single roles (everything but the merchants)."""
    return {role: name for name, role in roles_of(ranks).items() if role != "merchant"}


def hand_sizes(ranks: Sequence[str], rules: Mapping[str, Any]) -> dict[str, int]:
    """Return each player's hand size: the deck dealt one by one, the odd cards by extra_cards_to.

    The Greater Peasant deals clockwise from the Greater Dalmuti, so by default the first D mod N
    ranks hold one card more; the Korean custom gives them from the Greater Peasant upwards.
    """
    base, extra = divmod(deck_size(rules), len(ranks))
    order = list(ranks)
    if settings(rules)["extra_cards_to"] == "greater_peasant_first":
        order.reverse()
    sizes = {name: base + (1 if index < extra else 0) for index, name in enumerate(order)}
    return {name: sizes[name] for name in ranks}


def ranks_from_draw(players: Sequence[str], raw: Any) -> list[str]:
    """Return the first ranks from the initial draw {name: card}: lowest card first, jester last.

    Tied players draw again, so the draws entered must be distinct (``draw_tie``).
    """
    given = mapping(raw, "initial_draw")
    table = Table(tuple(players))
    draws: dict[str, int | str] = {}
    for key, value in given.items():
        name = table.player(key, f"initial_draw.{key}")
        where = f"initial_draw.{name}"
        if name in draws:
            raise RuleViolation(
                "invalid_value", "{value} has two draws in initial_draw.", where, value=quote(name)
            )
        draws[name] = parse_card(value, where)
    for name in players:
        if name not in draws:
            path = f"initial_draw.{name}"
            raise RuleViolation("missing_field", "The field {path} is required.", path, path=path)
    seen: dict[int | str, str] = {}
    for name in players:
        card = draws[name]
        if card in seen:
            where = f"initial_draw.{name}"
            raise RuleViolation(
                "draw_tie",
                "{first} and {second} both drew {card}; tied players draw again, so enter "
                "their new draws.",
                where,
                first=seen[card],
                second=name,
                card=quote(card),
            )
        seen[card] = name
    return sorted(players, key=lambda name: card_value(draws[name]))


# -- revolutions and the tax -----------------------------------------------------------------------


def revolution_kinds(ranks: Sequence[str], player: str, rules: Mapping[str, Any]) -> tuple:
    """Return the revolutions a player dealt both jesters may declare.

    The Greater Peasant (with ``greater_revolution``) and, under ``lesser_peasant_revolution``,
    the Lesser Peasant may reverse the ranks; with ``gp_may_choose_plain`` they may also keep the
    ranks and only cancel the tax. Everyone else may only declare a plain revolution.
    """
    rules = settings(rules)
    role = roles_of(ranks)[player]
    greater = (role == "greater_peasant" and rules["greater_revolution"]) or (
        role == "lesser_peasant" and rules["lesser_peasant_revolution"]
    )
    if not greater:
        return ("plain",)
    return REVOLUTION_KINDS if rules["gp_may_choose_plain"] else ("greater",)


def revolt(ranks: Sequence[str], revolution: Mapping[str, str] | None) -> list[str]:
    """Return the ranks during the hand: a greater revolution reverses them, a plain one not.

    The Greater Peasant's reverses every rank (new = N + 1 - old); the Lesser Peasant's reverses
    ranks 1..N-1 (new = N - old) and leaves the Greater Peasant last.
    """
    ranks = list(ranks)
    if not revolution or revolution["kind"] != "greater":
        return ranks
    if revolution["player"] == ranks[-1]:
        return ranks[::-1]
    return ranks[-2::-1] + ranks[-1:]


def tax_due(rules: Mapping[str, Any], hands_played: int) -> bool:
    """Return True when the tax is paid this hand (unless a revolution cancels it)."""
    rules = settings(rules)
    return bool(rules["tax"]) and (hands_played > 0 or bool(rules["tax_first_hand"]))


def givers(count: int) -> tuple[str, ...]:
    """Return the roles that give cards in the tax; three players have only the greater pair."""
    roles = tuple(TRIBUTE)
    return roles if count >= 4 else roles[:2]


def tribute_due(ranks: Sequence[str], rules: Mapping[str, Any], hands_played: int) -> list[dict]:
    """Return the exchanges of the tax: who gives how many cards to whom, best or any."""
    if not tax_due(rules, hands_played):
        return []
    who = holders(ranks)
    timing = settings(rules)["tax_timing"]
    due = []
    for role in givers(len(ranks)):
        receiver, count, which = TRIBUTE[role]
        due.append(
            {
                "role": role,
                "from": who[role],
                "to": who[receiver],
                "count": count,
                "which": which,
                "after_receiving": which == "any" and timing == "sequential",
            }
        )
    return due


def dealt_lower_bound(
    tribute: Mapping[str, list], hands: Mapping[str, list], ranks: Sequence[str], timing: str
) -> Counter:
    """Return the cards known to have been dealt, counting each physical card once.

    An entered hand counts whole; a giver without one held at least what they gave, except
    that under sequential timing a Dalmuti may pass on cards the tribute brought them.
    """
    known: Counter = Counter()
    for hand in hands.values():
        known.update(hand)
    who = holders(ranks)
    for role, cards in tribute.items():
        if who[role] in hands:
            continue
        own = Counter(cards)
        if timing == "sequential" and role in ANSWERS:
            own -= Counter(tribute.get(ANSWERS[role], []))
        known.update(own)
    return known


# -- play: a lead, a follow, a pass, the end of a trick, going out --------------------------------


def play_rank(cards: Sequence[int | str], where: str = "play") -> int:
    """Return the rank of a set of cards, or raise ``mixed_ranks``.

    Jesters join the number of the other cards; jesters alone count 13.
    """
    numbers = sorted({card for card in cards if card != JESTER})
    if len(numbers) > 1:
        raise RuleViolation(
            "mixed_ranks",
            "A play is cards of one rank (jesters join them), not {value}.",
            where,
            value=cards_text(sort_cards(cards)),
        )
    return numbers[0] if numbers else JESTER_RANK


def check_play(
    previous: Any,
    play: Any,
    hand: Any = None,
    where: str = "play",
    *,
    removed: Iterable[int] = (),
) -> int:
    """Check one play against the play immediately before it (None or [] to lead); return its rank.

    Raises ``mixed_ranks``, ``wrong_play_count`` (not as many cards as the play before),
    ``play_not_better`` (not a strictly lower number), ``supply_exceeded`` (more copies than
    the deck without the ``removed`` ranks holds) and, when the player's current hand is given,
    ``card_not_in_hand``.
    """
    cards = parse_cards(play, where)
    if not cards:
        raise RuleViolation(
            "wrong_play_count", "A play is one or more cards; an empty play is a pass.", where
        )
    rank = play_rank(cards, where)
    if previous:
        before = parse_cards(previous, "previous")
        if len(cards) != len(before):
            raise RuleViolation(
                "wrong_play_count",
                "The play before was {want} card(s), so this one must be {want} too, not "
                "{count} ({value}).",
                where,
                want=len(before),
                count=len(cards),
                value=cards_text(cards),
            )
        if rank >= play_rank(before, "previous"):
            raise RuleViolation(
                "play_not_better",
                "{value} does not beat {before}: a play needs a strictly lower number than the "
                "play immediately before it.",
                where,
                value=cards_text(sort_cards(cards)),
                before=cards_text(sort_cards(before)),
            )
    check_supply(Counter(cards), removed, where, THESE_CARDS)
    if hand is not None:
        held = Counter(parse_cards(hand, "hand"))
        missing = Counter(cards) - held
        if missing:
            raise RuleViolation(
                "card_not_in_hand",
                "{value} is not in the hand ({hand}).",
                where,
                value=cards_text(sort_cards(missing.elements())),
                hand=cards_text(sort_cards(held.elements())),
            )
    return rank


def start_tricks(seats: Sequence[str], sizes: Mapping[str, int]) -> dict[str, Any]:
    """Return the play state at the start of a hand: seats in rank order, the first one leads."""
    return {
        "seats": list(seats),
        "holding": {name: sizes[name] for name in seats},
        "to_play": seats[0],
        "last": None,
        "passed": [],
        "finish_order": [],
        "over": False,
    }


def next_holder(seats: Sequence[str], holding: Mapping[str, int], after: str) -> str | None:
    """Return the next player clockwise after the given one who still holds cards."""
    start = seats.index(after)
    for step in range(1, len(seats) + 1):
        name = seats[(start + step) % len(seats)]
        if holding[name] > 0:
            return name
    return None


def take_turn(
    tricks: Mapping[str, Any],
    player: str,
    play: Any,
    hand: Any = None,
    *,
    removed: Iterable[int] = (),
) -> dict:
    """Return the play state after a player's turn: a play (list of cards) or a pass (None, []).

    Raises ``out_of_turn`` and the errors of ``check_play`` (against the deck without the
    ``removed`` ranks). A player who plays their last card goes out; when everyone still holding
    cards has passed since the last play, the trick ends and its last player leads, or the next
    player clockwise with cards if they are out.
    """
    if tricks["over"] or player != tricks["to_play"]:
        if not tricks["to_play"]:
            raise RuleViolation(
                "out_of_turn",
                "It is not {value}'s turn; nobody (the hand is over) plays next.",
                "player",
                value=quote(player),
            )
        raise RuleViolation(
            "out_of_turn",
            "It is not {value}'s turn; {expected} plays next.",
            "player",
            value=quote(player),
            expected=tricks["to_play"],
        )
    if play is None or play == []:
        return _pass(tricks, player)
    last = tricks["last"]
    rank = check_play(last["cards"] if last else None, play, hand, removed=removed)
    cards = sort_cards(parse_cards(play, "play"))
    if len(cards) > tricks["holding"][player]:
        raise RuleViolation(
            "card_not_in_hand",
            "{value} holds {left} card(s), so cannot play {count}.",
            "play",
            value=player,
            left=tricks["holding"][player],
            count=len(cards),
        )
    after = _copy(tricks)
    after["holding"][player] -= len(cards)
    after["last"] = {"player": player, "cards": cards, "rank": rank}
    after["passed"] = []
    if after["holding"][player] == 0:
        after["finish_order"].append(player)
    still = [name for name in after["seats"] if after["holding"][name] > 0]
    if len(still) <= 1:
        after["finish_order"].extend(still)
        after.update(over=True, to_play=None)
        return after
    after["to_play"] = next_holder(after["seats"], after["holding"], player)
    return after


def _pass(tricks: Mapping[str, Any], player: str) -> dict:
    """Record a pass, ending the trick when everyone still holding cards has passed."""
    last = tricks["last"]
    if last is None:
        raise RuleViolation(
            "wrong_play_count",
            "{value} leads this trick and must play at least one card.",
            "play",
            value=player,
        )
    after = _copy(tricks)
    after["passed"].append(player)
    others = [n for n in after["seats"] if after["holding"][n] > 0 and n != last["player"]]
    if all(name in after["passed"] for name in others):
        leader = last["player"]
        if after["holding"][leader] == 0:
            leader = next_holder(after["seats"], after["holding"], leader)
        after.update(last=None, passed=[], to_play=leader)
        return after
    after["to_play"] = next_holder(after["seats"], after["holding"], player)
    return after


def _copy(tricks: Mapping[str, Any]) -> dict:
    """Return a copy of a play state whose lists and counts may be changed."""
    after = dict(tricks)
    after["holding"] = dict(tricks["holding"])
    after["passed"] = list(tricks["passed"])
    after["finish_order"] = list(tricks["finish_order"])
    return after


# -- scoring ---------------------------------------------------------------------------------------


def ordinal(number: int) -> str:
    """Write 1st, 2nd, 3rd, 4th, ... 11th (up to 10th a word marked for translation)."""
    if 1 <= number <= len(ORDINALS):
        return ORDINALS[number - 1]
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    if 10 <= number % 100 <= 20:
        suffix = "th"
    return f"{number}{suffix}"


def points(position: int, count: int, scoring: str = "players_below") -> int:
    """Return the points for finishing at a position (1-based): one per player below (+1)."""
    below = count - position
    return below + 1 if scoring == "players_below_plus_one" else below


def rising_bonuses(during: Sequence[str], finish: Sequence[str]) -> list[tuple[str, str, int]]:
    """Return (Dalmuti, peasant, positions risen) for the greater and the lesser pair."""
    count = len(during)
    pairs = [(during[0], during[-1], count)]
    if count >= 4:
        pairs.append((during[1], during[-2], count - 1))
    return [(top, low, max(0, was - (finish.index(low) + 1))) for top, low, was in pairs]


def score_hand(
    during: Sequence[str],
    finish: Sequence[str],
    rules: Mapping[str, Any],
    account: Account | None = None,
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """Return (points by finish, rising bonus, sentences) for a hand's finishing order.

    The sentences are said into account (a new one if not given) and returned in English.
    """
    rules = settings(rules)
    account = Account() if account is None else account
    start = len(account.lines)
    count = len(finish)
    note = SCORING_NOTE[rules["scoring"]]
    base: dict[str, int] = {}
    for position, name in enumerate(finish, 1):
        base[name] = points(position, count, rules["scoring"])
        say_place(account, name, position, count, base[name], note)
    bonus = dict.fromkeys(finish, 0)
    if rules["rising_bonus"]:
        roles = roles_of(during)
        for top, low, risen in rising_bonuses(during, finish):
            bonus[top] += risen
            place = finish.index(low) + 1
            values = {
                "peasant": low,
                "peasant_role_t": role_name(roles[low]),
                "place_t": ordinal(place),
                "place": place,
                "risen": risen,
                "bonus": signed(risen),
                "dalmuti": top,
                "dalmuti_role_t": role_name(roles[top]),
            }
            if risen == 1:
                account.say(
                    "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} place "
                    "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
                    **values,
                )
            else:
                account.say(
                    "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} places "
                    "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
                    **values,
                )
    return base, bonus, account.lines[start:]


def say_place(account: Account, name: str, position: int, count: int, won: int, note: str) -> None:
    """Explain one finishing place: 'Cy went out 1st of 5: 4 points (players below).'."""
    values = {
        "name": name,
        "place_t": ordinal(position),
        "place": position,
        "count": count,
        "points": won,
        "note_t": note,
    }
    if position < count and won == 1:
        account.say("{name} went out {place_t} of {count}: {points} point ({note_t}).", **values)
    elif position < count:
        account.say("{name} went out {place_t} of {count}: {points} points ({note_t}).", **values)
    elif won == 1:
        account.say(
            "{name} finished last, {place_t} of {count}: {points} point ({note_t}).", **values
        )
    else:
        account.say(
            "{name} finished last, {place_t} of {count}: {points} points ({note_t}).", **values
        )


# -- the game --------------------------------------------------------------------------------------


class Dalmuti(Game):
    """The Great Dalmuti with the official (Hungarian) rules and the Korean house rules."""

    slug = "dalmuti"
    title = N_("The Great Dalmuti")
    min_players = 4
    max_players = 8
    setup_keys = ("initial_draw",)
    options = (
        RuleOption("allow_any_count", "bool", False, "Allow 3 to 10 players instead of 4 to 8."),
        RuleOption(
            "removed_ranks",
            "int_list",
            [],
            "Ranks taken out of the deck for small tables (4 players: [11, 12]; 5: [12]).",
            minimum=1,
            maximum=12,
        ),
        RuleOption(
            "extra_cards_to",
            "choice",
            "greater_dalmuti_first",
            "Who holds the larger hands when the deck does not divide evenly: ranks 1, 2, ... "
            "(official) or the Greater Peasant upwards (Korean custom).",
            choices=("greater_dalmuti_first", "greater_peasant_first"),
        ),
        RuleOption(
            "greater_revolution",
            "bool",
            True,
            "A Greater Peasant dealt both jesters may reverse every rank for the hand.",
        ),
        RuleOption(
            "gp_may_choose_plain",
            "bool",
            True,
            "A peasant entitled to a greater revolution may declare a plain one instead.",
        ),
        RuleOption(
            "lesser_peasant_revolution",
            "bool",
            False,
            "Korean house rule: the Lesser Peasant dealt both jesters reverses ranks 1..N-1; "
            "the Greater Peasant stays last.",
        ),
        RuleOption("tax", "bool", True, "The peasants pay tribute to the Dalmutis each hand."),
        RuleOption("tax_first_hand", "bool", True, "The tax is paid in the first hand too."),
        RuleOption(
            "tax_timing",
            "choice",
            "simultaneous",
            "A Dalmuti picks the cards to give back before picking up the tribute (official) "
            "or after (Korean reading).",
            choices=("simultaneous", "sequential"),
        ),
        RuleOption(
            "merchant_trade",
            "bool",
            False,
            "Korean house rule: merchants may swap one card each, blind, by agreement "
            "(recorded only).",
        ),
        RuleOption(
            "scoring",
            "choice",
            "players_below",
            "Points per hand: one per player below you, or that plus one.",
            choices=("players_below", "players_below_plus_one"),
        ),
        RuleOption(
            "rising_bonus",
            "bool",
            False,
            "The hand's Greater (Lesser) Dalmuti gets +1 per place its Greater (Lesser) "
            "Peasant rose.",
        ),
        RuleOption(
            "hands_to_play",
            "int",
            None,
            "The session ends after this many hands (none: when the table finishes it).",
            minimum=1,
            nullable=True,
        ),
    )

    def player_range(self, rules: Mapping[str, Any]) -> tuple[int, int]:
        """Return 4..8 players, or 3..10 with allow_any_count."""
        return (3, 10) if rules.get("allow_any_count") else (4, 8)

    def check_players(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        """Check the table size, and that the deck left by removed_ranks deals everyone enough."""
        super().check_players(players, rules)
        size = deck_size(rules)
        if size < MIN_CARDS_EACH * len(players):
            raise RuleViolation(
                "invalid_rules",
                "Without ranks {removed} the deck has {size} cards, too few to deal {count} "
                "players {least} each.",
                "rules.removed_ranks",
                removed=cards_text(settings(rules)["removed_ranks"]),
                size=size,
                count=len(players),
                least=MIN_CARDS_EACH,
            )

    def start(self, players, rules, setup):
        """Return the seats as entered and the first ranks: as entered, or from initial_draw."""
        draw = setup.get("initial_draw") if setup else None
        ranks = list(players) if draw is None else ranks_from_draw(players, draw)
        return tuple(players), {"ranks": ranks, "hands_played": 0}

    # -- checking ---------------------------------------------------------------------------

    def play(self, table: Table, state: Mapping[str, Any], raw: Any, *, partial: bool = False):
        """Check a hand and score it; raises RuleViolation naming the broken rule."""
        raw = mapping(raw, "round")
        rules = settings(table.rules)
        ranks = ranks_in(table, state)
        played = int(state.get("hands_played", 0))
        hands = self._hands(table, rules, ranks, raw.get("hands"))
        revolution = self._revolution(table, rules, ranks, hands, raw.get("revolution"))
        during = revolt(ranks, revolution)
        due = revolution is None and tax_due(rules, played)
        tribute = self._tribute(
            rules, ranks, hands, revolution, played, raw.get("tribute"), partial
        )
        trades = self._trades(table, rules, ranks, revolution, raw.get("merchant_trades"))
        entered: dict[str, Any] = {"revolution": revolution, "tribute": tribute}
        if hands:
            entered["hands"] = hands
        if trades:
            entered["merchant_trades"] = trades
        account = Account()
        self._preface(account, rules, ranks, during, revolution, tribute, trades, played)
        if partial and raw.get("finish_order") is None:
            entered["finish_order"] = None
            result = {
                "complete": False,
                **account.result(),
                "ranks_before": ranks,
                "ranks_during": during,
                "revolution": revolution["kind"] if revolution else None,
                "tax": due,
            }
            return Outcome(entered, result, dict(state))
        finish = self._finish_order(table, require(raw, "finish_order"))
        entered["finish_order"] = finish
        result = self._result(table, rules, ranks, during, revolution, finish, account, due)
        if due and len(tribute or {}) < len(givers(len(ranks))):
            result["complete"] = False
            return Outcome(entered, result, dict(state))
        after = dict(state)
        after.update(ranks=finish, hands_played=played + 1)
        return Outcome(entered, result, after)

    def _hands(self, table: Table, rules: Mapping, ranks: list[str], raw: Any) -> dict:
        """Return the hands as dealt that were entered, each the size the deal gave."""
        if raw is None:
            return {}
        given = mapping(raw, "hands")
        sizes = hand_sizes(ranks, rules)
        hands: dict[str, list] = {}
        for key, value in given.items():
            name = table.player(key, f"hands.{key}")
            where = f"hands.{name}"
            if name in hands:
                raise RuleViolation(
                    "invalid_value", "{value} has two hands.", where, value=quote(name)
                )
            cards = sort_cards(parse_card(card, where) for card in sequence(value, where))
            if len(cards) != sizes[name]:
                raise RuleViolation(
                    "wrong_hand_size",
                    "{player} was dealt {want} cards as {role_t}, but {count} were entered.",
                    where,
                    player=name,
                    want=sizes[name],
                    role_t=role_name(roles_of(ranks)[name]),
                    count=len(cards),
                )
            hands[name] = cards
        known: Counter = Counter()
        for cards in hands.values():
            known.update(cards)
        check_supply(known, rules["removed_ranks"], "hands", HANDS_ENTERED)
        return {name: hands[name] for name in ranks if name in hands}

    def _revolution(self, table, rules, ranks, hands, raw) -> dict[str, str] | None:
        """Return the revolution declared, if any: who and which kind, checked."""
        if raw is None:
            return None
        given = mapping(raw, "revolution")
        player = table.player(require(given, "player", "revolution.player"), "revolution.player")
        kind = require(given, "kind", "revolution.kind")
        if not isinstance(kind, str) or kind.strip().lower() not in REVOLUTION_KINDS:
            raise RuleViolation(
                "invalid_value",
                "revolution.kind must be 'plain' or 'greater', not {value}.",
                "revolution.kind",
                value=quote(kind),
            )
        kind = kind.strip().lower()
        allowed = revolution_kinds(ranks, player, rules)
        if kind not in allowed:
            raise self._kind_refused(ranks, player, kind, rules)
        self._jesters(player, hands)
        return {"player": player, "kind": kind}

    def _kind_refused(self, ranks, player, kind, rules) -> RuleViolation:
        """Return the error for a revolution kind the declarer may not choose."""
        roles = roles_of(ranks)
        who = {"who": player, "role_t": role_name(roles[player])}
        if kind == "plain":
            return RuleViolation(
                "revolution_kind_not_allowed",
                "{who} ({role_t}) holds both jesters, and under these house rules that is a "
                "greater revolution, not a plain one (gp_may_choose_plain is off).",
                "revolution.kind",
                **who,
            )
        entitled = [name for name in ranks if "greater" in revolution_kinds(ranks, name, rules)]
        if not entitled:
            return RuleViolation(
                "revolution_kind_not_allowed",
                "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
                "nobody under these house rules.",
                "revolution.kind",
                **who,
            )
        if len(entitled) == 1:
            return RuleViolation(
                "revolution_kind_not_allowed",
                "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
                "{first} ({first_role_t}).",
                "revolution.kind",
                **who,
                first=entitled[0],
                first_role_t=role_name(roles[entitled[0]]),
            )
        first, second = entitled[0], entitled[-1]  # the two peasants at most
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
            "{first} ({first_role_t}) or {second} ({second_role_t}).",
            "revolution.kind",
            **who,
            first=first,
            first_role_t=role_name(roles[first]),
            second=second,
            second_role_t=role_name(roles[second]),
        )

    def _jesters(self, player: str, hands: Mapping[str, list]) -> None:
        """Refuse a revolution when the hands entered show the declarer lacks both jesters."""
        if player in hands and hands[player].count(JESTER) < JESTER_COPIES:
            raise RuleViolation(
                "revolution_without_jesters",
                "{player} declared a revolution but was dealt {count} jester(s); it takes both.",
                "revolution.player",
                player=player,
                count=hands[player].count(JESTER),
            )
        for name, hand in hands.items():
            if name != player and JESTER in hand:
                raise RuleViolation(
                    "revolution_without_jesters",
                    "{other} was dealt a jester, so {player} cannot hold both to declare a "
                    "revolution.",
                    "revolution.player",
                    other=name,
                    player=player,
                )

    def _tribute(self, rules, ranks, hands, revolution, played, raw, partial) -> dict | None:
        """Return the tax as given (cards by giving role), checked against everything known."""
        due = revolution is None and tax_due(rules, played)
        if raw is None or (isinstance(raw, Mapping) and not raw):
            if due and not partial:
                raise tribute_required(tribute_due(ranks, rules, played))
            return None
        given = mapping(raw, "tribute")
        if not due and revolution is not None:
            raise RuleViolation(
                "tribute_not_allowed",
                "No tax is paid this hand ({player} declared a revolution), so no tribute.",
                "tribute",
                player=revolution["player"],
            )
        if not due:
            raise RuleViolation(
                "tribute_not_allowed",
                "No tax is paid this hand ({why_t}), so no tribute.",
                "tribute",
                why_t=no_tax_reason(rules),
            )
        roles = givers(len(ranks))
        for key in given:
            if key not in roles:
                where = f"tribute.{key}"
                raise RuleViolation(
                    "invalid_value",
                    "{value} is not a giving role in the tax; the roles are {roles}.",
                    where,
                    value=quote(key),
                    roles=", ".join(roles),
                )
        tribute = {}
        for role in roles:
            if given.get(role) is None:
                if partial:
                    continue
                where = f"tribute.{role}"
                raise RuleViolation(
                    "tribute_required",
                    "The tribute of the {role_t} is missing.",
                    where,
                    role_t=role_name(role),
                )
            tribute[role] = tribute_cards(role, given[role], rules["removed_ranks"])
        self._check_tribute(rules, ranks, hands, tribute)
        return tribute

    def _check_tribute(self, rules, ranks, hands, tribute) -> None:
        """Check the tribute's cards exist, were held, and that the peasants gave their best."""
        timing, removed = rules["tax_timing"], rules["removed_ranks"]
        bound = dealt_lower_bound(tribute, {}, ranks, timing)
        check_supply(bound, removed, "tribute", TRIBUTE_CARDS)
        who = holders(ranks)
        for role, cards in tribute.items():
            giver = who[role]
            if giver not in hands:
                continue
            held = Counter(hands[giver])
            if timing == "sequential" and role in ANSWERS:
                held.update(tribute.get(ANSWERS[role], []))
            check_held(role, giver, cards, held)
            if TRIBUTE[role][2] == "best":
                check_best(role, giver, cards, hands[giver])
        bound = dealt_lower_bound(tribute, hands, ranks, timing)
        check_supply(bound, removed, "tribute", HANDS_AND_TRIBUTE)

    def _trades(self, table, rules, ranks, revolution, raw) -> list[list[str]]:
        """Return the merchants' blind swaps (house rule, recorded only): pairs of merchants."""
        if raw is None or raw == []:
            return []
        if not rules["merchant_trade"]:
            raise RuleViolation(
                "invalid_value",
                "Merchant trades are not played at this table (house rule merchant_trade is off).",
                "merchant_trades",
            )
        if revolution is not None:
            raise RuleViolation(
                "tribute_not_allowed",
                "After a revolution no cards change hands, so the merchants do not trade.",
                "merchant_trades",
            )
        roles = roles_of(ranks)
        seen: set[str] = set()
        trades = []
        for index, pair in enumerate(sequence(raw, "merchant_trades")):
            where = f"merchant_trades.{index}"
            names = [table.player(name, where) for name in sequence(pair, where)]
            for name in names:
                if roles[name] != "merchant" or name in seen:
                    raise RuleViolation(
                        "invalid_value",
                        "{value} cannot trade here: each merchant swaps at most one card, and "
                        "only merchants trade.",
                        where,
                        value=quote(name),
                    )
                seen.add(name)
            if not names:
                raise RuleViolation(
                    "invalid_value", "A trade is between two merchants, not nobody.", where
                )
            if len(names) != 2:
                raise RuleViolation(
                    "invalid_value",
                    "A trade is between two merchants, not {value}.",
                    where,
                    value=", ".join(names),
                )
            trades.append(sorted(names, key=ranks.index))
        return trades

    def _finish_order(self, table: Table, raw: Any) -> list[str]:
        """Return the finishing order: every seated player exactly once, first out first."""
        order = [table.player(value, "finish_order") for value in sequence(raw, "finish_order")]
        for index, name in enumerate(order):
            if name in order[:index]:
                raise RuleViolation(
                    "finish_order_invalid",
                    "{value} is listed twice in the finishing order; name every player once.",
                    "finish_order",
                    value=quote(name),
                )
        missing = [name for name in table.players if name not in order]
        if missing:
            raise RuleViolation(
                "finish_order_invalid",
                "The finishing order leaves out {missing}; name every player once.",
                "finish_order",
                missing=", ".join(missing),
            )
        return order

    # -- scoring ----------------------------------------------------------------------------

    def _preface(self, account, rules, ranks, during, revolution, tribute, trades, played) -> None:
        """Explain what happened before the play: the revolution or the tax."""
        if revolution is not None:
            who = revolution["player"]
            role = role_name(roles_of(ranks)[who])
            if revolution["kind"] == "greater":
                account.say(
                    "{who} ({role_t}) declared a greater revolution with both jesters: the ranks "
                    "for this hand are {ranks}, and no tax is paid.",
                    who=who,
                    role_t=role,
                    ranks=", ".join(during),
                )
            else:
                account.say(
                    "{who} ({role_t}) declared a revolution with both jesters: no tax is paid, "
                    "the ranks stay.",
                    who=who,
                    role_t=role,
                )
        elif tribute:
            who = holders(ranks)
            for role, cards in tribute.items():
                account.say(
                    "Tax: {giver} ({role_t}) gave {cards} to {receiver}.",
                    giver=who[role],
                    role_t=role_name(role),
                    cards=cards_text(cards),
                    receiver=who[TRIBUTE[role][0]],
                )
        elif not tax_due(rules, played):
            account.say("No tax this hand ({why_t}).", why_t=no_tax_reason(rules))
        for first, second in trades:
            account.say(
                "Merchants {first} and {second} swapped one card each, blind.",
                first=first,
                second=second,
            )

    def _result(self, table, rules, ranks, during, revolution, finish, account, due) -> dict:
        """Score a checked hand and explain every point (after the preface already said)."""
        base, bonus, _lines = score_hand(during, finish, rules, account)
        deltas = {name: base[name] + bonus[name] for name in table.players}
        account.say(
            "This hand: {deltas}.",
            deltas=", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
        )
        result = {
            "deltas": deltas,
            **account.result(),
            "ranks_before": list(ranks),
            "ranks_during": during,
            "ranks_after": list(finish),
            "revolution": revolution["kind"] if revolution else None,
            "revolution_by": revolution["player"] if revolution else None,
            "tax": due,
            "points": base,
        }
        if rules["rising_bonus"]:
            result["rising_bonus"] = bonus
        return result

    # -- state ------------------------------------------------------------------------------

    def public_state(self, table, state, totals):
        """Tell the table the ranks, the dealer, the hand sizes and the tax of the next hand."""
        rules = settings(table.rules)
        ranks = ranks_in(table, state)
        played = int(state.get("hands_played", 0))
        total = rules["hands_to_play"]
        roles = roles_of(ranks)
        return {
            "ranks": ranks,
            "roles": roles,
            "role_titles": {name: role_name(role) for name, role in roles.items()},
            "dealer": ranks[-1],
            "leader": ranks[0],
            "deck_size": deck_size(rules),
            "removed_ranks": list(rules["removed_ranks"]),
            "hand_sizes": hand_sizes(ranks, rules),
            "tax_due": tax_due(rules, played),
            "tribute_due": public_exchanges(tribute_due(ranks, rules, played)),
            "greater_revolution_by": [
                name for name in ranks if "greater" in revolution_kinds(ranks, name, rules)
            ],
            "hands_played": played,
            "hands_total": total,
            "hands_left": None if total is None else max(0, total - played),
        }

    def is_over(self, table, state, totals):
        """The session ends after hands_to_play hands (never, without a count)."""
        total = settings(table.rules)["hands_to_play"]
        return total is not None and int(state.get("hands_played", 0)) >= total


# -- helpers of the game's checks ------------------------------------------------------------------


def ranks_in(table: Table, state: Mapping[str, Any]) -> list[str]:
    """Return the current ranks from the state (the seats before the first hand)."""
    return list(state.get("ranks") or table.players)


def public_exchanges(due: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the tax's exchanges as the API's state lists them: from, to, count, which only."""
    return [{key: item[key] for key in EXCHANGE_KEYS} for item in due]


#: short names of the giving roles for the tribute_required message's values
EXCHANGE_NAMES = {
    "greater_peasant": "gp",
    "greater_dalmuti": "gd",
    "lesser_peasant": "lp",
    "lesser_dalmuti": "ld",
}


def tribute_required(due: Sequence[Mapping[str, Any]]) -> RuleViolation:
    """Return the error for a tax left out, listing every exchange of it (two or four)."""
    values: dict[str, Any] = {}
    for item in due:
        short = EXCHANGE_NAMES[item["role"]]
        values[short] = item["from"]
        values[f"{short}_count"] = item["count"]
    if len(due) > 2:
        return RuleViolation(
            "tribute_required",
            "The tax is due this hand: enter the tribute ({gp} gives {gd} {gp_count} best "
            "card(s); {gd} gives {gp} {gd_count} card(s); {lp} gives {ld} {lp_count} best "
            "card(s); {ld} gives {lp} {ld_count} card(s)).",
            "tribute",
            **values,
        )
    return RuleViolation(
        "tribute_required",
        "The tax is due this hand: enter the tribute ({gp} gives {gd} {gp_count} best "
        "card(s); {gd} gives {gp} {gd_count} card(s)).",
        "tribute",
        **values,
    )


def no_tax_reason(rules: Mapping[str, Any]) -> str:
    """Say why no tax is paid without a revolution (words marked N_): the house rule or hand 1."""
    if not settings(rules)["tax"]:
        return NO_TAX_RULE
    return NO_TAX_FIRST_HAND


def tribute_cards(role: str, value: Any, removed: Iterable[int]) -> list[int | str]:
    """Return one role's tribute: real cards, no jesters, as many as the role gives, in the deck."""
    where = f"tribute.{role}"
    cards = parse_cards(value, where)
    if JESTER in cards:
        raise RuleViolation(
            "jester_in_tribute",
            "Jesters never change hands in the tax, but the {role_t} gave {value}.",
            where,
            role_t=role_name(role),
            value=cards_text(cards),
        )
    want = TRIBUTE[role][1]
    if not cards:
        raise RuleViolation(
            "wrong_tribute_count",
            "The {role_t} gives exactly {want} card(s), not {count} (none).",
            where,
            role_t=role_name(role),
            want=want,
            count=0,
        )
    if len(cards) != want:
        raise RuleViolation(
            "wrong_tribute_count",
            "The {role_t} gives exactly {want} card(s), not {count} ({value}).",
            where,
            role_t=role_name(role),
            want=want,
            count=len(cards),
            value=cards_text(cards),
        )
    check_supply(Counter(cards), removed, where, CARDS_GIVEN)
    return sort_cards(cards)


def check_held(role: str, giver: str, cards: list, held: Counter) -> None:
    """Raise ``card_not_in_hand`` unless every card given was in the giver's hand."""
    missing = Counter(cards) - held
    if missing:
        where = f"tribute.{role}"
        raise RuleViolation(
            "card_not_in_hand",
            "{giver} gave {value}, but their hand ({hand}) does not hold it.",
            where,
            giver=giver,
            value=cards_text(sort_cards(missing.elements())),
            hand=cards_text(sort_cards(held.elements())),
        )


def check_best(role: str, giver: str, cards: list, hand: list) -> None:
    """Raise ``tribute_not_best`` unless a peasant gave their best non-jester cards."""
    best = sort_cards(card for card in hand if card != JESTER)[: len(cards)]
    if sort_cards(cards) != best:
        where = f"tribute.{role}"
        raise RuleViolation(
            "tribute_not_best",
            "{giver} must give their {count} best card(s), {best}, not {value}.",
            where,
            giver=giver,
            count=len(cards),
            best=cards_text(best),
            value=cards_text(cards),
        )
