"""The Dalmuti pages: the table as it sits, a hand entered step by step, check a play, corrections.

Five players as posted, so the first ranks are Ann (Greater Dalmuti), Ben (Lesser Dalmuti),
Cy (merchant), Dee (Lesser Peasant) and Eve (Greater Peasant); the full deck deals 16 each.
"""

from __future__ import annotations

import re

import pytest

from refapp.extensions import db
from refapp.games.dalmuti.web.words import (
    card_tokens,
    cards_field,
    exchanges,
    place_label,
    tax_lines,
)
from refapp.models import AuditEntry, GameSession, Round

from .conftest import shown

FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
TAX = {"greater_peasant": "5 6", "greater_dalmuti": "12 12", "lesser_peasant": "7"}
TAX["lesser_dalmuti"] = "11"
# Eve's hand as dealt: her two best cards are 2 and 4
EVE = "2 4 4 7 8 9 9 10 10 11 11 12 12 12 12 J"
# Dee's and Ann's hands as dealt (the other jester is Ann's)
DEE = "3 5 6 6 8 9 10 10 11 11 11 12 12 12 12 12"
ANN = "1 2 3 3 5 5 6 7 7 8 9 10 11 12 12 J"


def start(api, players=FIVE, **extra) -> int:
    """Create a Dalmuti session through the API and return its id."""
    return api.create(players=list(players), game="dalmuti", **extra)["id"]


def hand_form(tribute=None, finish=None, revolution=None, hands=None, **extra) -> dict:
    """Return the hand form's fields: tribute by role, finish order, revolution, hands by seat."""
    data: dict[str, str] = {}
    if revolution:
        data["revolution_player"], data["revolution_kind"] = revolution
    for role, cards in (tribute or {}).items():
        data[f"tribute_{role}"] = cards
    for name, cards in (hands or {}).items():
        data[f"hand_{FIVE.index(name)}"] = cards
    for place, name in enumerate(finish or [], 1):
        data[f"finish_{place}"] = name
    data.update(extra)
    return data


def count(app, model) -> int:
    """Count stored rows of a model."""
    with app.app_context():
        return db.session.query(model).count()


def near(page: str, marker: str, end: str = "</div>") -> str:
    """Return the page from a marker to the end of its block (where a field's message stands)."""
    assert marker in page, marker
    return page.split(marker, 1)[1].split(end, 1)[0]


def group(page: str, name: str) -> str:
    """Return a step: revolution, tax (with the tribute's cards and the hands) or finish."""
    block = page.split(f'id="dal-{name}"', 1)[1]
    end = '<fieldset class="dal-step dal-finish"' if name == "tax" else '<fieldset class="dal-step'
    return block.split(end, 1)[0].split('<div class="buttons">', 1)[0]


def stored(app, number: int = 1) -> Round:
    """Return a stored round."""
    with app.app_context():
        played = db.session.query(Round).filter_by(number=number).one()
        db.session.expunge(played)
        return played


# -- the table as it sits --------------------------------------------------------------------------


def test_the_session_page_shows_the_table_as_it_sits(client, api):
    sid = start(api)
    page = shown(client.get(f"/sessions/{sid}"))
    status = page.split('class="dal-status"', 1)[1].split("</dl>", 1)[0]
    assert "At the table: hand 1" in status
    rows = re.findall(r"<strong>([A-Za-z]+)</strong>\s*<span class=\"dal-title\">([^<]+)<", status)
    assert rows == [
        ("Ann", "Greater Dalmuti"),
        ("Ben", "Lesser Dalmuti"),
        ("Cy", "Merchant"),
        ("Dee", "Lesser Peasant"),
        ("Eve", "Greater Peasant"),
    ]
    assert '<span lang="ko">달무티</span>' in status and "Nagy Paraszt" in status
    assert status.count('<td class="num">16</td>') == 5
    assert "Eve deals 80 cards" in status and "deals</span>" in near(status, "<strong>Eve")
    assert "Eve gives Ann their 2 best cards; Ann gives Eve any 2." in status
    assert "Dee gives Ben their best card; Ben gives Dee any 1." in status
    assert "Eve may reverse every rank instead" in status
    assert "No hand played yet; the table decides when to stop." in status
    assert "0 played" not in status
    assert f'href="/sessions/{sid}/check-play"' in status
    assert 'name="tribute_greater_peasant"' in page and 'name="finish_5"' in page
    assert "Greater Peasant Eve gives Ann their 2 best cards" in page


