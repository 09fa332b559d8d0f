"""Mighty's counts in words at four to seven seats: each comes from the rules module, once.

The session page's misdeal part (its hint, its label, the card grid's counter), "How we score"
and the referee all say the hand as dealt (``deal.deal_for``: 10, or 8 at 6마 and 7 at 7마), the
players in a hand (``active_count``) and the trick count (``tricks.TRICKS``); a misdeal entry of
exactly that many cards is taken, one more refused. Korean pages are read for the numbers.
"""

from __future__ import annotations

import html
import re

import pytest

from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.seats.deal import TableDeal as Deal
from refapp.games.mighty.seats.deal import deal_for
from refapp.games.mighty.tricks.trick import TRICKS

from .conftest import shown

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
#: eleven cards worth 0 by the default counting, all in the deck at four seats too
WEAK = ["S5", "S6", "H7", "H8", "D9", "D6", "C7", "C8", "H5", "H6", "D7"]
SEATS = (4, 5, 6, 7)


def table(api, seats: int) -> tuple[int, Deal]:
    """Start a Mighty table of this many seats (default rules) and return it with its deal."""
    session = api.create(players=NAMES[:seats], game="mighty")
    return session["id"], deal_for(MightyRules(session["rules"]), seats)


def page(client, path: str, language: str) -> str:
    """Return a page in a language, its HTML entities read."""
    return html.unescape(shown(client.get(path, headers={"Accept-Language": language})))


def misdeal_words(text: str) -> dict[str, str]:
    """Return the misdeal part's label, its typed hint (before the first example) and counter."""
    label = re.search(r'<label for="misdeal_hand">([^<]*)</label>', text)
    hint = re.search(r'<p class="hint" data-mighty-nojs>(.*?)<code>', text, re.S)
    size = re.search(r'data-mighty-deal [^>]*data-size="(\d+)"', text)
    counter = re.search(r'data-words="([^"]*)"', text)
    assert label and hint and size and counter, "the misdeal part is missing"
    return {
        "label": label.group(1),
        "hint": hint.group(1),
        "size": size.group(1),
        "counter": counter.group(1),
    }


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("seats", SEATS)
def test_the_misdeal_part_says_the_hand_as_dealt(client, api, seats, language):
    sid, deal = table(api, seats)
    words = misdeal_words(page(client, f"/sessions/{sid}", language))
    size = str(deal.hand_size)
    assert words["size"] == size
    for part in ("label", "hint", "counter"):
        numbers = re.findall(r"-?\d+", words[part].replace("{count}", ""))
        assert numbers == [size], (part, words[part])
    if language == "en":
        assert words["label"] == f"Their {size} cards"
        assert words["counter"] == f"{{count}} of {size} cards, worth {{value}}."


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("seats", SEATS)
def test_how_we_score_says_the_hand_the_players_and_the_tricks(client, api, seats, language):
    sid, deal = table(api, seats)
    text = re.sub(r"<[^>]+>", " ", page(client, f"/sessions/{sid}/how-we-score", language))
    size, players = deal.hand_size, deal.active_count
    if language == "en":
        assert f"A player whose {size} dealt cards are worth at most 0 may throw" in text
        assert f"{players} players play each hand: {TRICKS} tricks" in text
        dealt = f"hands of {size} and a kitty of {deal.kitty_size}" in text
        assert dealt or f"Each dealt hand is {size} cards" in text
    else:  # the Korean catalog's words for the same sentences
        assert f"받은 패 {size}장의 값이 0 이하면" in text
        assert f"매 판 {players}명이 해요: 트릭 {TRICKS}번" in text
        assert f"패는 {size}장" in text
    if size != 10:
        assert "10장" not in text and " ten " not in text and "10 dealt" not in text


@pytest.mark.parametrize("seats", SEATS)
def test_a_misdeal_of_the_dealt_size_is_taken_and_one_more_refused(api, seats):
    sid, deal = table(api, seats)
    declarer = NAMES[1]
    longer = api.record(sid, {"misdeal": {"player": declarer, "hand": WEAK[: deal.hand_size + 1]}})
    assert longer.status_code == 422, longer.get_json()
    error = longer.get_json()["error"]
    assert error["code"] == "invalid_hand"
    assert f"{deal.hand_size} cards, not {deal.hand_size + 1}" in error["message"]
    taken = api.record(sid, {"misdeal": {"player": declarer, "hand": WEAK[: deal.hand_size]}})
    assert taken.status_code == 201, taken.get_json()
    assert taken.get_json()["round"]["result"]["outcome"] == "misdeal"


def test_the_rules_module_deals_each_size_as_the_rules_say():
    expected = {4: (10, 3, 43, 4), 5: (10, 3, 53, 5), 6: (8, 5, 53, 5), 7: (7, 4, 53, 5)}
    for seats, counts in expected.items():
        deal = deal_for(
            MightyRules({"six_player_rule": "kill", "seven_player_rule": "kill"}), seats
        )
        assert (deal.hand_size, deal.kitty_size, deal.deck_size, deal.active_count) == counts
        assert deal.hand_size * seats + deal.kitty_size == deal.deck_size
