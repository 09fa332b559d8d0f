"""Each rule fact lives once: the round forms' hints and data-* attributes say what the rules
compute.

For every seat count a game allows (Mighty at four to seven seats, six and seven with a kill or
a resting rule; Dixit and Dalmuti across their ``player_range``) a new session's page is read
through the app and every number its round form states, in a hint or in a data-* attribute a
script reads, is matched with the rules' own value: Mighty's ``deal_for`` (the misdeal pad's
hand size, the card pad's plays, the kills, who rests, the cards out of the deck), the point
cards, the tricks, the auction's floor and the misdeal's limit; Dixit's positions, cards laid
and votes; Dalmuti's tribute counts, places, ranks and jester. A drifted number fails.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping

import pytest

from refapp.games import GAMES
from refapp.games.dalmuti.cards import JESTER, JESTER_RANK, RANKS
from refapp.games.dalmuti.tax import tribute_due
from refapp.games.dixit.deck import cards_laid, position_count
from refapp.games.dixit.table_view import votes_each
from refapp.games.mighty.bidding.auction import MAX_BID, auction_floor
from refapp.games.mighty.bidding.misdeal import misdeal_most
from refapp.games.mighty.cards import POINT_CARDS
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import multiplier_step
from refapp.games.mighty.seats.deal import PLAIN_SEATS, deal_for, out_of_deck
from refapp.games.mighty.tricks.trick import TRICKS

from .conftest import shown

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
#: the ways six and seven may play: kills (6마, 7마), or five play while the others rest
KILLS = {"six_player_rule": "kill", "seven_player_rule": "kill"}
RESTS = {"six_player_rule": "dealer_sits_out", "seven_player_rule": "ruling_side_sits_out"}
MIGHTY_TABLES = [(4, KILLS), (5, KILLS), (6, KILLS), (7, KILLS), (6, RESTS), (7, RESTS)]
DIXIT_RULES = ({}, {"two_votes_large_game": True}, {"large_table": True})
DALMUTI_RULES = ({}, {"allow_any_count": True})
#: the counts a hint might write as words (each would have to be a rule's)
NUMBER_WORDS = {"two": 2, "ten": 10}


def page(client, api, slug: str, seats: int, rules: Mapping[str, object]) -> tuple[str, dict]:
    """Return a new session's page (English, names unwrapped) and the table's rules."""
    created = api.create(players=NAMES[:seats], game=slug, rules=dict(rules))
    response = client.get(f"/sessions/{created['id']}", headers={"Accept-Language": "en"})
    assert response.status_code == 200
    return shown(response), created["rules"]


def seat_range(slug: str, rules: Mapping[str, object]) -> range:
    """Return every seat count the game allows under these rules."""
    low, high = GAMES[slug].player_range(GAMES[slug].house_rules(rules))
    return range(low, high + 1)


def text(fragment: str) -> str:
    """Return an HTML fragment's words: tags dropped, entities read, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def attribute(page_html: str, name: str) -> list[str]:
    """Return every value of a data-* attribute on the page, in order."""
    values = re.findall(rf'\b{name}=("[^"]*"|\'[^\']*\')', page_html)
    return [html.unescape(value[1:-1]) for value in values]


def hints(page_html: str) -> list[str]:
    """Return the words of every hint on the round form, without its examples of card notation
    (<code>, <kbd>: ranks, not rule facts)."""
    found = re.findall(r'<p class="hint[^"]*"[^>]*>(.*?)</p>', page_html, re.S)
    return [text(re.sub(r"<(code|kbd)>.*?</\1>", " ", hint)) for hint in found]


def numbers(words: str) -> list[int]:
    """Return every number a sentence states, digits or a word."""
    said = [int(n) for n in re.findall(r"(?<![\w-])\d+(?![\w-])", words)]
    return said + [n for word, n in NUMBER_WORDS.items() if re.search(rf"\b{word}\b", words, re.I)]


# -- Mighty ------------------------------------------------------------------------------------


def mighty_stated(rules: MightyRules, seats: int) -> set[int]:
    """Return every number a Mighty form may state at this table, each one a rule's."""
    deal = deal_for(rules, seats)
    most = misdeal_most(rules)
    costs = {rules[key] for key in ("to_no_trump_cost", "suit_change_cost", "from_no_trump_cost")}
    return {
        0,  # the score of a player out of the hand; the points pad's least
        1,  # trick 1, led by the boss
        deal.hand_size,
        deal.sitters,
        POINT_CARDS,
        TRICKS,
        MAX_BID,
        multiplier_step("no_mighty", rules).value,
        *costs,
        *({int(most)} if most is not None and most == int(most) else set()),
    }