def test_hands_to_play_and_a_removed_rank_are_shown(client, api):
    sid = start(api, rules={"hands_to_play": 3, "removed_ranks": [12], "tax_first_hand": False})
    page = shown(client.get(f"/sessions/{sid}"))
    assert "hand 1 of 3" in page and "0 played, 3 to play." in page
    assert "Eve deals 68 cards (without the 12s)" in page
    assert (
        "No tax this hand (the first hand, and the house rule “Tax in the first hand” is off)."
        in page
    )
    assert 'name="tribute_greater_peasant"' not in page
    assert "Check the revolution" in page


# -- recording a hand ------------------------------------------------------------------------------


def test_record_a_hand_with_tribute_through_the_form(client, app, api):
    sid = start(api)
    finish = ["Cy", "Ann", "Eve", "Ben", "Dee"]
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_form(TAX, finish, expected_round="1")
    )
    assert response.status_code == 302, shown(response)
    played = stored(app)
    assert played.input["tribute"] == {
        "greater_peasant": [5, 6],
        "greater_dalmuti": [12, 12],
        "lesser_peasant": [7],
        "lesser_dalmuti": [11],
    }
    assert played.input["finish_order"] == finish and played.input["revolution"] is None
    assert played.result["ranks_after"] == finish
    assert played.result["deltas"] == {"Ann": 3, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2}
    session = api.session(sid)
    assert session["state"]["ranks"] == finish and session["totals"]["Cy"] == 4
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 recorded." in page
    standings = page.split('id="standings"', 1)[1].split("</table>", 1)[0]
    assert re.search(r"<td>Cy</td><td class=\"num\">4</td>", standings)
    status = page.split('class="dal-status"', 1)[1].split("</table>", 1)[0]
    cy = near(status, "<strong>Cy</strong>", "</tr>")
    assert "Greater Dalmuti" in cy and cy.rstrip().endswith('<td class="num">4</td>')
    assert "Dee deals 80 cards" in page and "Dee gives Cy their 2 best cards" in page
    history = page.split('id="round-1"', 1)[1]
    assert "Ann › Ben › Cy › Dee › Eve" in history
    assert "Eve → Ann: 5 6" in history and "Ann → Eve: 12 12" in history
    assert "1. Cy (4)" in history and "5. Dee (0)" in history
    assert "Tax: Eve (Greater Peasant) gave 5 (Abbess) and 6 (Knight) to Ann." in history
    assert "Record round 2" in page


def test_the_last_place_fills_itself(client, app, api):
    sid = start(api)
    response = client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve"]))
    assert response.status_code == 422
    assert "leaves out Ben and Dee" in group(shown(response), "finish")
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve", "Ben"])
    )
    assert response.status_code == 302
    assert stored(app).input["finish_order"] == ["Cy", "Ann", "Eve", "Ben", "Dee"]


def test_a_gap_in_the_finishing_places_is_refused_at_the_empty_place(client, app, api):
    sid = start(api)
    data = hand_form(TAX, ["Cy", "", "Eve", "Ben", "Dee"])
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    assert "Choose who went out 2nd." in near(shown(response), 'name="finish_2"')
    assert count(app, Round) == 0


def test_recording_needs_the_finishing_order_after_the_steps_before_it(client, app, api):
    sid = start(api)
    response = client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX))
    assert response.status_code == 422
    assert "Enter the finishing order" in group(shown(response), "finish")
    short = hand_form({**TAX, "greater_peasant": "5"})
    page = shown(client.post(f"/sessions/{sid}/rounds", data=short))
    assert "not 1 (given: 5)" in near(page, 'name="tribute_greater_peasant"')
    assert count(app, Round) == 0


@pytest.mark.parametrize(
    ("kind", "during", "after"),
    [
        ("greater", ["Eve", "Dee", "Cy", "Ben", "Ann"], ["Eve", "Dee", "Cy", "Ben", "Ann"]),
        ("plain", ["Ann", "Ben", "Cy", "Dee", "Eve"], ["Eve", "Dee", "Cy", "Ben", "Ann"]),
    ],
)
def test_a_hand_with_a_revolution_pays_no_tax(client, app, api, kind, during, after):
    sid = start(api)
    data = hand_form(finish=after, revolution=("Eve", kind))
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 302, shown(response)
    played = stored(app)
    assert played.input["revolution"] == {"player": "Eve", "kind": kind}
    assert played.input["tribute"] is None
    assert played.result["ranks_during"] == during and played.result["revolution"] == kind
    assert api.session(sid)["state"]["ranks"] == after
    history = shown(client.get(f"/sessions/{sid}")).split('id="round-1"')[1]
    if kind == "greater":
        assert "Eve, greater: this hand Eve › Dee › Cy › Ben › Ann" in history
        assert "declared a greater revolution" in history
    else:
        assert "Eve: no tax, ranks stay" in history


