"""A Dixit turn recorded by taps alone, in a real browser at phone size, every tap counted.

The storyteller is offered by the rotation; who laid each card is tapped name by name into the
numbered cards (the last one fills itself); each voter taps the card they voted for beside their
name (two under the Odyssey rule); then "Record". The stored deltas are read back through the
API and compared with the numbers the rules give. A wrong owner is changed by tapping its card
and the right name; a voter's own card is greyed and votes nothing; a vote left out is refused
by the referee, with its message by the voter; without JavaScript the form is the selects it
always was.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import KEYS, PHONE, TIMEOUT, Phone
from .contrast import CONTRAST_FAILURES
from .test_e2e_polish import small_targets

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

#: the turn being entered (a correction's page also holds the next turn's form, folded away)
TURN = "#round-form > .dixit-turn"
#: every button the pads show, each to be at least 44 x 44 px
PADS = [
    f"{TURN} button.dx-slot",
    f"{TURN} .dx-names button",
    f"{TURN} .dx-votes button[data-vote]",
]

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: the most taps a five-player turn may take, from the fresh session page
TURN_TAPS = 12
#: Ann tells (the rotation's first); Cy, Ann, Eve, Ben and Dee laid cards 1 to 5
POSITIONS = ["Cy", "Ann", "Eve", "Ben", "Dee"]
#: Ben and Cy find Ann's card; Dee votes for Cy's, Eve for Ben's
VOTES = {"Ben": [2], "Cy": [2], "Dee": [1], "Eve": [4]}
#: some found: Ann, Ben and Cy +3; Cy and Ben +1 for a vote each on their cards
DELTAS = {"Ann": 3, "Ben": 4, "Cy": 4, "Dee": 0, "Eve": 0}

#: the most the rules allow: twelve players under the Odyssey rule (one or two votes each)
ODYSSEY = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee"]
#: the cards in reverse seat order: Ann's, the storyteller's, is card 12 and fills itself
ODYSSEY_POSITIONS = list(reversed(ODYSSEY))
ODYSSEY_VOTES = {
    "Ben": [12],
    "Cy": [12, 1],
    "Dee": [11],
    "Eve": [11, 10],
    "Fay": [12],
    "Gus": [2],
    "Hal": [3, 4],
    "Ivy": [12],
    "Jo": [5],
    "Kim": [12, 6],
    "Lee": [7],
}
#: five of eleven find card 12: Ann and each finder +3, the three who used one vote +1 more;
#: +1 to the owner of each other card voted for (Ben's card drew two votes)
ODYSSEY_DELTAS = {
    "Ann": 3,
    "Ben": 4 + 2,
    "Cy": 3 + 1,
    "Dee": 0,
    "Eve": 0,
    "Fay": 4 + 1,
    "Gus": 1,
    "Hal": 1,
    "Ivy": 4 + 1,
    "Jo": 1,
    "Kim": 3 + 1,
    "Lee": 1,
}
#: the taps of that turn: a name per card but the last, a card per vote, Record
ODYSSEY_TAPS = (len(ODYSSEY) - 1) + sum(len(cards) for cards in ODYSSEY_VOTES.values()) + 1

#: three players lay five cards: Ann tells, Ben and Cy lay two each
TRIO = ["Ann", "Ben", "Cy"]
TRIO_POSITIONS = ["Ben", "Ann", "Cy", "Ben", "Cy"]
#: Ben finds Ann's card, Cy votes for Ben's: Ann and Ben +3, Ben +1
TRIO_VOTES = {"Ben": [2], "Cy": [4]}
TRIO_DELTAS = {"Ann": 3, "Ben": 4, "Cy": 0}


# -- the pads' buttons, and filling a turn by taps (tests/test_e2e_dixit.py uses these too) -----


def slot(number: int) -> str:
    """Return the numbered card's button (tap it to change who laid it)."""
    return f"{TURN} button[data-slot='{number}']"


def name_chip(name: str) -> str:
    """Return a player's name under the numbered cards."""
    return f"{TURN} .dx-names button[data-name='{name}']"


