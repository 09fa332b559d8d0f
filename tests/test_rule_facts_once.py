"""Each rule fact lives once: "How we score" states the numbers the rules compute, not copies.

For every seat count a game allows, the session's page is read through the app and every number
in its table-size topic is matched with the rules' own value: Mighty's ``deal.deal_for`` (sizes,
the kill's shares), ``scoring.share`` and ``scoring.back_run_penalty``; each game's
``player_range``; Dixit's and Dalmuti's deck functions. A number the rules do not give fails.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest

from refapp.games import GAMES
from refapp.games.dalmuti.cards import deck_size as dalmuti_deck
from refapp.games.dixit.deck import deck_size, first_draw_pile, hand_size, position_count
from refapp.games.mighty.bidding.auction import MAX_BID
from refapp.games.mighty.cards import POINT_CARDS
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import (
    back_run_penalty,
    is_back_run,
    multiplier_step,
    share,
    win_base,
)
from refapp.games.mighty.seats.deal import FOUR_SEAT_OUT, deal_for
from refapp.games.mighty.seats.deal import TableDeal as Deal
from refapp.games.mighty.seats.dealer import ROTATION_WORDS, ROTATIONS
from refapp.games.mighty.tricks.trick import TRICKS

from .conftest import shown

NAMES = [f"P{index}" for index in range(1, 13)]
#: the ways six and seven may play: kills (6마, 7마), or five play while the others rest
KILLS = {"six_player_rule": "kill", "seven_player_rule": "kill"}
RESTS = {"six_player_rule": "dealer_sits_out", "seven_player_rule": "ruling_side_sits_out"}
#: Mighty's tables at each seat count, under each way six and seven may play
MIGHTY_TABLES = [(4, KILLS), (5, KILLS), (6, KILLS), (7, KILLS), (6, RESTS), (7, RESTS)]
#: the house rules that change Dalmuti's and Dixit's seat range (the default, then the wider one)
DALMUTI_RULES = ({}, {"allow_any_count": True})
DIXIT_RULES = ({}, {"two_votes_large_game": True}, {"large_table": True})


def topic(client, api, slug: str, seats: int, rules: dict, key: str) -> str:
    """Return the English sentences under one topic of a new session's "How we score" page."""
    created = api.create(players=NAMES[:seats], game=slug, rules=rules)
    response = client.get(
        f"/sessions/{created['id']}/how-we-score", headers={"Accept-Language": "en"}
    )
    assert response.status_code == 200
    title = GAMES[slug].topics[key]
    sections = re.findall(r"<h2>(.*?)</h2>\s*<ul>(.*?)</ul>", shown(response), re.S)
    said = [body for heading, body in sections if html.unescape(heading) == title]
    assert said, f"no topic {title!r} on the page"
    return html.unescape(re.sub(r"<[^>]+>", " ", said[0]))


def seat_range(slug: str, rules: dict) -> range:
    """Return every seat count the game allows under these rules."""
    low, high = GAMES[slug].player_range(GAMES[slug].house_rules(rules))
    return range(low, high + 1)


def mighty_numbers(deal: Deal) -> Callable[[str, str], bool]:
    """Return the check of one number in Mighty's seats topic: its value and what follows it."""
    alone = share(NAMES[: deal.active_count], NAMES[0], None, 1)[NAMES[0]]
    stated = {
        deal.hand_size,
        deal.kitty_size,
        deal.deck_size,
        deal.active_count,
        TRICKS,
        0,  # the score of a player out of the hand
    }
    if deal.kills:
        stated |= {deal.boss_share, deal.share}

    def fits(number: str, after: str) -> bool:
        if after == "마":  # 6마, 7마: the seat count
            return int(number) == deal.seats
        if after == "m":  # a boss alone at four: the share of m
            return int(number) == alone
        if after == "s":  # no 2s, no 4s, no 3s: the ranks a table of four plays without
            return number in (*FOUR_SEAT_OUT, "3") and deal.seats == 4
        return int(number) in stated

    return fits


def drifted(text: str, fits: Callable[[str, str], bool]) -> list[str]:
    """Return each number in text that the rules do not give, with its next characters."""
    return [
        f"{number}{after}"
        for number, after in re.findall(r"(\d+)(마|m\b|s\b)?", text)
        if not fits(number, after)
    ]


