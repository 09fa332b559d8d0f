"""A Mighty hand recorded by taps, in a real browser at phone size, with no keyboard.

The taps are counted: every click is one tap. An ordinary hand (no auction log) goes through the
name and count chips, the trump chips, the card picker (suit, then rank) and the 0-20 pad in at
most 10 taps; a misdeal's 10 cards, one chip away, are tapped in the card grid, their value shown;
the auction pad takes one tap per bid or pass and stays in view after each. The stored rounds
are read back through the API and compared with the rules' own scoring.
"""

from __future__ import annotations

import pytest

from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import score_hand

from . import browser_support
from .browser_support import KEYS
from .test_e2e_polish import small_targets

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
#: every button the pickers add or show, each to be at least 44 x 44 px
PICKERS = [
    ".mighty-names button",
    ".mighty-bids button",
    ".mighty-chips button",
    ".mighty-suits button",
    ".mighty-ranks button",
    ".mighty-points button",
    ".mighty-deal button",
]

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: the most taps an ordinary hand without the auction log may take, from the fresh page
HAND_TAPS = 10
#: taps per bid or pass on the auction pad
TAPS_PER_BID = 1
FIRST_HAND = {
    "dealer": "Ann",
    "contract": {"boss": "Ann", "bid": 13, "trump": "S"},
    "friend": {"card": "JK", "player": "Cy"},
    "opposition_points": 3,
}


class Taps:
    """Taps on a phone, counted: a button of the form that sends it, or a picker's button."""

    def __init__(self, phone) -> None:
        self.phone = phone
        self.count = 0
        phone.page.add_init_script(KEYS)

    def tap(self, selector: str) -> None:
        """Tap a picker's button (nothing is sent)."""
        self.phone.page.locator(selector).click()
        self.count += 1

    def send(self, selector: str, status: int = 200) -> None:
        """Tap a button that sends the form; wait for the answer, in place or by a page load."""
        self.phone.tap(selector, status=status)
        self.count += 1

    def keys(self) -> int:
        """Return how many keys were pressed on the page since it was loaded."""
        return int(self.phone.page.evaluate("window.__keys || 0"))


def chip(field: str, value: str) -> str:
    """Return the chip that picks a value for a select (by the select's id)."""
    return f".mighty-names[data-for='{field}'] button[data-value='{value}']"


def card_taps(card: str, field: str = "friend_card") -> list[str]:
    """Return the picker's buttons that choose a card: the joker in one tap, else suit, rank."""
    picker = f"[data-mighty-picker][data-for='{field}']"
    if card == "JK":
        return [f"{picker} [data-pick=joker]"]
    return [f"{picker} [data-suit='{card[0]}']", f"{picker} [data-rank='{card[1:]}']"]


def points(value: int, field: str = "opposition_points") -> str:
    """Return the 0-20 pad's button for the opposition's points."""
    return f"[data-mighty-points][data-for='{field}'] button[data-points='{value}']"


def trump(name: str) -> str:
    """Return the contract's trump chip (its label, e.g. 'Hearts')."""
    return f"#contract label.mighty-chip:has-text('{name}')"


def start(phone, *rounds) -> int:
    """Start a session through the API, record the given rounds, and open its page."""
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": PLAYERS})["id"]
    for body in rounds:
        phone.api("POST", f"/api/sessions/{sid}/rounds", body)
    phone.open(f"/sessions/{sid}")
    return sid


def scored(session: dict, **hand) -> dict[str, int]:
    """Return the deltas the rules give a hand at this session's table."""
    score = score_hand(
        MightyRules(session["rules"]),
        session["players"],
        mighty_holder=None,
        joker_holder=None,
        no_friend=False,
        **hand,
    )
    return score.deltas


def in_view(page, selector: str) -> list[str]:
    """Return the buttons under selector that are not wholly on screen: above its top, or below
    its foot or the record bar that sticks there."""
    return page.evaluate(
        """(selector) => {
            const bar = document.querySelector(".record-bar");
            const foot = Math.min(window.innerHeight,
                bar ? bar.getBoundingClientRect().top : window.innerHeight);
            return Array.from(document.querySelectorAll(selector))
                .filter((node) => {
                    const box = node.getBoundingClientRect();
                    return box.top < 0 || box.bottom > foot;
                })
                .map((node) => `${node.value || node.textContent.trim()} at ${box(node)}`);
            function box(node) {
                const rect = node.getBoundingClientRect();
                return `${Math.round(rect.top)}-${Math.round(rect.bottom)} of ${Math.round(foot)}`;
            }
        }""",
        selector,
    )


