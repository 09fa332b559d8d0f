"""Dixit in the composer at 390x844: the storyteller by a tap on a name, the Odyssey vote groups
that keep their last voter until that voter's votes are done, a voter's own card greyed.

Each test enters its turn by taps on the page as a table does and reads the stored round back.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import ON_SCREEN, open_session
from .table_rounds_cards import FIVE, ODYSSEY_FIRST, ODYSSEY_POSITIONS, SEVEN, vote

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
ODYSSEY = {"two_votes_large_game": True}
#: how a second vote is given, as each language says it above the group of votes
SECOND_VOTE = {
    "en": "A second vote: tap a second card in the same row.",
    "ko": "두 번째 표: 같은 줄에서 카드를 하나 더 누르세요.",
    "hu": "Második szavazat: koppints még egy kártyára ugyanabban a sorban.",
}
FIRST_TURN = {"storyteller": "Ann", "positions": FIVE, "votes": {n: 1 for n in FIVE[1:]}}


def part(page) -> str:
    """Return the part the composer shows, once the page has settled after a tap."""
    page.wait_for_timeout(150)
    return page.evaluate("document.querySelector('#round-form').dataset.composerPart")


def lay(page, owners: list[str]) -> None:
    """Tap who laid each card but the last (it fills itself)."""
    for name in owners[:-1]:
        page.locator(f".dx-names button[data-name='{name}']").click()


def test_the_first_turn_asks_its_storyteller_and_one_tap_moves_on(table_phone):
    open_session(table_phone, "dixit", FIVE, [], "en")
    page = table_phone.page
    assert part(page) == "storyteller"
    assert page.locator("#storyteller").is_hidden()  # a name chip, not a native select
    chip = page.locator(".dx-tellers button[data-teller='Cy']")
    assert chip.evaluate(ON_SCREEN)
    chip.click()
    assert part(page) == "cards"
    assert page.locator("#storyteller").input_value() == "Cy"
    line = page.locator(".composer-line button[data-goto='storyteller']").inner_text()
    assert line == "storyteller Cy"
    table_phone.check()


def test_the_storyteller_chip_of_the_line_opens_its_part_and_it_stays(table_phone):
    open_session(table_phone, "dixit", FIVE, [], "en")
    page = table_phone.page
    page.locator(".dx-tellers button[data-teller='Ann']").click()
    assert part(page) == "cards"
    page.locator(".dx-names button[data-name='Ben']").click()  # the cards part half done
    page.locator(".composer-line button[data-goto='storyteller']").click()
    assert part(page) == "storyteller"  # stays: no bounce back to the cards
    assert page.locator(".dx-tellers button[data-teller='Ann']").get_attribute("aria-pressed") == (
        "true"
    )
    page.locator(".dx-tellers button[data-teller='Dee']").click()
    assert part(page) == "cards" and page.locator("#storyteller").input_value() == "Dee"


@pytest.mark.parametrize("lang", ["en", "ko", "hu"])
def test_the_last_voter_of_a_group_keeps_their_row_for_a_second_vote(table_phone, lang):
    sid = open_session(table_phone, "dixit", SEVEN, [ODYSSEY_FIRST], lang, ODYSSEY)
    page = table_phone.page
    lay(page, ODYSSEY_POSITIONS)
    assert part(page) == "votes1"
    hint = page.locator("[data-part='votes1'] p.dx-second")
    assert hint.is_visible() and hint.inner_text() == SECOND_VOTE[lang]
    for voter, card in (("Ann", 2), ("Ann", 3), ("Cy", 2), ("Dee", 1)):
        page.locator(vote(voter, card)).click()
    # Dee's first vote completed the group: it stays, with Dee's row and her "one vote"
    assert part(page) == "votes1"
    assert page.locator(vote("Dee", 2)).evaluate(ON_SCREEN)
    one = page.locator("[data-part='votes1'] button[data-one-vote]:visible")
    assert one.count() == 1 and one.evaluate("b => b.closest('.vote-row').dataset.voter") == "Dee"
    page.locator(vote("Dee", 2)).click()
    assert part(page) == "votes2"
    for voter, cards in (("Eve", [3, 5]), ("Fay", [1]), ("Gus", [2, 4])):
        for card in cards:
            page.locator(vote(voter, card)).click()
    table_phone.tap("#round-form button[value=record]")
    votes = table_phone.session(sid)["rounds"][-1]["input"]["votes"]
    assert votes["Dee"] == [1, 2] and votes["Ann"] == [2, 3] and votes["Gus"] == [2, 4]


def test_one_vote_lets_the_last_voter_go_and_a_group_reopens_for_a_second_vote(table_phone):
    sid = open_session(table_phone, "dixit", SEVEN, [ODYSSEY_FIRST], "en", ODYSSEY)
    page = table_phone.page
    lay(page, ODYSSEY_POSITIONS)
    for voter, card in (("Ann", 2), ("Cy", 2), ("Dee", 1)):
        page.locator(vote(voter, card)).click()
    assert part(page) == "votes1"
    page.locator(".vote-row[data-voter='Dee'] button[data-one-vote]").click()
    assert part(page) == "votes2"
    # a second vote for Ann after all: the group's chip opens it, and it stays for the tap
    page.locator(".composer-line button[data-goto='votes1']").click()
    assert part(page) == "votes1"
    page.locator(vote("Ann", 3)).click()
    assert part(page) == "votes1"
    page.locator(".composer-line button[data-goto='votes2']").click()
    for voter, card in (("Eve", 3), ("Fay", 1), ("Gus", 2)):
        page.locator(vote(voter, card)).click()
    table_phone.tap("#round-form button[value=record]")
    played = table_phone.session(sid)["rounds"][-1]
    assert played["input"]["votes"] == {
        "Ann": [2, 3],
        "Cy": [2],
        "Dee": [1],
        "Eve": [3],
        "Fay": [1],
        "Gus": [2],
    }
    # Ann, Cy and Gus found Ben's card 2; Cy found it with a single vote: +1 more
    assert played["result"]["finders"] == ["Ann", "Cy", "Gus"]
    assert played["result"]["deltas"]["Cy"] == 3 + 1


def test_a_voters_own_card_is_greyed_and_not_tappable(table_phone):
    sid = open_session(table_phone, "dixit", FIVE, [FIRST_TURN], "en")
    page = table_phone.page
    positions = ["Cy", "Ben", "Dee", "Eve", "Ann"]  # Ben tells: card 2
    lay(page, positions)
    for voter in ("Ann", "Cy", "Dee", "Eve"):
        own = page.locator(vote(voter, positions.index(voter) + 1))
        assert own.is_disabled() and "dx-own" in own.get_attribute("class"), voter
        others = page.locator(f".vote-row[data-voter='{voter}'] button[data-vote]:disabled")
        assert others.count() == 1, voter
    colours = page.locator(vote("Cy", 1)).evaluate(
        "b => [b, b.nextSibling].map((node) => getComputedStyle(node).backgroundColor)"
    )
    assert colours[0] != colours[1]  # greyed, unlike the cards Cy may vote for
    page.locator(vote("Cy", 1)).click(force=True)
    assert page.locator("#vote_2").input_value() == ""
    # a vote left on a card that turns out to be the voter's own is taken back
    page.locator(vote("Dee", 4)).click()
    page.locator("button[data-goto='cards']").click()
    page.locator("button[data-slot='4']").click()
    page.locator(".dx-names button[data-name='Dee']").click()  # Dee and Eve swap cards 3 and 4
    assert page.locator("#vote_3").input_value() == ""
    assert page.locator(vote("Dee", 4)).is_disabled()
    assert table_phone.session(sid)["rounds"][-1]["number"] == 1
