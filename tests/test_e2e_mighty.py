"""Mighty at the table, in a real browser at phone size, through the forms with CSRF on.

A session is started with the new-session form; a hand is recorded as it is played: the dealer,
the auction tapped bid by bid and pass by pass on the pad until it ends, the contract after the
kitty, the friend card (with the page's card picker) and the opposition's point cards (on its
0-20 pad); the names and counts are chips over the form's selects. The standings are read off
the page and compared with the API. Refused inputs stand by their fields and store nothing; a
past hand is corrected and the last one undone. Every page visited: no console errors, no
sideways scrolling.
"""

from __future__ import annotations

from . import browser_support
from .test_e2e_mighty_taps import card_taps, chip, points, trump

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def start_session(phone) -> int:
    """Start a Mighty session through the new-session form; return its id."""
    page = phone.open("/sessions/new?game=mighty")
    page.fill("#name", "Mighty night")
    page.fill("#players", "\n".join(PLAYERS))
    phone.tap("button:has-text('Start the session')")
    assert phone.flash() == [f"Session started: {', '.join(PLAYERS)}."]
    return phone.session_id()


def bid(phone, player: str, count: int, suit: str) -> None:
    """Tap a bid on the auction pad (its count and trump) for the bidder the page offers."""
    assert phone.page.locator("#bidder").input_value() == player
    phone.tap(f"button[name=action][value=bid_{suit}_{count}]")


def pass_(phone, player: str) -> None:
    """Tap pass for the player whose turn the page says it is."""
    assert phone.page.locator("#bidder").input_value() == player
    phone.tap("button[name=action][value=pass]")


def turn(phone) -> str:
    """Return what the pad says about whose turn it is (or who won)."""
    return phone.page.locator(".mighty-turn").inner_text()


def contract(phone, boss: str, count: int, trump_label: str, card, friend: str, against: int):
    """Tap the contract, the friend (card None: none picked) and the opposition's points."""
    page = phone.page
    page.locator(chip("boss", boss)).click()
    page.locator(chip("contract_bid", str(count))).click()
    page.locator(trump(trump_label)).click()
    for button in card_taps(card) if card else ():
        page.locator(button).click()
    page.locator(chip("friend_player", friend)).click()
    page.locator(points(against)).click()


def test_a_whole_hand_through_the_auction_pad(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)
    assert "anyone may deal" in page.locator(".mighty-dealer").inner_text()

    # the auction starts with the dealer: choosing one moves the pad to them
    page.locator(chip("dealer", "Ann")).click()
    assert page.locator("#bidder").input_value() == "Ann"
    bid(phone, "Ann", 13, "S")
    assert "Ben to bid: at least 13 no-trump or 14 in a suit, or pass." in turn(phone)
    pass_(phone, "Ben")
    bid(phone, "Cy", 14, "H")
    assert "Highest: Cy, 14 hearts · passed: Ben" in page.locator(".mighty-highest").inner_text()
    pass_(phone, "Dee")
    pass_(phone, "Eve")
    bid(phone, "Ann", 15, "H")
    pass_(phone, "Cy")
    assert "Ann won the auction with 15 hearts" in turn(phone)
    assert page.locator(".mighty-log li").count() == 7
    assert page.locator("button[name=action][value=pass]").count() == 0  # the pad is closed
    assert phone.session(sid)["rounds"] == []  # every tap on the pad was a dry run

    # the contract starts from the winning bid; the boss raises it to 16 no-trump
    assert page.locator("#boss").input_value() == "Ann"
    assert page.locator("#contract_bid").input_value() == "15"
    assert page.locator("input[name=contract_trump][value=H]").is_checked()
    page.locator(chip("contract_bid", "16")).click()
    page.locator(trump("No-trump")).click()
    page.locator("[data-pick=joker]").click()
    assert page.locator("#friend_card").input_value() == "JK"
    page.locator(chip("friend_player", "Cy")).click()
    page.locator(points(3)).click()
    phone.tap("button[name=action][value=record]")
    assert "Round 1 recorded." in phone.flash()

    # n = 17 > 16: base 6, x2 no-trump = 12; boss +24, friend +12, the other three -12
    expected = {"Ann": 24, "Ben": -12, "Cy": 12, "Dee": -12, "Eve": -12}
    session = phone.session(sid)
    assert phone.standings() == expected == session["totals"]
    assert session["rounds"][0]["input"]["contract"] == {"boss": "Ann", "bid": 16, "trump": "NT"}
    assert len(session["rounds"][0]["input"]["bidding"]) == 7
    assert page.locator("#dealer").input_value() == "Cy"  # the friend deals next
    assert "16 NT" in page.locator("#round-1").inner_text()


