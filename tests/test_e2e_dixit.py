"""Dixit at the table, in a real browser at phone size, through the forms with CSRF on.

A session is started with the new-session form, turns are recorded by choosing the storyteller,
then tapping who laid each card and each vote on the form's pads; the standings are read off
the page and compared with the API. A refused input stands by its field and stores nothing; a
past turn is corrected and the last one undone. Every page visited: no console errors, no
sideways scrolling.
"""

from __future__ import annotations

from . import browser_support
from .test_e2e_dixit_taps import clear_position, tap_positions, tap_votes, vote

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: Ann tells; Ben and Cy find her card, Dee votes for Ben's: Ann 3, Ben 4, Cy 3, Dee 0
FIRST = ("Ann", ["Dee", "Ann", "Ben", "Cy"], {"Ben": 2, "Cy": 2, "Dee": 3})
#: Ben tells and everyone finds his card: Ben 0, the others 2 each
SECOND = ("Ben", ["Ben", "Ann", "Cy", "Dee"], {"Ann": 1, "Cy": 1, "Dee": 1})


def open_rule_group(page, field: str) -> None:
    """Tap open the closed house-rule topic holding a field (the form shows them closed)."""
    group = page.locator(f"details.rule-group:has({field})")
    if not group.evaluate("el => el.open"):
        group.locator("summary").first.click()


def start_session(phone, players=PLAYERS) -> int:
    """Start a Dixit session through the new-session form; return its id."""
    page = phone.open("/sessions/new?game=dixit")
    page.fill("#name", "Friday")
    page.fill("#players", "\n".join(players))
    open_rule_group(page, "#rule_target_score")
    page.fill("#rule_target_score", "30")
    phone.tap("button:has-text('Start the session')")
    assert phone.flash() == [f"Session started: {', '.join(players)}."]
    return phone.session_id()


def fill_turn(page, storyteller: str, positions: list[str], votes: dict[str, int]) -> None:
    """Choose the storyteller, then tap who laid each card and each player's vote."""
    page.locator(f".dx-tellers button[data-teller='{storyteller}']").click()
    tap_positions(page, positions)
    tap_votes(page, {name: [card] for name, card in votes.items()})


def record(phone, turn, number: int) -> None:
    """Fill a turn and tap "Record round n"; check the flash."""
    fill_turn(phone.page, *turn)
    phone.tap(f"button:has-text('Record round {number}')")
    assert f"Round {number} recorded." in phone.flash()


def test_whole_turns_recorded_through_the_forms(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)
    assert page.locator("#record h2").inner_text() == "Round 1"

    # check first: the score is shown, nothing is stored
    fill_turn(page, *FIRST)
    phone.tap("button:has-text('Check only')")
    checked = page.locator(".checked")
    assert "Checked: nothing wrong." in checked.inner_text()
    assert "Ben +4" in checked.locator(".deltas").inner_text()
    assert phone.session(sid)["rounds"] == []
    assert page.locator("#vote_3").input_value() == "3"  # the entries are kept

    phone.tap("button:has-text('Record round 1')")
    assert "Round 1 recorded." in phone.flash()
    assert phone.standings() == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert phone.standings() == phone.session(sid)["totals"]

    # the next storyteller is offered, and their vote row is dimmed
    assert page.locator("#storyteller").input_value() == "Ben"
    assert "storyteller" in (page.locator('.vote-row[data-voter="Ben"]').get_attribute("class"))
    record(phone, SECOND, 2)
    session = phone.session(sid)
    assert phone.standings() == {"Ann": 5, "Ben": 4, "Cy": 5, "Dee": 2} == session["totals"]
    assert len(session["rounds"]) == 2
    assert page.locator("#round-2 .delta").all_inner_texts() == [
        "Ann +2",
        "Ben 0",
        "Cy +2",
        "Dee +2",
    ]
    assert page.locator("figure.chart > svg polyline").count() == len(PLAYERS)
    assert page.locator("#record h2").inner_text() == "Round 3"