def vote(voter: str, number: int) -> str:
    """Return the card's button beside a voter."""
    return f"{TURN} .vote-row[data-voter='{voter}'] button[data-vote='{number}']"


def tap_positions(page, owners: list[str]) -> list[str]:
    """Tap who laid each card, changing only what differs; return the buttons tapped."""
    tapped = []
    for number, owner in enumerate(owners, 1):
        if page.locator(f"{TURN} select[data-position='{number}']").input_value() == owner:
            continue  # filled already (the last card fills itself)
        if page.locator(slot(number)).get_attribute("aria-pressed") != "true":
            tapped.append(slot(number))
            page.locator(slot(number)).click()
        tapped.append(name_chip(owner))
        page.locator(name_chip(owner)).click()
    return tapped


def tap_votes(page, votes: dict[str, list[int]]) -> list[str]:
    """Tap each voter's card(s), taking back any other; return the buttons tapped."""
    tapped = []
    for voter, cards in votes.items():
        row = page.locator(f"{TURN} .vote-row[data-voter='{voter}']")
        held = [int(v) for v in row.locator("select").evaluate_all("s => s.map(x => x.value)") if v]
        for number in [n for n in held if n not in cards] + [n for n in cards if n not in held]:
            tapped.append(vote(voter, number))
            page.locator(vote(voter, number)).click()
    return tapped


def clear_position(page, number: int) -> None:
    """Tap a card, then the name it holds: the card is empty again."""
    owner = page.locator(f"{TURN} select[data-position='{number}']").input_value()
    if page.locator(slot(number)).get_attribute("aria-pressed") != "true":
        page.locator(slot(number)).click()
    page.locator(name_chip(owner)).click()


# -- helpers of these tests ----------------------------------------------------------------------


class Taps:
    """Taps on a phone's page, each one counted."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.count = 0
        phone.page.add_init_script(KEYS)

    def positions(self, owners: list[str]) -> None:
        """Tap who laid each card."""
        self.count += len(tap_positions(self.phone.page, owners))

    def votes(self, votes: dict[str, list[int]]) -> None:
        """Tap each voter's card(s)."""
        self.count += len(tap_votes(self.phone.page, votes))

    def on(self, selector: str) -> None:
        """Tap one button of the pads."""
        self.phone.page.locator(selector).click()
        self.count += 1

    def record(self, number: int, status: int = 200) -> None:
        """Tap Record and wait for the answer (swapped in place or loaded)."""
        self.phone.tap(f"#round-form button:has-text('Record round {number}')", status=status)
        self.count += 1

    def keys(self) -> int:
        """Return how many keys were pressed on the page since it was loaded."""
        return int(self.phone.page.evaluate("window.__keys || 0"))


def start(phone: Phone, players: list[str], preset: str | None = None) -> int:
    """Start a Dixit session through the API and open its page."""
    body: dict = {"game": "dixit", "players": players}
    if preset:
        body["preset"] = preset
    sid = phone.api("POST", "/api/sessions", body)["id"]
    phone.open(f"/sessions/{sid}")
    return sid