def test_hands_entered_are_stored_with_the_hand(client, app, api):
    sid = start(api)
    tribute = {**TAX, "greater_peasant": "2 4", "lesser_peasant": "3"}
    data = hand_form(tribute, ["Cy", "Ann", "Eve", "Ben", "Dee"], hands={"Eve": EVE, "Dee": DEE})
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 302, shown(response)
    assert stored(app).input["hands"]["Eve"] == card_tokens(EVE)


@pytest.mark.parametrize(
    ("data", "message", "where"),
    [
        (
            hand_form({**TAX, "greater_peasant": "4 4"}, hands={"Eve": EVE}),
            "Eve must give the best of their hand, 2, 4, not 4, 4.",
            'name="tribute_greater_peasant"',
        ),
        (
            hand_form({**TAX, "lesser_peasant": "7 8"}),
            "Cards the Lesser Peasant gives: exactly 1, not 2 (given: 7, 8).",
            'name="tribute_lesser_peasant"',
        ),
        (
            hand_form({**TAX, "greater_dalmuti": "12 J"}),
            "Jesters never change hands in the tax",
            'name="tribute_greater_dalmuti"',
        ),
        (
            hand_form({**TAX, "lesser_dalmuti": "x"}),
            "&#39;x&#39; is not a card",
            'name="tribute_lesser_dalmuti"',
        ),
        (
            hand_form({**TAX, "greater_peasant": "5 9"}, hands={"Eve": EVE}),
            "Eve gave cards their hand (2, 4, 4, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, "
            "jester) does not hold: 5.",
            'name="tribute_greater_peasant"',
        ),
        (
            hand_form({k: v for k, v in TAX.items() if k != "lesser_dalmuti"}),
            "The tribute of the Lesser Dalmuti is missing.",
            'name="tribute_lesser_dalmuti"',
        ),
        (hand_form(), "The tax is due this hand: enter the tribute", "tax"),
        (
            hand_form(TAX, revolution=("Eve", "plain")),
            "No tax is paid this hand (Eve declared a revolution), so no tribute.",
            'name="tribute_greater_peasant"',  # by the first tribute typed, the one to clear
        ),
        (
            hand_form(TAX, hands={"Eve": EVE + " 12"}),
            "Eve was dealt 16 cards as Greater Peasant, but 17 were entered.",
            'name="hand_4"',
        ),
        (
            hand_form(revolution=("Ann", "greater")),
            "Ann (Greater Dalmuti) may declare only a plain revolution",
            'name="revolution_kind"',
        ),
        (
            hand_form(revolution=("Dee", "plain"), hands={"Ann": ANN}),
            "Ann was dealt a jester, so Dee cannot hold both",
            'name="revolution_player"',
        ),
    ],
)
def test_a_refused_hand_shows_the_message_next_to_its_field(client, app, api, data, message, where):
    sid = start(api)
    data = {**data, **hand_form(finish=["Cy", "Ann", "Eve", "Ben", "Dee"])}
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    assert message in page
    if where == "tax":
        block = group(page, "tax").split('class="dal-tribute"')[0]
    elif where == 'name="revolution_kind"':
        block = page.split(where, 1)[1].split("</fieldset>", 1)[0]
    else:
        block = near(page, where)
    assert message in block, f"the message should stand next to {where}"
    assert count(app, Round) == 0


def test_a_name_listed_twice_is_refused_at_the_finishing_order(client, app, api):
    sid = start(api)
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Cy", "Ben", "Dee"])
    )
    assert response.status_code == 422
    assert "&#39;Cy&#39; is listed twice" in group(shown(response), "finish")
    assert count(app, Round) == 0


# -- checking a step before play -------------------------------------------------------------------


