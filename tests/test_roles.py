"""A player's roles per game, their Mighty partner and Dalmuti's longest run as Greater Dalmuti
(docs/API.md, "Statistics across sessions"), worked by hand on short sessions and kept through
corrections, undos, imports, merges and a rebuild."""

from __future__ import annotations

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import Mark
from refapp.services import owed, recount
from refapp.services.archive import staging

from .test_statistics import MORE_DALMUTI, THREE, THREE_HANDS, mine, stats
from .test_stats import DALMUTI_HANDS, DIXIT_TURNS, FIVE, FOUR, MIGHTY_HANDS, NO_TAX, hand, out

RUN = "longest_greater_dalmuti_run"


def roles(client, name: str, game: str) -> dict:
    """Return a player's roles in a game."""
    return mine(client, name)["games"][game]["roles"]


def run_record(client) -> dict | None:
    """Return the Dalmuti record of the longest run as Greater Dalmuti, if one is set."""
    found = [r for r in stats(client, game="dalmuti")["records"] if r["key"] == RUN]
    return found[0] if found else None


def unplayed(**more: dict[str, int]) -> dict[str, dict[str, int]]:
    """Return every trump with no hand as boss, and the ones given."""
    return {trump: more.get(trump, {"hands": 0, "made": 0}) for trump in ("S", "H", "D", "C", "NT")}


def play(api, game: str, hands: list[dict], players=FIVE, rules=None) -> int:
    """Start a session and record its rounds; return its id."""
    sid = api.create(players=list(players), game=game, rules=rules or {})["id"]
    for entered in hands:
        response = api.record(sid, entered)
        assert response.status_code == 201, response.get_json()
    return sid


# -- Mighty ------------------------------------------------------------------------------------


def test_mighty_roles_of_five_players_worked_by_hand(api, client):
    # 1 Cy 15 H, friend Dee: made.     2 Ann 14 S, her own friend: lost (a back-run).
    # 3 a misdeal, 4 all passed: no hand. 5 Ann 13 S alone: a critic that paid her, made.
    # 6 Eve 16 NT, friend Ann: a run.  7 Ann 17 D, friend Ben: lost.
    play(api, "mighty", MIGHTY_HANDS)
    assert roles(client, "Ann", "mighty") == {
        "boss": {"hands": 3, "won": 1},  # hands 2, 5, 7
        "friend": {"hands": 1, "won": 1},  # hand 6
        "opposition": {"hands": 1, "won": 0},  # hand 1
        "by_bid": {"13": {"hands": 1, "made": 1}, "14": {"hands": 1, "made": 0},
                   "17": {"hands": 1, "made": 0}},
        "by_trump": unplayed(S={"hands": 2, "made": 1}, D={"hands": 1, "made": 0}),
        "runs": 1,  # hand 6, as Eve's friend
        "back_runs": 1,  # hand 2
        "partners": [
            {"name": "Eve", "role": "boss", "hands": 1, "won": 1},
            {"name": "Ben", "role": "friend", "hands": 1, "won": 0},
        ],
    }  # fmt: skip
    eve = roles(client, "Eve", "mighty")
    assert (eve["boss"], eve["friend"], eve["opposition"]) == (
        {"hands": 1, "won": 1},
        {"hands": 0, "won": 0},
        {"hands": 4, "won": 2},  # against Cy (lost), Ann (won), Ann (lost), Ann (won)
    )
    assert eve["by_bid"] == {"16": {"hands": 1, "made": 1}}
    assert eve["by_trump"] == unplayed(NT={"hands": 1, "made": 1})
    assert (eve["runs"], eve["back_runs"]) == (1, 0)
    ben = roles(client, "Ben", "mighty")
    assert (ben["boss"], ben["friend"], ben["opposition"]) == (
        {"hands": 0, "won": 0},
        {"hands": 1, "won": 0},
        {"hands": 4, "won": 1},  # hands 1, 2 (won), 5, 6
    )
    assert ben["by_bid"] == {} and ben["partners"] == [
        {"name": "Ann", "role": "boss", "hands": 1, "won": 0}
    ]
    # the partner: most hands won together; Ben and Ann never won one together
    partners = {name: mine(client, name)["partner"] for name in FIVE}
    assert partners == {"Ann": "Eve", "Ben": None, "Cy": "Dee", "Dee": "Cy", "Eve": "Ann"}