def test_an_ordinary_hand_in_ten_taps_without_a_keyboard(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone, FIRST_HAND)
    page = phone.page
    assert page.locator("#dealer").input_value() == "Cy"  # the last hand's friend deals
    assert page.locator("#dealer").is_hidden()  # the selects are under the chips
    assert page.locator(chip("dealer", "Cy")).get_attribute("aria-pressed") == "true"

    taps.tap(chip("boss", "Dee"))
    taps.tap(chip("contract_bid", "14"))
    taps.tap(trump("Hearts"))
    for button in card_taps("SK"):
        taps.tap(button)
    assert page.locator("#friend_card").input_value() == "SK"
    taps.tap(chip("friend_player", "Eve"))
    taps.tap(points(4))
    assert page.locator("#opposition_points").input_value() == "4"
    taps.send("button[name=action][value=record]")
    page.locator("#round-2").wait_for()

    assert taps.count <= HAND_TAPS, f"{taps.count} taps"
    assert taps.keys() == 0
    session = phone.session(sid)
    stored = session["rounds"][1]
    assert stored["input"]["contract"] == {"boss": "Dee", "bid": 14, "trump": "H"}
    assert stored["input"]["friend"] == {"card": "SK", "player": "Eve"}
    assert stored["input"]["opposition_points"] == 4
    # n = 16 > 14: base 16 - 14 + ... as the rules say; boss 2m, friend m, the others -m
    expected = scored(session, boss="Dee", friend="Eve", bid=14, trump="H", against=4)
    assert stored["result"]["deltas"] == expected
    assert expected["Dee"] == 2 * expected["Eve"] > 0 > expected["Ann"]
    phone.check()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_shortcuts_follow_the_trump_and_the_pad_shows_the_points(table_phone, scheme):
    phone = table_phone
    phone.page.emulate_media(color_scheme=scheme)
    start(phone)
    page = phone.page
    page.locator("details.mighty-misdeal > summary").click()
    assert small_targets(page, PICKERS) == []
    picks = page.locator(".mighty-chips button")
    assert picks.all_inner_texts() == ["Joker JK", "Mighty ♠A", "Joker call ♣3"]
    page.locator(trump("Spades")).click()  # under spades the mighty is the ace of diamonds
    assert picks.all_inner_texts() == ["Joker JK", "Mighty ♦A", "Joker call ♣3"]
    page.locator(trump("Clubs")).click()  # under clubs the joker call is the 3 of spades
    page.locator("[data-pick=joker_call]").click()
    assert page.locator("#friend_card").input_value() == "S3"
    assert page.locator("[data-suit=S]").get_attribute("aria-pressed") == "true"
    page.locator("[data-rank=A]").click()  # the same suit, another rank: one tap
    assert page.locator("#friend_card").input_value() == "SA"
    assert page.locator("[data-pick=mighty]").get_attribute("aria-pressed") == "true"
    page.locator(points(20)).click()
    pressed = page.locator("[data-mighty-points] button[aria-pressed=true]")
    assert pressed.all_inner_texts() == ["20"]
    assert page.locator("[data-mighty-points] button").count() == 21
    phone.check()


def test_a_misdeal_by_tapping_ten_cards(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone)
    page = phone.page
    taps.tap("details.mighty-misdeal > summary")
    taps.tap(chip("misdeal_player", "Ben"))
    taps.tap(".mighty-misdeal-cards > summary")  # the cards, one chip away
    shown = page.locator(".mighty-deal-sum")
    assert shown.inner_text() == "0 of 10 cards, worth 0."
    seen = []
    for card in ("HK", "HA", "JK", "S2", "S3", "H4", "H5", "D6", "D7", "C8"):
        taps.tap(f"[data-deal-card='{card}']")
        seen.append(shown.inner_text())
    assert seen[:3] == [
        "1 of 10 cards, worth 1.",
        "2 of 10 cards, worth 2.",
        "3 of 10 cards, worth 1.",
    ]
    assert seen[-1] == "10 of 10 cards, worth 1. Worth too much: this hand may not be thrown in."
    assert "mighty-too-high" in (shown.get_attribute("class") or "")
    # the ace of hearts back, the 9 of clubs instead: worth 0, a misdeal under the default count
    taps.tap("[data-deal-card='HA']")
    assert shown.inner_text() == "9 of 10 cards, worth 0."
    taps.tap("[data-deal-card='C9']")
    assert shown.inner_text() == "10 of 10 cards, worth 0. Low enough: this hand may be thrown in."
    taps.tap("[data-deal-card='SA']")  # an eleventh card is not taken
    assert page.locator("[data-deal-card='SA']").get_attribute("aria-pressed") == "false"
    hand = ["HK", "JK", "S2", "S3", "H4", "H5", "D6", "D7", "C8", "C9"]
    assert page.locator("#misdeal_hand").input_value().split() == hand
    taps.send("button[name=action][value=misdeal]")
    page.locator("#round-1").wait_for()

    assert taps.keys() == 0
    (stored,) = phone.session(sid)["rounds"]
    assert stored["result"]["outcome"] == "misdeal"
    assert stored["input"]["misdeal"] == {"player": "Ben", "hand": hand}
    assert set(stored["result"]["deltas"].values()) == {0}
    assert page.locator("#dealer").input_value() == "Ben"  # the declarer deals next
    phone.check()