def test_check_the_tribute_before_play(client, app, api):
    sid = start(api)
    data = hand_form(TAX, ["Cy", "Ann"], action="check_tax")  # places are ignored by this step
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 200
    page = shown(response)
    step = group(page, "tax")
    assert "Checked: nothing wrong so far." in step
    assert "Tax: Eve (Greater Peasant) gave 5 (Abbess) and 6 (Knight) to Ann." in step
    assert "Tax: Ben (Lesser Dalmuti) gave 11 (Stonecutter) to Dee." in step
    assert "Now play the hand" in step
    assert 'value="5 6"' in page and '<option selected value="Cy">' in page
    assert count(app, Round) == 0


def test_check_part_of_the_tribute_says_what_is_still_to_enter(client, app, api):
    sid = start(api)
    data = hand_form({"greater_peasant": "5 6"}, action="check_tax")
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 200
    step = group(shown(response), "tax")
    assert "Checked: nothing wrong so far." in step and "Still to enter:" in step
    assert "Greater Dalmuti Ann gives Eve any 2 cards" in step.split("Still to enter:")[1]
    assert count(app, Round) == 0


def test_check_the_tribute_refuses_a_short_tribute(client, app, api):
    sid = start(api)
    data = hand_form({"greater_peasant": "5"}, action="check_tax")
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    message = "Cards the Greater Peasant gives: exactly 2, not 1 (given: 5)."
    assert message in near(page, 'name="tribute_greater_peasant"')
    assert "Checked" not in page
    assert count(app, Round) == 0


def test_check_a_revolution_before_play(client, app, api):
    sid = start(api)
    data = hand_form(revolution=("Eve", "greater"), action="check_tax")
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 200
    assert "the ranks for this hand are Eve, Dee, Cy, Ben, Ann" in group(shown(response), "tax")


def test_check_only_scores_a_whole_hand_without_storing(client, app, api):
    sid = start(api)
    data = hand_form(TAX, ["Cy", "Ann", "Eve", "Ben", "Dee"], action="check")
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 200
    page = shown(response)
    assert "Checked: nothing wrong." in page and "Cy <b>+4</b>" in page
    assert count(app, Round) == 0


# -- check a play ----------------------------------------------------------------------------------


def check_play(client, sid, **fields):
    """Post the check-a-play form and return (status, page)."""
    response = client.post(f"/sessions/{sid}/check-play", data=fields)
    return response.status_code, shown(response)


def test_check_a_legal_play(client, app, api):
    sid = start(api)
    assert client.get(f"/sessions/{sid}/check-play").status_code == 200
    status, page = check_play(client, sid, previous="7 7 7", play="6 J 6", hand="2 6 6 9 J")
    assert status == 200
    verdict = near(page, 'id="verdict"')
    assert "Legal: 6, 6, jester (Knight, 3 cards) beats 7, 7, 7 (Seamstress, 3 cards)." in verdict
    assert "To beat it: 3 cards of a number below 6" in verdict
    assert "Left in the hand: 2, 9." in verdict
    status, page = check_play(client, sid, play="J J")
    assert status == 200
    assert "Legal lead: 2 jesters alone (worth 13, the worst)." in page
    status, page = check_play(client, sid, previous="2", play="1", hand="1")
    assert "Nothing beats it" in page and "That is their last card" in page
    assert count(app, Round) == 0


def test_next_play_makes_the_checked_play_the_one_to_beat(client, api):
    sid = start(api)
    status, page = check_play(client, sid, previous="9 9", play="8 8", action="follow")
    assert status == 200
    assert 'name="previous" placeholder="e.g. 7 7 7" type="text" value="8 8"' in page
    assert 'name="play" placeholder="e.g. 6 6 13" type="text" value=""' in page
    assert 'id="verdict"' not in page


@pytest.mark.parametrize(
    ("fields", "message", "field"),
    [
        ({"play": "5 6"}, "A play is cards of one rank (jesters join them), not 5, 6.", "play"),
        ({"previous": "7 7", "play": "6"}, "Cards in the play before: 2", "play"),
        ({"previous": "7 7", "play": "8 8"}, "8, 8 does not beat 7, 7", "play"),
        ({"previous": "7 7", "play": "7 J"}, "7, jester does not beat 7, 7", "play"),
        ({"play": "6 6", "hand": "6 9 12"}, "6 is not in the hand (6, 9, 12).", "play"),
        ({"play": "1 1"}, "These cards hold 2 copies of card 1, but the deck has only 1", "play"),
        ({"play": ""}, "an empty play is a pass", "play"),
        ({"previous": "7 x", "play": "6 6"}, "&#39;x&#39; is not a card", "previous"),
        ({"play": "12"}, "the deck has only 0 (that rank is out of the deck)", "play"),
    ],
)
def test_check_a_refused_play(client, app, api, fields, message, field):
    sid = start(api, rules={"removed_ranks": [12]})
    status, page = check_play(client, sid, **fields)
    assert status == 422
    assert message in near(page, f'name="{field}"'), page
    assert 'id="verdict"' not in page