def mighty_hints_said(page_html: str, rules: MightyRules, seats: int) -> None:
    """Assert the Mighty round form states this table's deal and limits, each from the rules."""
    deal = deal_for(rules, seats)
    said = hints(page_html)
    strays = [
        (n, hint) for hint in said for n in numbers(hint) if n not in mighty_stated(rules, seats)
    ]
    assert not strays, strays
    joined = "\n".join(said)
    assert f"A player whose {deal.hand_size} dealt cards are worth too little" in joined
    assert f"front of the opposition (야당): 0 to {POINT_CARDS}." in joined
    assert f"after trick {TRICKS} fills in the points" in joined
    double = multiplier_step("no_mighty", rules).value
    doubles = rules["double_no_mighty"] and rules["double_no_joker"]
    assert (f"a win without the mighty or the joker counts x{double}." in joined) == doubles
    assert attribute(page_html, "data-plays") == [str(deal.active_count)]
    assert attribute(page_html, "data-size") == [str(deal.hand_size)]
    (words,) = attribute(page_html, "data-words")
    assert words == f"{{count}} of {deal.hand_size} cards, worth {{value}}."
    assert [float(most) for most in attribute(page_html, "data-most")] == [misdeal_most(rules)]
    (done,) = attribute(page_html, "data-words-done")
    assert numbers(done) == [TRICKS], done
    pads = [
        int(points)
        for points in re.findall(r'<button type="button" data-points="(\d+)"', page_html)
    ]
    assert pads == list(range(POINT_CARDS + 1))


def mighty_seats_said(page_html: str, rules: MightyRules, seats: int) -> None:
    """Assert the form and the facts above it deal, kill and rest as ``deal_for`` says."""
    deal = deal_for(rules, seats)
    script = attribute(page_html, "data-mighty-seats")
    if seats == PLAIN_SEATS:
        assert script == []
    else:
        told = json.loads(script[0])
        assert (told["seats"], told["kills"], told["sitters"]) == (seats, deal.kills, deal.sitters)
    assert page_html.count('<fieldset class="mighty-kill"') == deal.kills
    # seven seats name the two who rest; at six the dealer rests, named in the dealer's part
    rests = set(re.findall(r'name="(sits_out2?)"', page_html))
    assert len(rests) == (deal.sitters if deal.sitters > 1 else 0), rests
    said = "\n".join(hints(page_html))
    assert (f"{deal.sitters} players rest this hand" in said) == deal.names_sitters
    assert ("The dealer rests this hand" in said) == (deal.sitters == 1)
    out = attribute(page_html, "data-pad-card")
    marked = re.findall(r'data-pad-card="(\w+)" data-pad-out', page_html)
    assert set(marked) == out_of_deck(rules, seats) and len(out) == len(set(out))
    facts = text(re.search(r'<dl class="facts">(.*?)</dl>', page_html, re.S).group(1))
    assert f"Auction from {auction_floor(rules)}" in facts
    if seats == PLAIN_SEATS:
        assert "Deal" not in facts.split()
        return
    assert f"Deal {deal.hand_size} cards each, {deal.kitty_size} in the kitty" in facts
    if deal.kills:
        player = "player" if deal.kills == 1 else "players"
        assert f"the boss kills {deal.kills} {player} (킬)" in facts
    bids = {int(count) for count in re.findall(r'value="bid_[A-Z]+_(\d+)"', page_html)}
    assert bids == set(range(auction_floor(rules), MAX_BID + 1))


@pytest.mark.parametrize(("seats", "rules"), MIGHTY_TABLES)
def test_the_mighty_form_states_what_the_rules_compute(client, api, seats, rules):
    page_html, table_rules = page(client, api, "mighty", seats, rules)
    house = MightyRules(table_rules)
    mighty_hints_said(page_html, house, seats)
    mighty_seats_said(page_html, house, seats)


def test_a_drifted_mighty_hint_fails_the_check(client, api):
    page_html, table_rules = page(client, api, "mighty", 6, KILLS)
    house = MightyRules(table_rules)
    mighty_hints_said(page_html, house, 6)
    mighty_seats_said(page_html, house, 6)
    for old, new in (
        ('data-size="8"', 'data-size="10"'),
        ('data-plays="5"', 'data-plays="4"'),
        ("0 to 20.", "0 to 21."),
        ("whose 8 dealt", "whose 10 dealt"),
        ("All 10 tricks", "All 9 tricks"),
        ("Only matters for the doubles", "Only 3 matter for the doubles"),
    ):
        drifted = page_html.replace(old, new)
        assert drifted != page_html, old
        with pytest.raises(AssertionError):
            mighty_hints_said(drifted, house, 6)
    for old, new in (("8 cards each", "10 cards each"), ('"kills": 1', '"kills": 2')):
        drifted = page_html.replace(old, new)
        assert drifted != page_html, old
        with pytest.raises(AssertionError):
            mighty_seats_said(drifted, house, 6)


def test_the_mighty_form_says_no_double_the_table_does_not_play(client, api):
    page_html, table_rules = page(client, api, "mighty", 5, {"double_no_mighty": False})
    assert not MightyRules(table_rules)["double_no_mighty"]
    mighty_hints_said(page_html, MightyRules(table_rules), 5)
    assert "counts x2" not in page_html