def test_refused_inputs_stand_by_their_fields_and_store_nothing(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page

    # the pad offers only bids that beat the highest: Ben may bid 14 only in no-trump
    page.locator(chip("dealer", "Ann")).click()
    bid(phone, "Ann", 14, "S")
    log = page.locator("#bidding").input_value()
    assert page.locator("#bidder").input_value() == "Ben"
    assert page.locator("button[name=action][value=bid_H_14]").count() == 0
    assert page.locator("button[name=action][value=bid_NT_14]").count() == 1
    # the dealer changed after the first bid: refused by the pad's bidder, the log unchanged
    page.locator(chip("dealer", "Cy")).click()
    phone.tap("button[name=action][value=pass]", status=422)
    phone.assert_message_by(
        "#bidder", "It is Cy's turn to bid, but entry 1 is by 'Ann'.", container="#auction"
    )
    assert page.locator("#bidding").input_value() == log
    assert "Ben to bid" in turn(phone)
    page.locator(chip("dealer", "Ann")).click()
    phone.tap("button[name=action][value=unbid]")
    assert page.locator(".mighty-log").count() == 0

    # a friend named by a card, but no card picked
    contract(phone, "Ann", 15, "Hearts", None, "Cy", 3)
    phone.tap("button[name=action][value=record]", status=422)
    phone.assert_message_by("#friend_card", "Friend card: fill this in.")
    assert page.locator("#friend_card").input_value() == ""
    # point cards for the opposition, though it took none (the mighty is one of them)
    page.locator("[data-pick=joker]").click()
    page.locator(chip("mighty_holder", "opposition")).click()
    page.locator(points(0)).click()
    phone.tap("button[name=action][value=record]", status=422)
    phone.assert_message_by("#opposition_points", "the opposition's point cards cannot be 0")
    session = phone.session(sid)
    assert session["rounds"] == [] and set(session["totals"].values()) == {0}
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)

    page.locator(chip("mighty_holder", "")).click()  # the ruling side, as it was
    page.locator(points(3)).click()
    phone.tap("button[name=action][value=record]")
    assert "Round 1 recorded." in phone.flash()
    assert phone.standings() == phone.session(sid)["totals"]
    assert phone.standings()["Ann"] == 10  # base 5, boss 2 x 5


def test_correct_a_past_hand_undo_the_last_and_read_the_other_pages(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    page.locator(chip("dealer", "Ann")).click()
    contract(phone, "Ann", 15, "Hearts", "JK", "Cy", 3)
    phone.tap("button[name=action][value=record]")
    first = {"Ann": 10, "Ben": -5, "Cy": 5, "Dee": -5, "Eve": -5}
    assert phone.standings() == first
    assert page.locator("#dealer").input_value() == "Cy"
    contract(phone, "Dee", 13, "Spades", "HA", "Eve", 4)
    phone.tap("button[name=action][value=record]")
    assert "Round 2 recorded." in phone.flash()
    second = phone.session(sid)["rounds"][1]["result"]["deltas"]
    assert second["Dee"] > 0 and second["Eve"] > 0

    # correct hand 1: the opposition took 6 point cards, so the 15 was not made
    page.locator("#round-1 a:has-text('Correct')").click()  # opens in place, in the history
    phone.tap("#round-1 .correction a:has-text('Open on its own page')")
    assert page.locator("h1").inner_text() == "Correct round 1"
    assert page.locator("#boss").input_value() == "Ann"
    assert page.locator("#opposition_points").input_value() == "3"
    page.locator(points(6)).click()
    phone.tap("button[name=action][value=record]")
    assert "Round 1 corrected; later rounds were rescored." in phone.flash()
    # n = 14 < 15: the opposition wins 2 x 1 = 2; boss -4, friend -2, the others +2
    corrected = {"Ann": -4, "Ben": 2, "Cy": -2, "Dee": 2, "Eve": 2}
    both = {name: corrected[name] + second[name] for name in PLAYERS}
    assert phone.standings() == both == phone.session(sid)["totals"]

    phone.tap("#round-2 button:has-text('Undo')")
    assert phone.dialogs == ["Undo round 2? It stays in the history of changes."]
    assert "Round 2 undone." in phone.flash()
    session = phone.session(sid)
    assert phone.standings() == corrected == session["totals"]
    assert len(session["rounds"]) == 1

    page = phone.open(f"/sessions/{sid}/print")
    assert page.locator("table.sheet tfoot").inner_text().split() == [
        "Total",
        *(str(corrected[name]) for name in PLAYERS),
    ]
    page = phone.open(f"/sessions/{sid}/changes")
    changes = page.locator("ol.changes").inner_text()
    for line in ("Round 2 recorded.", "Round 1 corrected.", "Round 2 undone."):
        assert line in changes
    page = phone.open("/players")
    phone.tap("table.players a:has-text('Ann')")
    assert page.locator("h1").inner_text() == "Ann"
    assert page.locator("#game-mighty").count() == 1