def test_killed_and_resting_players_are_in_no_role(api, client):
    six = (*FIVE, "Fay")
    kill = {**hand("Cy", 15, "H", {"card": "SA", "player": "Dee"}, 4), "dealer": "Ann"}
    play(api, "mighty", [{**kill, "kill": {"card": "JK", "player": "Eve"}}], six)
    play(api, "mighty", [kill], six, {"six_player_rule": "dealer_sits_out"})  # Ann rests
    eve, ann = roles(client, "Eve", "mighty"), roles(client, "Ann", "mighty")
    assert eve["opposition"] == {"hands": 1, "won": 0}  # killed in the first, against in the other
    assert ann["opposition"] == {"hands": 1, "won": 0}  # against in the first, resting in the other
    assert roles(client, "Fay", "mighty")["opposition"] == {"hands": 2, "won": 0}
    assert roles(client, "Cy", "mighty")["partners"] == [
        {"name": "Dee", "role": "friend", "hands": 2, "won": 2}
    ]


def test_partners_move_with_a_correction_an_undo_and_a_merge(api, client):
    sid = play(api, "mighty", [hand("Cy", 15, "H", {"card": "JK", "player": "Dee"}, 3)])
    assert mine(client, "Cy")["partner"] == "Dee"
    corrected = hand("Cy", 15, "H", {"card": "JK", "player": "Eve"}, 3)
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=corrected).status_code == 200
    assert roles(client, "Cy", "mighty")["partners"] == [
        {"name": "Eve", "role": "friend", "hands": 1, "won": 1}
    ]
    assert (
        roles(client, "Dee", "mighty")["partners"] == [] and mine(client, "Dee")["partner"] is None
    )
    assert client.delete(f"/api/sessions/{sid}/rounds/1").status_code == 200
    assert roles(client, "Cy", "mighty")["partners"] == [] and mine(client, "Cy")["partner"] is None
    # Ann as boss with Ben; then Zed (seated after them) with Ben both ways, merged into Ann
    play(api, "mighty", [hand("Ann", 15, "H", {"card": "JK", "player": "Ben"}, 3)])
    zed = ("Zed", "Ben", "Fay", "Gus", "Hal")
    won = hand("Ben", 15, "H", {"card": "JK", "player": "Zed"}, 3)
    play(api, "mighty", [won, hand("Zed", 15, "H", {"card": "JK", "player": "Ben"}, 12)], zed)
    assert client.post("/api/players/Zed/rename", json={"name": "Ann"}).status_code == 200
    assert roles(client, "Ann", "mighty")["partners"] == [
        {"name": "Ben", "role": "friend", "hands": 2, "won": 1},
        {"name": "Ben", "role": "boss", "hands": 1, "won": 1},
    ]
    assert roles(client, "Ben", "mighty")["partners"] == [
        {"name": "Ann", "role": "boss", "hands": 2, "won": 1},
        {"name": "Ann", "role": "friend", "hands": 1, "won": 1},
    ]
    assert mine(client, "Ben")["partner"] == "Ann"
    before = {name: mine(client, name) for name in ("Ann", "Ben")}
    with client.application.app_context():
        recount.rebuild()
        db.session.remove()
    for name, page in before.items():
        again = mine(client, name)
        assert again["games"]["mighty"]["roles"] == page["games"]["mighty"]["roles"]
        assert again["partner"] == page["partner"]


# -- Dalmuti -----------------------------------------------------------------------------------