def stored(phone: Phone, sid: int, rounds: int) -> dict:
    """Wait until the session holds that many rounds; return its last round."""
    for _step in range(TIMEOUT // 100):
        session = phone.session(sid)
        if len(session["rounds"]) >= rounds:
            return session["rounds"][rounds - 1]
        phone.page.wait_for_timeout(100)
    raise AssertionError(f"round {rounds} was not stored")


def owners(page) -> list[str]:
    """Return who laid each card, as the form's selects hold it."""
    return page.locator(f"{TURN} select[data-position]").evaluate_all("s => s.map(x => x.value)")


def shown_owners(page) -> list[str]:
    """Return the names the numbered cards show."""
    return [text.strip() for text in page.locator(f"{TURN} .dx-slot-who").all_inner_texts()]


# -- the tests ----------------------------------------------------------------------------------


def test_five_players_record_a_turn_in_twelve_taps_without_a_keyboard(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone, PLAYERS)
    page = phone.page
    assert page.locator(f"{TURN} #storyteller").input_value() == "Ann"  # by the rotation
    assert page.locator(f"{TURN} select[data-position='1']").is_hidden()  # the pads lie over
    assert page.locator(slot(1)).get_attribute("aria-pressed") == "true"
    assert small_targets(page, PADS) == []

    taps.positions(POSITIONS[:-1])
    assert owners(page) == POSITIONS == shown_owners(page)  # Dee's card filled itself
    assert page.locator(name_chip("Dee")).get_attribute("class") == "dx-name dx-used"
    # the storyteller is dimmed and votes with nothing
    assert "storyteller" in page.locator(f"{TURN} .vote-row[data-voter='Ann']").get_attribute(
        "class"
    )
    assert page.locator(vote("Ann", 1)).is_disabled()
    taps.votes(VOTES)
    assert page.locator(vote("Ben", 2)).get_attribute("aria-pressed") == "true"
    assert page.locator("#vote_4").input_value() == "4"
    taps.record(1)

    assert stored(phone, sid, 1)["result"]["deltas"] == DELTAS
    assert phone.session(sid)["totals"] == DELTAS
    assert taps.count == len(PLAYERS) - 1 + len(VOTES) + 1 <= TURN_TAPS, f"{taps.count} taps"
    assert taps.keys() == 0
    # a fresh form for the next turn: Ben tells, every card open again
    assert page.locator(f"{TURN} #storyteller").input_value() == "Ben"
    assert owners(page) == [""] * len(PLAYERS)
    assert (
        page.locator(vote("Ben", 1)).is_disabled()
        and not page.locator(vote("Ann", 1)).is_disabled()
    )


def test_twelve_players_under_the_odyssey_rule_by_taps(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone, ODYSSEY, preset="odyssey")
    page = phone.page
    assert page.locator(f"{TURN} .vote-row").count() == len(ODYSSEY)
    assert page.locator(f"{TURN} .vote-row[data-voter='Ben'] button[data-vote]").count() == 12

    taps.positions(ODYSSEY_POSITIONS[:-1])
    assert owners(page) == ODYSSEY_POSITIONS  # Ann's card filled itself
    taps.votes(ODYSSEY_VOTES)
    assert (
        page.locator("#vote_2").input_value() == "12"
        and page.locator("#vote2_2").input_value() == "1"
    )
    assert small_targets(page, PADS) == []
    taps.record(1)

    assert stored(phone, sid, 1)["result"]["deltas"] == ODYSSEY_DELTAS
    assert taps.count == ODYSSEY_TAPS, f"{taps.count} taps"
    assert taps.keys() == 0
    print(f"twelve players, Odyssey: {taps.count} taps")
    phone.check()


def test_a_wrong_owner_is_changed_by_tapping_its_card_and_the_right_name(table_phone):
    phone = table_phone
    taps = Taps(phone)
    sid = start(phone, PLAYERS)
    page = phone.page

    # a slip: Ben tapped for card 3 (Eve's), so the rest shifts: Eve on 4, Dee fills 5
    for name in ["Cy", "Ann", "Ben", "Eve"]:
        taps.on(name_chip(name))
    assert owners(page) == ["Cy", "Ann", "Ben", "Eve", "Dee"]
    assert page.locator(f"{TURN} button[aria-pressed=true].dx-slot").count() == 0  # all full
    # tap card 3, then Eve: the two swap, and every card is right
    taps.on(slot(3))
    assert page.locator(slot(3)).get_attribute("aria-pressed") == "true"
    assert "dx-used" in page.locator(name_chip("Eve")).get_attribute("class")  # greyed, tappable
    taps.on(name_chip("Eve"))
    assert owners(page) == POSITIONS == shown_owners(page)

    # a vote changed: one tap on the other card; a vote taken back and given again
    taps.on(vote("Dee", 3))
    taps.on(vote("Dee", 1))
    assert page.locator("#vote_3").input_value() == "1"
    taps.on(vote("Dee", 1))
    assert page.locator("#vote_3").input_value() == ""
    taps.on(vote("Dee", 1))

    # Eve laid card 3: her own card is greyed in her row and a tap on it votes nothing
    own = page.locator(vote("Eve", 3))
    assert own.is_disabled() and "dx-own" in own.get_attribute("class")
    own.click(force=True)
    assert page.locator("#vote_4").input_value() == ""
    # Eve's vote left out: the referee refuses it by the voter
    taps.votes({name: cards for name, cards in VOTES.items() if name != "Eve"})
    taps.record(1, status=422)
    phone.assert_message_by(
        "#vote_4", "Eve has not voted; every player but the storyteller votes once."
    )
    assert phone.session(sid)["rounds"] == []
    # the refusal's link at the form's top leads to Eve's cards (her select lies under them)
    page.locator("#refused a[data-field='vote_4']").click()
    assert page.evaluate("document.activeElement.closest('.vote-row').dataset.voter") == "Eve"
    assert owners(page) == POSITIONS  # the taps are kept
    taps.votes(VOTES)
    taps.record(1)
    assert stored(phone, sid, 1)["result"]["deltas"] == DELTAS
    assert taps.keys() == 0


def test_three_players_lay_two_cards_each_and_the_last_fills_itself(table_phone):
    phone = table_phone
    sid = start(phone, TRIO)
    page = phone.page
    assert page.locator(f"{TURN} button.dx-slot").count() == 5
    for name in TRIO_POSITIONS[:2]:
        page.locator(name_chip(name)).click()
    # Ann (the storyteller) has laid her one card; Ben may lay a second
    assert "dx-used" in page.locator(name_chip("Ann")).get_attribute("class")
    assert "dx-used" not in page.locator(name_chip("Ben")).get_attribute("class")
    for name in TRIO_POSITIONS[2:4]:
        page.locator(name_chip(name)).click()
    assert owners(page) == TRIO_POSITIONS  # Cy's second card filled itself
    tap_votes(page, TRIO_VOTES)
    phone.tap("#round-form button:has-text('Record round 1')")
    assert stored(phone, sid, 1)["result"]["deltas"] == TRIO_DELTAS


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pads_meet_aa_contrast_light_and_dark(chromium, live_csrf, scheme):
    context = chromium.new_context(viewport=PHONE, color_scheme=scheme, locale="en-US")
    context.add_init_script(browser_support.VIEW % "all")  # the whole round form
    page = context.new_page()
    try:
        base = live_csrf[0]
        answer = page.request.post(
            f"{base}/api/sessions", data={"game": "dixit", "players": PLAYERS}
        )
        page.goto(f"{base}/sessions/{answer.json()['id']}")
        # every state shown: a filled card, the active one, open ones, a used name, a vote
        tap_positions(page, POSITIONS[:2])
        tap_votes(page, {"Ben": [2]})
        assert "dx-used" in page.locator(name_chip("Cy")).get_attribute("class")
        assert page.evaluate(CONTRAST_FAILURES) == []
    finally:
        context.close()


def test_without_javascript_the_selects_are_the_form(chromium, live_csrf):
    context = chromium.new_context(viewport=PHONE, locale="en-US", java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    base = live_csrf[0]
    answer = page.request.post(f"{base}/api/sessions", data={"game": "dixit", "players": PLAYERS})
    sid = answer.json()["id"]
    page.goto(f"{base}/sessions/{sid}")
    assert page.locator(f"{TURN} .dx-pad").first.is_hidden()
    assert page.locator(f"{TURN} button.dx-slot").first.is_hidden()
    for number, owner in enumerate(POSITIONS, 1):
        page.select_option(f"#pos_{number}", owner)
    for voter, (card,) in VOTES.items():
        page.select_option(f"#vote_{PLAYERS.index(voter)}", str(card))
    with page.expect_navigation():
        page.locator("#round-form button:has-text('Record round 1')").click()
    session = page.request.get(f"{base}/api/sessions/{sid}").json()
    assert session["rounds"][0]["result"]["deltas"] == DELTAS
    context.close()