def test_check_a_play_is_only_for_dalmuti_sessions(client, api):
    sid = api.create()["id"]
    assert client.get(f"/sessions/{sid}/check-play").status_code == 404
    assert client.get("/sessions/999/check-play").status_code == 404


# -- a new session ---------------------------------------------------------------------------------


def new_dalmuti(client, players: str, **fields):
    """Post the new-session form for Dalmuti with the default house rules."""
    data = {
        "game": "dalmuti",
        "players": players,
        "rule_extra_cards_to": "greater_dalmuti_first",
        "rule_greater_revolution": "y",
        "rule_gp_may_choose_plain": "y",
        "rule_tax": "y",
        "rule_tax_first_hand": "y",
        "rule_tax_timing": "simultaneous",
        "rule_scoring": "players_below",
        **fields,
    }
    return client.post("/sessions/new?game=dalmuti", data=data)


def test_new_session_form_offers_rank_order_or_draws(client):
    page = shown(client.get("/sessions/new?game=dalmuti"))
    assert 'name="first_ranks"' in page and 'value="draw"' in page
    assert "the first name is the Greater Dalmuti" in page
    assert 'name="first_ranks"' not in shown(client.get("/sessions/new?game=dixit"))


def test_a_session_created_from_draws(client, app, api):
    response = new_dalmuti(client, "Ann 7\nBen 1\n Cy j \nDee: 3\nEve 12", first_ranks="draw")
    assert response.status_code == 302, shown(response)
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    session = api.session(sid)
    assert session["players"] == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    assert session["state"]["ranks"] == ["Ben", "Dee", "Ann", "Eve", "Cy"]
    with app.app_context():
        assert db.session.get(GameSession, sid).setup == {
            "initial_draw": {"Ann": 7, "Ben": 1, "Cy": "J", "Dee": 3, "Eve": 12}
        }
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Cy deals 80 cards" in page and "Cy gives Ben their 2 best cards" in page


def test_a_session_in_rank_order(client, api):
    response = new_dalmuti(client, "Ann\nBen\nCy\nDee", first_ranks="order")
    assert response.status_code == 302
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    assert api.session(sid)["state"]["ranks"] == ["Ann", "Ben", "Cy", "Dee"]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann 7\nBen 1\nCy 7\nDee 3", "Ann and Cy both drew 7; tied players draw again"),
        ("Ann 7\nBen\nCy 2\nDee 3", "Write the card Ben drew after the name"),
        ("Ann 7\nBen 13\nCy 2\nDee 3", "13 is not a card"),
    ],
)
def test_refused_draws_show_next_to_the_players(client, app, players, message):
    response = new_dalmuti(client, players, first_ranks="draw")
    assert response.status_code == 422
    page = shown(response)
    assert message in page.split('name="players"', 1)[1].split("<fieldset", 1)[0]
    assert count(app, GameSession) == 0


# -- correcting a stored hand ----------------------------------------------------------------------


def test_correct_a_stored_hand_through_the_edit_page(client, app, api):
    sid = start(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve", "Ben", "Dee"]))
    second = {"greater_peasant": "3 3", "greater_dalmuti": "11 12", "lesser_peasant": "2"}
    second["lesser_dalmuti"] = "12"
    client.post(
        f"/sessions/{sid}/rounds", data=hand_form(second, ["Ann", "Cy", "Eve", "Dee", "Ben"])
    )
    assert count(app, Round) == 2

    edit = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert 'name="tribute_greater_peasant" placeholder="e.g. 2 3" type="text" value="5 6"' in edit
    assert '<option selected value="Cy">Cy</option>' in near(edit, 'name="finish_1"')
    # the labels are the ranks before hand 1, not the current ones
    assert "Greater Peasant Eve gives Ann their 2 best cards" in edit
    assert "Hand 1 as it was played" in edit
    edit2 = shown(client.get(f"/sessions/{sid}/rounds/2/edit"))
    assert "Greater Peasant Dee gives Cy their 2 best cards" in edit2

    corrected = hand_form(TAX, ["Ann", "Cy", "Eve", "Ben", "Dee"])
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=corrected)
    assert response.status_code == 302, shown(response)
    assert stored(app, 1).input["finish_order"] == ["Ann", "Cy", "Eve", "Ben", "Dee"]
    assert stored(app, 2).result["ranks_before"] == ["Ann", "Cy", "Eve", "Ben", "Dee"]
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 corrected" in page
    with app.app_context():
        entry = db.session.query(AuditEntry).order_by(AuditEntry.id.desc()).first()
        assert entry.action == "replace_round"