def test_the_trick_page_of_a_four_seat_table_takes_four_cards(client, api):
    created = api.create(players=NAMES[:4], game="mighty")
    deal = deal_for(MightyRules(created["rules"]), 4)
    response = client.get(
        f"/sessions/{created['id']}/trick",
        query_string={"cards": "SA,SK,SQ,SJ", "trump": "H", "trick": "2"},
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 200
    assert attribute(shown(response), "data-most") == [str(deal.active_count)]
    assert "<h2>The verdict</h2>" in shown(response)  # four cards make a whole trick


# -- Dixit -------------------------------------------------------------------------------------


def dixit_form_said(page_html: str, rules: Mapping[str, object], seats: int) -> None:
    """Assert Dixit's turn form lays out the positions, cards and votes the rules compute."""
    count = position_count(seats)
    assert attribute(page_html, "data-cards-each") == [str(cards_laid(seats))]
    assert attribute(page_html, "data-position") == [str(n) for n in range(1, count + 1)]
    assert f"cards: {count} laid" in attribute(page_html, "data-part-line")
    # a row for each player: the storyteller, whoever it is, is left out when the turn is sent
    assert attribute(page_html, "data-voter") == NAMES[:seats]
    rows = re.findall(r'<div class="vote-row" data-voter="[^"]*">(.*?)</div>', page_html, re.S)
    assert len(rows) == seats
    each = votes_each(rules, seats)
    for row in rows:
        assert [int(n) for n in re.findall(r'data-vote="(\d+)"', row)] == list(range(1, count + 1))
        assert len(re.findall(r"<select", row)) == each
        assert ("data-one-vote" in row) == (each > 1)


@pytest.mark.parametrize("rules", DIXIT_RULES)
def test_the_dixit_form_states_what_the_rules_compute(client, api, rules):
    for seats in seat_range("dixit", rules):
        page_html, table_rules = page(client, api, "dixit", seats, rules)
        dixit_form_said(page_html, table_rules, seats)


def test_a_drifted_dixit_form_fails_the_check(client, api):
    page_html, table_rules = page(client, api, "dixit", 3, {})
    dixit_form_said(page_html, table_rules, 3)
    for old, new in (
        ('data-cards-each="2"', 'data-cards-each="1"'),
        ("cards: 5 laid", "cards: 3 laid"),
    ):
        drifted = page_html.replace(old, new)
        assert drifted != page_html, old
        with pytest.raises(AssertionError):
            dixit_form_said(drifted, table_rules, 3)


# -- Dalmuti -----------------------------------------------------------------------------------


def dalmuti_form_said(page_html: str, rules: Mapping[str, object], seats: int) -> None:
    """Assert the Dalmuti hand form asks the tribute, the places and the cards the rules give."""
    house = GAMES["dalmuti"].house_rules(rules)
    due = tribute_due(NAMES[:seats], house, 0)
    assert [int(count) for count in attribute(page_html, "data-count")] == [
        item["count"] for item in due
    ]
    owed = attribute(page_html, "data-owed")
    assert owed == [f"Given: {{given}} of {item['count']}" for item in due]
    assert attribute(page_html, "data-place") == [str(n) for n in range(1, seats + 1)]
    assert len(re.findall(r'name="finish_\d+"', page_html)) == seats
    offered = {card for card in attribute(page_html, "data-card") if card != JESTER}
    assert offered == {str(rank) for rank in RANKS if rank not in house["removed_ranks"]}
    said = "\n".join(hints(page_html))
    if due:
        assert f"as numbers ({RANKS[0]} Dalmuti … {RANKS[-1]} Peasant)" in said
    assert f"A jester is {JESTER_RANK} (or {JESTER})." in said
    assert attribute(page_html, "data-jester-number") == [str(JESTER_RANK)]  # dalmuti.js's
    strays = [n for n in numbers(said) if n not in {*RANKS, JESTER_RANK}]
    assert not strays, strays


@pytest.mark.parametrize("rules", DALMUTI_RULES)
def test_the_dalmuti_form_states_what_the_rules_compute(client, api, rules):
    for seats in seat_range("dalmuti", rules):
        page_html, table_rules = page(client, api, "dalmuti", seats, rules)
        dalmuti_form_said(page_html, table_rules, seats)


def test_a_drifted_dalmuti_form_fails_the_check(client, api):
    page_html, table_rules = page(client, api, "dalmuti", 5, {})
    dalmuti_form_said(page_html, table_rules, 5)
    for old, new in (
        ('data-count="2"', 'data-count="3"'),
        ('of 1"', 'of 2"'),
        ("A jester is 13", "A jester is 14"),
        ('data-place="5"', 'data-place="6"'),
    ):
        drifted = page_html.replace(old, new)
        assert drifted != page_html, old
        with pytest.raises(AssertionError):
            dalmuti_form_said(drifted, table_rules, 5)


def test_the_dalmuti_play_check_states_the_jesters_number(client, api):
    created = api.create(players=NAMES[:4], game="dalmuti")
    response = client.get(
        f"/sessions/{created['id']}/check-play", headers={"Accept-Language": "en"}
    )
    assert response.status_code == 200
    rule = text(re.search(r'<ul class="explanation">(.*?)</ul>', shown(response), re.S).group(1))
    assert f"Jesters alone count {JESTER_RANK}, the worst." in rule
    assert not [n for n in numbers(rule) if n != JESTER_RANK], rule