def test_refused_inputs_stand_by_their_fields_and_store_nothing(table_phone):
    phone = table_phone
    before = phone.api("GET", "/api/sessions")["total"]

    page = phone.open("/sessions/new?game=dixit")
    page.fill("#players", "Ann\nBen")
    phone.tap("button:has-text('Start the session')", status=422)
    phone.assert_message_by("#players", "Dixit is played by 3 to 8 players, not 2.")
    page.fill("#players", "Ann\nBen\nCy")
    open_rule_group(page, "#rule_target_score")
    page.fill("#rule_target_score", "lots")
    phone.tap("button:has-text('Start the session')", status=422)
    phone.assert_message_by(
        "#rule_target_score", "The house rule “Target score” must be a whole number"
    )
    assert phone.api("GET", "/api/sessions")["total"] == before

    sid = start_session(phone)
    storyteller, positions, _ = FIRST
    fill_turn(page, storyteller, positions, {"Ben": 2, "Cy": 2})
    # Ben laid card 3: his own card is greyed and cannot be voted for (the referee never sees it)
    assert page.locator(vote("Ben", 3)).is_disabled()
    phone.tap("button:has-text('Record round 1')", status=422)
    phone.assert_message_by(
        "#vote_3", "Dee has not voted; every player but the storyteller votes once."
    )
    assert page.locator("#vote_1").input_value() == "2"  # what was entered stays to be fixed
    session = phone.session(sid)
    assert session["rounds"] == [] and set(session["totals"].values()) == {0}
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)

    # a card nobody laid: the message stands by that card
    page.locator(vote("Dee", 3)).click()
    clear_position(page, 3)
    phone.tap("button:has-text('Record round 1')", status=422)
    phone.assert_message_by("#pos_3", "Choose who laid card 3.")
    assert phone.session(sid)["rounds"] == []

    # the same turn without the form's hidden CSRF token is refused, and stores nothing
    assert page.locator("#record input[name=csrf_token]").count() == 1
    storyteller, positions, votes = FIRST
    forged = {"storyteller": storyteller, "action": "record"}
    forged.update({f"pos_{n}": owner for n, owner in enumerate(positions, 1)})
    forged.update({f"vote_{PLAYERS.index(name)}": str(card) for name, card in votes.items()})
    answer = page.request.post(f"{phone.base}/sessions/{sid}/rounds", form=forged)
    assert answer.status == 400
    assert phone.session(sid)["rounds"] == []

    # fixed, it records
    record(phone, FIRST, 1)
    assert phone.standings() == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}


def test_correct_a_past_turn_undo_the_last_and_read_the_other_pages(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    record(phone, FIRST, 1)
    record(phone, SECOND, 2)

    # correct turn 1: Dee found Ann's card after all, so everyone found it
    page.locator("#round-1 a:has-text('Correct')").click()  # opens in place, in the history
    phone.tap("#round-1 .correction a:has-text('Open on its own page')")
    assert page.locator("h1").inner_text() == "Correct round 1"
    assert page.locator("#storyteller").input_value() == "Ann"
    assert page.locator("#vote_3").input_value() == "3"
    page.locator(vote("Dee", 2)).click()
    phone.tap("button:has-text('Save the correction')")
    assert "Round 1 corrected; later rounds were rescored." in phone.flash()
    assert page.locator("#round-1 .tag").inner_text() == "corrected"
    # turn 1 now: Ann 0, the others 2; turn 2 unchanged: Ben 0, the others 2
    assert phone.standings() == {"Ann": 2, "Ben": 2, "Cy": 4, "Dee": 4}
    assert phone.standings() == phone.session(sid)["totals"]

    # undo the last turn (the page asks first)
    assert page.locator("#round-1 button:has-text('Undo')").count() == 0  # only the last
    phone.tap("#round-2 button:has-text('Undo')")
    assert phone.dialogs == ["Undo round 2? It stays in the history of changes."]
    assert "Round 2 undone." in phone.flash()
    assert phone.standings() == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 2}
    session = phone.session(sid)
    assert len(session["rounds"]) == 1 and phone.standings() == session["totals"]
    assert page.locator("#storyteller").input_value() == "Ben"

    page = phone.open(f"/sessions/{sid}/print")
    assert "Cy" in page.locator("table.standings").inner_text()
    page = phone.open(f"/sessions/{sid}/changes")
    changes = page.locator("ol.changes").inner_text()
    for line in ("Round 1 recorded.", "Round 1 corrected.", "Round 2 undone."):
        assert line in changes
    page = phone.open("/players")
    phone.tap("table.players a:has-text('Dee')")
    assert page.locator("h1").inner_text() == "Dee"
    assert page.locator("#game-dixit").count() == 1