def test_dalmuti_roles_and_the_longest_run_as_greater_dalmuti(api, client):
    # ranks during each hand (Greater Dalmuti first), then the finishing order:
    # 1 Ann Ben Cy Dee Eve -> Cy Ann Eve Ben Dee   2 (Dee's greater revolution) Dee Ben Eve Ann Cy
    # -> Ann Dee Cy Eve Ben   3 Ann Dee Cy Eve Ben -> Ann Ben Cy Dee Eve   4 Ann Ben Cy Dee Eve ->
    # Ann Cy Ben Dee Eve   5 Ann Cy Ben Dee Eve -> Cy Ann Ben Dee Eve   6 Cy Ann Ben Dee Eve
    sid = play(api, "dalmuti", [*DALMUTI_HANDS, *MORE_DALMUTI], rules=NO_TAX)
    assert roles(client, "Ann", "dalmuti") == {
        "hands_by_rank": {"greater_dalmuti": 4, "lesser_dalmuti": 1, "merchant": 0,
                          "lesser_peasant": 1, "greater_peasant": 0},
        "hands": 6,
        "average_finish": round((2 + 1 + 1 + 1 + 2 + 3) / 6, 2),
        "revolutions": 0,
    }  # fmt: skip
    dee = roles(client, "Dee", "dalmuti")
    assert dee["hands_by_rank"] == {
        "greater_dalmuti": 1, "lesser_dalmuti": 1, "merchant": 0, "lesser_peasant": 4,
        "greater_peasant": 0,
    }  # fmt: skip
    assert dee["revolutions"] == 1
    # Ann held the rank in hands 3, 4 and 5: a run of three, set at round 5
    record = {
        "key": RUN,
        "game": "dalmuti",
        "value": 3,
        "player": "Ann",
        "session": sid,
        "round": 5,
    }
    assert run_record(client) == record
    assert record in mine(client, "Ann")["records"]
    # hand 3 corrected so Ben goes out first: he leads hand 4, Ann hand 5 - no run longer than 1,
    # and the first of those holds the record
    body = out("Ben Ann Cy Dee Eve", revolution={"player": "Cy", "kind": "plain"})
    assert client.put(f"/api/sessions/{sid}/rounds/3", json=body).status_code == 200
    assert run_record(client) == {**record, "value": 1, "round": 1}
    assert roles(client, "Ann", "dalmuti")["hands_by_rank"]["greater_dalmuti"] == 3
    assert client.put(f"/api/sessions/{sid}/rounds/3", json=DALMUTI_HANDS[2]).status_code == 200
    assert run_record(client) == record
    # a later run as long leaves the record where it was first set
    later = play(api, "dalmuti", [*DALMUTI_HANDS, *MORE_DALMUTI], rules=NO_TAX)
    assert run_record(client) == record
    # undoing the round that reached it: the other session's run of three, set later, holds it
    assert client.delete(f"/api/sessions/{sid}/rounds/6").status_code == 200
    assert client.delete(f"/api/sessions/{sid}/rounds/5").status_code == 200
    assert run_record(client) == {**record, "session": later}
    with client.application.app_context():
        recount.rebuild()
        db.session.remove()
    assert run_record(client) == {**record, "session": later}


def test_three_players_have_no_merchant(api, client):
    # during: Ann Ben Cy, then Cy Ann Ben, then Cy Ben Ann (the middle seat: Lesser Dalmuti)
    sid = play(api, "dalmuti", THREE_HANDS, THREE, {**NO_TAX, "allow_any_count": True})
    ranks = {name: roles(client, name, "dalmuti")["hands_by_rank"] for name in THREE}
    assert ranks == {
        "Ann": {"greater_dalmuti": 1, "lesser_dalmuti": 1, "merchant": 0, "lesser_peasant": 0,
                "greater_peasant": 1},
        "Ben": {"greater_dalmuti": 0, "lesser_dalmuti": 2, "merchant": 0, "lesser_peasant": 0,
                "greater_peasant": 1},
        "Cy": {"greater_dalmuti": 2, "lesser_dalmuti": 0, "merchant": 0, "lesser_peasant": 0,
               "greater_peasant": 1},
    }  # fmt: skip
    assert run_record(client) == {
        "key": RUN, "game": "dalmuti", "value": 2, "player": "Cy", "session": sid, "round": 3
    }  # fmt: skip