def mighty_seats_said(text: str, deal: Deal) -> None:
    """Assert Mighty's seats topic says this deal's numbers, each where it belongs."""
    assert not drifted(text, mighty_numbers(deal)), drifted(text, mighty_numbers(deal))
    assert f"{deal.active_count} players play each hand: {TRICKS} tricks" in text
    if deal.seats == 4:
        assert f"Four play: {deal.deck_size} cards" in text
    if deal.kills:
        assert f"the boss +{deal.boss_share} cards, each other player +{deal.share}." in text
        assert deal.kills * deal.hand_size + deal.kitty_size == deal.boss_share + deal.share * (
            deal.active_count - 1
        )  # the shares deal out the killed hands and the kitty, no more and no less
    if deal.kills or deal.seats == 4:
        assert f"hands of {deal.hand_size} and a kitty of {deal.kitty_size}" in text
    else:
        assert f"hand is {deal.hand_size} cards and the kitty {deal.kitty_size}" in text


@pytest.mark.parametrize(("seats", "rules"), MIGHTY_TABLES)
def test_mighty_states_the_deal_the_rules_compute(client, api, seats, rules):
    text = topic(client, api, "mighty", seats, rules, "seats")
    mighty_seats_said(text, deal_for(MightyRules(rules), seats))


def test_a_drifted_mighty_literal_fails_the_check(client, api):
    text = topic(client, api, "mighty", 6, KILLS, "seats")
    deal = deal_for(MightyRules(KILLS), 6)
    mighty_seats_said(text, deal)
    for old, new in (("+2.", "+3."), ("hands of 8", "hands of 7"), ("5 players", "4 players")):
        with pytest.raises(AssertionError):
            mighty_seats_said(text.replace(old, new), deal)
    assert drifted(text.replace("6마", "7마"), mighty_numbers(deal)) == ["7마"]


def test_mighty_states_the_back_run_the_scoring_computes(client, api):
    seed = topic(client, api, "mighty", 5, {"back_run": "seed_penalty"}, "scoring")
    boss_pays = -back_run_penalty("boss", "friend", 1)["boss"]
    assert back_run_penalty("boss", "friend", 1)["friend"] == -1  # "the friend the bid"
    assert f"costs the boss {boss_pays} × the bid and the friend the bid" in seed
    for when in ("ruling_under_10", "ruling_10_or_less"):
        text = topic(client, api, "mighty", 5, {"back_run_when": when}, "scoring")
        most = max(taken for taken in range(21) if is_back_run(when, 13, taken))
        assert f"when the ruling side takes {most} point cards or fewer" in text


def test_mighty_states_the_win_and_the_run_the_scoring_computes(client, api):
    run = {"run": "fixed_20", "win_formula": "taken_minus_10", "declared_run_double": True}
    text = topic(client, api, "mighty", 5, run, "scoring")
    less = 17 - win_base("taken_minus_10", 15, 17, MightyRules(run)["min_bid"])[0]
    assert f"the point cards taken minus {less}, before doubling" in text
    fixed = multiplier_step("run", MightyRules(run)).value
    cards = POINT_CARDS
    assert f"Taking all {cards} point cards (런) makes a win worth {fixed} before" in text
    assert f"A bid of {MAX_BID} that takes all {cards} point cards doubles once more." in text


@pytest.mark.parametrize("rules", DALMUTI_RULES)
def test_dalmuti_states_the_seat_range_the_game_declares(client, api, rules):
    low, high = GAMES["dalmuti"].player_range(GAMES["dalmuti"].house_rules(rules))
    for seats in seat_range("dalmuti", rules):
        text = topic(client, api, "dalmuti", seats, rules, "deal")
        assert f"The game is played by {low} to {high} players." in text
        size = dalmuti_deck(GAMES["dalmuti"].house_rules(rules))
        assert [int(n) for n in re.findall(r"\d+", text)] == [low, high, size]


@pytest.mark.parametrize("rules", DIXIT_RULES)
def test_dixit_states_the_seat_range_and_deck_the_rules_compute(client, api, rules):
    house = GAMES["dixit"].house_rules(rules)
    low, high = GAMES["dixit"].player_range(house)
    for seats in seat_range("dixit", rules):
        text = topic(client, api, "dixit", seats, rules, "table")
        assert f"These rules are for {low} to {high} players; this table has {seats}." in text
        numbers = [low, high, seats, deck_size(house), hand_size(seats)]
        numbers += [first_draw_pile(house, seats), position_count(seats)]
        assert [int(n) for n in re.findall(r"\d+", text)] == numbers


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_mighty_says_the_dealer_rotation_in_its_one_table_of_words(client, api, rotation):
    text = topic(client, api, "mighty", 5, {"next_dealer": rotation}, "auction")
    assert f"After a played hand, {ROTATION_WORDS[rotation].why}." in text
    (option,) = [option for option in GAMES["mighty"].options if option.key == "next_dealer"]
    assert option.choices == ROTATIONS
    assert option.choice_labels == tuple(ROTATION_WORDS[choice].label for choice in ROTATIONS)