def test_a_refused_correction_stands_by_its_field_and_changes_nothing(client, app, api):
    sid = start(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve", "Ben", "Dee"]))
    bad = hand_form({**TAX, "greater_peasant": "5"}, ["Cy", "Ann", "Eve", "Ben", "Dee"])
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=bad)
    assert response.status_code == 422
    page = shown(response)
    assert "not 1 (given: 5)" in near(page, 'name="tribute_greater_peasant"')
    assert "Hand 1 as it was played" in page
    assert stored(app).input["tribute"]["greater_peasant"] == [5, 6]


def test_check_a_correction_of_the_tribute(client, app, api):
    sid = start(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve", "Ben", "Dee"]))
    data = hand_form({**TAX, "greater_peasant": "2 3"}, action="check_tax")
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=data)
    assert response.status_code == 200
    assert "Tax: Eve (Greater Peasant) gave 2 (Archbishop) and 3 (Earl Marshal) to Ann." in group(
        shown(response), "tax"
    )
    assert stored(app).input["tribute"]["greater_peasant"] == [5, 6]


# -- house rules and the end -----------------------------------------------------------------------


def test_merchants_swaps_under_the_house_rule(client, app, api):
    six = [*FIVE, "Fay"]
    sid = start(api, players=six, rules={"merchant_trade": True})
    page = shown(client.get(f"/sessions/{sid}"))
    assert 'name="trade_2"' in page and 'name="trade_3"' in page  # Cy and Dee are merchants
    data = {
        "tribute_greater_peasant": "5 6",
        "tribute_greater_dalmuti": "12 12",
        "tribute_lesser_peasant": "7",
        "tribute_lesser_dalmuti": "11",
        "trade_2": "Dee",
        **{f"finish_{n}": name for n, name in enumerate(six, 1)},
    }
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 302, shown(response)
    assert stored(app).input["merchant_trades"] == [["Cy", "Dee"]]
    edit = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert '<option selected value="Cy">Cy</option>' in near(edit, 'name="trade_3"')


def test_a_finished_session_shows_the_final_ranks(client, api):
    sid = start(api, rules={"hands_to_play": 1})
    client.post(f"/sessions/{sid}/rounds", data=hand_form(TAX, ["Cy", "Ann", "Eve", "Ben", "Dee"]))
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Final ranks" in page and "Winner: <strong>Cy</strong>" in page
    assert "Record round" not in page and "deals</span>" not in page


# -- the helpers -----------------------------------------------------------------------------------


def test_typed_cards():
    assert card_tokens(" 2 4 ") == [2, 4]
    assert card_tokens("12,11; j") == [12, 11, "J"]
    assert card_tokens("") == [] and card_tokens(None) == []
    assert card_tokens("x 3") == ["x", 3]
    assert cards_field([12, "J"]) == "12 J" and cards_field(3) == "3"


def test_tax_sentences_and_places():
    due = [
        {"from": "Eve", "to": "Ann", "count": 2, "which": "best"},
        {"from": "Ann", "to": "Eve", "count": 2, "which": "any", "after_receiving": True},
    ]
    assert tax_lines(due) == [
        "Eve gives Ann their 2 best cards; Ann gives Eve any 2 (chosen after picking up the "
        "tribute)."
    ]
    assert exchanges(list(FIVE), {"lesser_peasant": [7]}) == [
        {"from": "Dee", "to": "Ben", "role": "lesser_peasant", "cards": [7]}
    ]
    assert place_label(1, 5) == "1st out: next Greater Dalmuti"
    assert place_label(5, 5) == "Last: next Greater Peasant"