def test_the_auction_pad_one_tap_per_bid_and_always_in_view(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone)
    page = phone.page
    page.locator(chip("dealer", "Ann")).click()  # the first hand: anyone may deal
    assert page.locator("[data-mighty-bidder]").is_hidden()  # the pad knows who bids
    page.locator("#auction-pad").evaluate("node => node.scrollIntoView({block: 'start'})")
    assert in_view(page, "#auction-pad button") == []

    auction = [
        ("Ann", "bid_S_13"),
        ("Ben", "pass"),
        ("Cy", "bid_H_14"),
        ("Dee", "pass"),
        ("Eve", "pass"),
        ("Ann", "bid_H_15"),
        ("Cy", "pass"),
    ]
    for number, (player, action) in enumerate(auction, 1):
        assert page.locator("#bidder").input_value() == player
        before = taps.count
        taps.send(f"#auction-pad button[name=action][value={action}]")
        assert taps.count - before == TAPS_PER_BID
        assert page.locator(".mighty-log li").count() == number
        assert in_view(page, "#auction-pad button") == [], f"after {player}'s {action}"
    assert in_view(page, "#auction-pad .mighty-turn") == []
    assert "Ann won the auction with 15 hearts" in page.locator("#auction-pad").inner_text()
    assert page.locator("#auction-pad button[name=action][value=pass]").count() == 0
    assert page.locator("#auction-pad .mighty-bids button").count() == 0
    assert phone.session(sid)["rounds"] == []  # every tap on the pad was a dry run

    # the contract comes from the auction: the friend, the points and record remain
    assert page.locator("#boss").input_value() == "Ann"
    assert page.locator("#contract_bid").input_value() == "15"
    for button in (*card_taps("JK"), chip("friend_player", "Cy"), points(3)):
        taps.tap(button)
    taps.send("button[name=action][value=record]")
    page.locator("#round-1").wait_for()
    assert taps.count == len(auction) + 4 and taps.keys() == 0

    session = phone.session(sid)
    (stored,) = session["rounds"]
    assert len(stored["input"]["bidding"]) == len(auction)
    expected = scored(session, boss="Ann", friend="Cy", bid=15, trump="H", against=3)
    assert (
        stored["result"]["deltas"]
        == expected
        == {
            "Ann": 10,
            "Ben": -5,
            "Cy": 5,
            "Dee": -5,
            "Eve": -5,
        }
    )
    phone.check()


def test_without_javascript_the_pad_still_bids_in_one_tap(chromium, live_csrf):
    page = chromium.new_page(viewport=browser_support.PHONE, java_script_enabled=False)
    try:
        base = live_csrf[0]
        page.goto(f"{base}/sessions/new?game=mighty")
        page.fill("#players", "\n".join(PLAYERS))
        with page.expect_navigation():
            page.locator("button:has-text('Start the session')").click()
        assert page.locator("#dealer").is_visible()  # the selects, as they always were
        assert page.locator("[data-mighty-picker]").is_hidden()
        page.select_option("#dealer", "Dee")
        page.select_option("#bidder", "Dee")
        with page.expect_navigation():
            page.locator("button[name=action][value=bid_D_14]").click()
        assert "Dee" in page.locator(".mighty-log").inner_text()
        assert "14 ♦" in page.locator(".mighty-log").inner_text()
        assert page.locator("#bidder").input_value() == "Eve"
        assert page.locator("button[name=action][value=bid_NT_14]").count() == 1
        assert page.locator("button[name=action][value=bid_D_14]").count() == 0
    finally:
        page.close()