def test_an_import_counts_the_run_across_its_batches(api, client, app, monkeypatch):
    batches = staging.Spool.batches
    monkeypatch.setattr(staging.Spool, "batches", lambda spool, size=2: batches(spool, size))
    sid = play(api, "dalmuti", [*DALMUTI_HANDS, *MORE_DALMUTI], rules=NO_TAX)
    document = client.get(f"/api/sessions/{sid}/export").get_json()
    answer = client.post("/api/sessions/import", json=document)
    assert answer.status_code == 201, answer.get_json()
    with app.app_context():
        owed.pay_owed()  # the played session's rounds are marked by a read, as any read does
        runs = {
            session: db.session.execute(
                select(Mark.number, Mark.value)
                .where(Mark.session_id == session, Mark.key == RUN)
                .order_by(Mark.number)
            ).all()
            for session in (sid, answer.get_json()["id"])
        }
        db.session.remove()
    assert [tuple(row) for row in runs[sid]] == [(1, 1), (2, 1), (3, 1), (4, 2), (5, 3), (6, 1)]
    assert runs[sid] == runs[answer.get_json()["id"]]


# -- Dixit -------------------------------------------------------------------------------------


def test_dixit_roles_worked_by_hand(api, client):
    # 1 Ann tells (card 2): Ben, Cy find it, Dee votes Ben's card   (some found)
    # 2 Ben tells (card 1): all find it      3 Cy tells (card 1): Ann votes Ben's, Ben Dee's,
    # Dee Ann's (none found)   4 Dee tells (card 1): Ann finds it, Ben and Cy vote Ann's (some)
    # 5 Ann tells (card 1): all find it
    play(api, "dixit", DIXIT_TURNS, FOUR)
    shown = {name: roles(client, name, "dixit") for name in FOUR}
    assert shown == {
        # Ann voted in turns 2, 3, 4: found 2 and 4; her card drew 0, 1 (Dee), 2 (Ben, Cy)
        "Ann": {"storyteller_turns": 2, "some_found": 1, "votes_drawn_per_turn": 1.0,
                "found_storyteller": 2, "turns_voted": 3},
        # Ben voted in 1, 3, 4, 5: found 1 and 5; his card drew 1 (Dee), 1 (Ann), 0, 0
        "Ben": {"storyteller_turns": 1, "some_found": 0, "votes_drawn_per_turn": 0.5,
                "found_storyteller": 2, "turns_voted": 4},
        "Cy": {"storyteller_turns": 1, "some_found": 0, "votes_drawn_per_turn": 0.0,
               "found_storyteller": 3, "turns_voted": 4},
        # Dee's card drew Ben's vote in turn 3 only
        "Dee": {"storyteller_turns": 1, "some_found": 1, "votes_drawn_per_turn": 0.25,
                "found_storyteller": 2, "turns_voted": 4},
    }  # fmt: skip
    assert mine(client, "Ann")["partner"] is None


def test_votes_drawn_count_every_vote_before_a_cap(api, client):
    # Dee tells; Ann finds the card, Ben and Cy vote Ann's: her bonus is capped at 1
    turn = {"storyteller": "Dee", "positions": ["Dee", "Ann", "Ben", "Cy"],
            "votes": {"Ann": 1, "Ben": 2, "Cy": 2}}  # fmt: skip
    sid = play(api, "dixit", [turn], FOUR, {"bonus_cap": 1})
    assert api.session(sid)["rounds"][0]["result"]["vote_bonus"]["Ann"] == 1
    ann = mine(client, "Ann")["games"]["dixit"]
    assert ann["roles"]["votes_drawn_per_turn"] == 2.0 and ann["average_vote_bonus"] == 1.0
