"""Statistics over a period and a table (``from``, ``to``, ``players``): worked by hand, every
refusal, held to a from-scratch computation over the matching sessions, and a fixed number of
statements whatever the history."""

from __future__ import annotations

from datetime import UTC, date
from typing import Any

import pytest

from refapp.extensions import db
from refapp.games import GAMES
from refapp.games.stats import figures_from, round_tally
from refapp.games.tally import added, summed
from refapp.services.stats_query import MOST_NAMES

from . import standings_oracle as oracle
from .conftest import Clock, QueryCounter, turn
from .test_stats import DALMUTI_HANDS, FIVE, MIGHTY_HANDS, NO_TAX

FOUR = ("Ann", "Ben", "Cy", "Dee")
OTHERS = ("Ann", "Ben", "Eve", "Fay")
DAY_1, DAY_2, DAY_3 = "2026-11-06", "2026-11-07", "2026-11-08"


def get(client, path: str, **query: str) -> dict:
    """Return a statistics answer (asserting success)."""
    response = client.get(path, query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def stats(client, **query: str) -> dict:
    """Return ``GET /api/stats``."""
    return get(client, "/api/stats", **query)


def mine(client, name: str, **query: str) -> dict:
    """Return ``GET /api/players/<name>/stats``."""
    return get(client, f"/api/players/{name}/stats", **query)


def dixit(api, client, clock: Clock, tellers: str, players=FOUR, finish: bool = True) -> int:
    """Play a Dixit session, a turn per storyteller letter five minutes apart, and finish it.

    Everyone finds each card: the storyteller scores 0, the others 2 each.
    """
    sid = api.create(players=list(players), game="dixit")["id"]
    by_letter = {name[0]: name for name in players}
    for letter in tellers:
        clock.advance(minutes=5)
        assert api.record(sid, turn(by_letter[letter], players)).status_code == 201
    if finish:
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    return sid


@pytest.fixture
def week(api, client, clock: Clock) -> dict[str, int]:
    """Three evenings of Dixit, by their sessions:

    - day 1, s1 "A": Ann 0, Ben Cy Dee 2 (they share first place; Ann fourth);
    - day 2, s2 "B": Ben 0, Ann Cy Dee 2; then s4 at another table "E": Eve 0, Ann Ben Fay 2;
    - day 3, s3 "AB": Ann 2, Ben 2, Cy 4, Dee 4 (Cy and Dee first; 300 s of play); and s5 "C",
      still running (it does not count: no places, but its round and points do).
    """
    s1 = dixit(api, client, clock, "A")
    clock.advance(days=1)
    s2 = dixit(api, client, clock, "B")
    s4 = dixit(api, client, clock, "E", players=OTHERS)
    clock.advance(days=1)
    s3 = dixit(api, client, clock, "AB")
    s5 = dixit(api, client, clock, "C", finish=False)
    return {"s1": s1, "s2": s2, "s3": s3, "s4": s4, "s5": s5}


def standing(
    name: str, sessions: int, wins: int, place_sum: int, points: int, rounds: int, hours=0.0
):
    """Return a line of the standings from its counts."""
    return {
        "name": name,
        "sessions": sessions,
        "wins": wins,
        "win_rate": round(wins / sessions, 2) if sessions else None,
        "average_place": round(place_sum / sessions, 2) if sessions else None,
        "points": points,
        "rounds": rounds,
        "hours": hours,
    }


# -- worked by hand --------------------------------------------------------------------------------


def test_one_day_counts_only_the_sessions_whose_last_round_fell_on_it(client, week):
    answer = stats(client, **{"from": DAY_2, "to": DAY_2})  # s2 and s4
    assert answer["players"] == [
        standing("Ann", 2, 2, 2, 4, 2),
        standing("Cy", 1, 1, 1, 2, 1),
        standing("Dee", 1, 1, 1, 2, 1),
        standing("Fay", 1, 1, 1, 2, 1),
        standing("Ben", 2, 1, 5, 2, 2),
        standing("Eve", 1, 0, 4, 0, 1),
    ]
    pairs = {(row["a"], row["b"]): row for row in answer["head_to_head"]}
    # s2: Ann first, Ben fourth; s4: Ann and Ben both first
    assert pairs[("Ann", "Ben")] == {
        "a": "Ann", "b": "Ben", "sessions": 2, "a_ahead": 1, "b_ahead": 0, "tied": 1
    }  # fmt: skip
    assert pairs[("Cy", "Dee")] == {
        "a": "Cy", "b": "Dee", "sessions": 1, "a_ahead": 0, "b_ahead": 0, "tied": 1
    }  # fmt: skip
    assert ("Cy", "Eve") not in pairs and len(pairs) == 6 + 6 - 1  # Ann-Ben sat at both
    records = {row["key"]: row for row in answer["records"]}
    s2 = week["s2"]
    # s2's only turn: Ann, the first seated on 2, holds the best round and the highest total
    assert records["best_round"] == {
        "key": "best_round", "game": "dixit", "value": 2, "player": "Ann", "session": s2,
        "round": 1,
    }  # fmt: skip
    assert (records["worst_round"]["player"], records["worst_round"]["value"]) == ("Ben", 0)
    assert (records["highest_total"]["value"], records["highest_total"]["round"]) == (2, None)
    # Ann won s2 and s4 (two in a row, reached at s4); Cy and Dee's two in a row need day 1
    assert records["longest_win_streak"] == {
        "key": "longest_win_streak", "game": "dixit", "value": 2, "player": "Ann",
        "session": week["s4"], "round": None,
    }  # fmt: skip
    assert [row["key"] for row in answer["records"]] == [
        "highest_total", "best_round", "worst_round", "best_turn", "longest_win_streak"
    ]  # fmt: skip


def test_an_open_period_takes_running_sessions_rounds_but_only_counted_places(client, week):
    answer = stats(client, **{"from": DAY_3})  # s3 (counted) and s5 (running: Cy 0, others 2)
    by_name = {row["name"]: row for row in answer["players"]}
    assert by_name["Ann"] == standing("Ann", 1, 0, 3, 2 + 2, 3, hours=round(300 / 3600, 2))
    assert by_name["Cy"] == standing("Cy", 1, 1, 1, 4 + 0, 3, hours=0.08)
    assert set(by_name) == set(FOUR)
    assert {(row["a"], row["b"]): row["sessions"] for row in answer["head_to_head"]} == {
        pair: 1
        for pair in [("Ann", "Ben"), ("Ann", "Cy"), ("Ann", "Dee"), ("Ben", "Cy"), ("Ben", "Dee"),
                     ("Cy", "Dee")]
    }  # fmt: skip
    records = {row["key"]: row for row in answer["records"]}
    # Cy, the first seated on 4 in s3; Ben's 2 in s3's first turn comes before any other 2
    assert (records["highest_total"]["player"], records["highest_total"]["value"]) == ("Cy", 4)
    assert (records["best_round"]["player"], records["best_round"]["session"]) == (
        "Ben",
        week["s3"],
    )
    # a period ending the day before the first session holds nothing at all
    assert stats(client, to="2026-11-05") == {
        "players": [], "head_to_head": [], "records": [], "ratings": stats(client)["ratings"]
    }  # fmt: skip


def test_players_keeps_the_sessions_where_every_named_player_sat(client, week):
    answer = stats(client, players="Eve")  # s4 alone
    assert [row["name"] for row in answer["players"]] == ["Ann", "Ben", "Fay", "Eve"]
    assert answer["players"][-1] == standing("Eve", 1, 0, 4, 0, 1)
    both = stats(client, players=" Ann , Cy,Ann ")  # trimmed, a repeat left out: s1, s2, s3, s5
    assert {row["name"] for row in both["players"]} == set(FOUR)
    assert next(row for row in both["players"] if row["name"] == "Cy") == standing(
        "Cy", 3, 3, 3, 2 + 2 + 4 + 0, 5, hours=0.08
    )
    nobody = stats(client, players="Cy,Eve")  # they never sat together
    assert (nobody["players"], nobody["head_to_head"], nobody["records"]) == ([], [], [])
    # with a period too: s2 alone
    assert [row["name"] for row in stats(client, players="Cy", to=DAY_2, **{"from": DAY_2})[
        "players"
    ]] == ["Ann", "Cy", "Dee", "Ben"]  # fmt: skip


def test_a_players_figures_and_streaks_within_the_period(client, week):
    ann = mine(client, "Ann", **{"from": DAY_2, "to": DAY_2})
    dixit_figures = ann["games"]["dixit"]
    assert dixit_figures.pop("streak") == {"current": 2, "longest": 2}
    for added_later in ("roles", "rating"):  # their own tests hold them
        dixit_figures.pop(added_later, None)
    assert dixit_figures == {
        "sessions_played": 2, "sessions_won": 2, "sessions_counted": 2, "win_rate": 1.0,
        "average_place": 1.0, "hours": 0.0, "rounds_played": 2, "points": 4,
        "average_points": 2.0, "storyteller_turns": 0, "some_found": 0,
        "some_found_share": None, "average_vote_bonus": 0.0,
    }  # fmt: skip
    assert ann["head_to_head"] == [
        {"opponent": "Ben", "sessions": 2, "ahead": 1, "behind": 0, "tied": 1},
        {"opponent": "Cy", "sessions": 1, "ahead": 0, "behind": 0, "tied": 1},
        {"opponent": "Dee", "sessions": 1, "ahead": 0, "behind": 0, "tied": 1},
        {"opponent": "Eve", "sessions": 1, "ahead": 1, "behind": 0, "tied": 0},
        {"opponent": "Fay", "sessions": 1, "ahead": 0, "behind": 0, "tied": 1},
    ]
    assert (ann["rival"], ann["nemesis"]) == ("Ben", None)
    assert [row["key"] for row in ann["records"]] == [
        "highest_total", "best_round", "best_turn", "longest_win_streak"
    ]  # fmt: skip
    # Ben: won s1, fourth in s2, won s4, third in s3 (s5 runs): W L W L
    assert mine(client, "Ben")["games"]["dixit"]["streak"] == {"current": 0, "longest": 1}
    # current is the streak at the end of the period
    assert mine(client, "Ben", to=DAY_2)["games"]["dixit"]["streak"] == {"current": 1, "longest": 1}
    cy = mine(client, "Cy", **{"from": DAY_2})  # won s2 and s3
    assert cy["games"]["dixit"]["streak"] == {"current": 2, "longest": 2}
    assert cy["games"]["dixit"]["sessions_played"] == 3  # s5 too, running
    assert mine(client, "Ben", players="Ann,Cy")["games"]["dixit"]["streak"] == {
        "current": 0,
        "longest": 1,
    }  # fmt: skip  (s1, s2, s3: W L L)
    # a period the player never sat in: nothing
    eve = mine(client, "Eve", **{"from": DAY_3})
    assert (eve["games"], eve["head_to_head"], eve["rival"], eve["records"]) == ({}, [], None, [])


def test_the_whole_history_as_a_period_is_the_unfiltered_answer(api, client, clock, week):
    play_other_games(api, clock)
    whole = {"from": "2000-01-01", "to": "9999-12-31"}
    for game in (None, *GAMES):
        query = {"game": game} if game else {}
        assert stats(client, **query, **whole) == stats(client, **query)
        for name in (*FIVE, "Fay"):
            wanted = partners_left_out(mine(client, name, **query))
            assert mine(client, name, **query, **whole) == wanted
    # partners are kept for the whole history only: a filtered answer leaves them out
    assert mine(client, "Ann")["partner"] is not None
    assert mine(client, "Ann", **whole)["partner"] is None


def partners_left_out(answer: dict) -> dict:
    """Return a player's unfiltered answer as a filtered one gives it: no partner, and no
    partners in any game's roles."""
    for figures in answer["games"].values():
        (figures.get("roles") or {}).pop("partners", None)
    return {**answer, "partner": None} if "partner" in answer else answer


def play_other_games(api, clock: Clock) -> None:
    """Play a Mighty and a Dalmuti table of five on day 3 (both keep running)."""
    for game, hands, rules in (("mighty", MIGHTY_HANDS, {}), ("dalmuti", DALMUTI_HANDS, NO_TAX)):
        sid = api.create(players=list(FIVE), game=game, rules=rules)["id"]
        for hand in hands:
            clock.advance(minutes=3)
            assert api.record(sid, hand).status_code == 201


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "field", "quoted"),
    [
        ({"from": "2026-13-01"}, "from", "'2026-13-01'"),
        ({"to": "yesterday"}, "to", "'yesterday'"),
        ({"from": "20261107"}, "from", "'20261107'"),  # ISO, but not the written-out day
        ({"to": "2026-W45-1"}, "to", "'2026-W45-1'"),
        ({"from": "２０２６-11-07"}, "from", "'２０２６-11-07'"),  # wide digits
        ({"from": DAY_3, "to": DAY_2}, "to", f"'{DAY_2}'"),
        ({"players": "Ann,Nobody"}, "players", "'Nobody'"),
        ({"players": "Ann,ann"}, "players", "'ann'"),  # names are case-sensitive
        ({"players": "Ann,\x00"}, "players", "'\\x00'"),
        ({"players": ",".join(f"P{i}" for i in range(MOST_NAMES + 1))}, "players", "'P0,P1,"),
        ({"game": "chess", "from": "x"}, "game", "'chess'"),
    ],
)
def test_a_bad_filter_is_refused_naming_its_field_and_quoting_it(
    client, week, query, field, quoted
):
    routes = [
        ("/api/stats", {}),
        ("/api/players/Ann/stats", {}),
        ("/api/player/stats", {"name": "Ann"}),
    ]
    for path, name in routes:
        response = client.get(path, query_string={**query, **name})
        assert response.status_code == 422, (path, query)
        error = response.get_json()["error"]
        assert (error["code"], error["field"]) == ("invalid_value", field)
        assert quoted in error["message"]


def test_the_refusals_read_as_sentences(client, week):
    def message(**query: str) -> str:
        return client.get("/api/stats", query_string=query).get_json()["error"]["message"]

    assert message(**{"from": "2026-02-30"}) == (
        "'2026-02-30' is not a date; write a day as 2026-11-27."
    )
    assert message(**{"from": DAY_3, "to": DAY_2}) == (
        f"The period cannot end on '{DAY_2}', before it starts on '{DAY_3}'."
    )
    assert message(players="Ann,Zed") == "There is no player 'Zed'."
    names = ",".join("ABCDEFGHIJKLM")
    assert message(players=names) == f"Name at most 12 players, not 13: '{names}'."


def test_empty_filters_are_no_filters(client, week):
    assert stats(client, **{"from": "", "to": " ", "players": " , "}) == stats(client)


def test_twelve_names_is_enough_for_any_table():
    widest = 0
    for game in GAMES.values():
        flags = {option.key: True for option in game.options if option.kind == "bool"}
        for rules in ({}, flags, *({key: True} for key in flags)):
            widest = max(widest, game.player_range(rules)[1], game.max_players)
    assert widest <= MOST_NAMES


# -- against a computation from scratch ------------------------------------------------------------


def history(api, client, clock: Clock) -> None:
    """Four days of play: Dixit at two tables, Mighty and Dalmuti, finished, idle and running."""
    dixit(api, client, clock, "AB")
    play_other_games(api, clock)  # day 1: both end by time on day 2
    clock.advance(days=1)
    dixit(api, client, clock, "CDA")
    dixit(api, client, clock, "E", players=OTHERS)
    clock.advance(days=1)
    dixit(api, client, clock, "BC")
    dixit(api, client, clock, "FA", players=OTHERS)
    play_other_games(api, clock)
    clock.advance(days=1)
    dixit(api, client, clock, "D")
    dixit(api, client, clock, "AB", players=OTHERS, finish=False)


QUERIES: list[dict[str, str]] = [
    {"from": DAY_1, "to": DAY_1},
    {"from": DAY_2},
    {"to": DAY_2},
    {"from": DAY_2, "to": DAY_3},
    {"from": "2026-11-09"},
    {"players": "Ann"},
    {"players": "Ann,Eve"},
    {"players": "Cy,Dee", "from": DAY_2},
    {"players": "Eve", "to": DAY_3},
]


def matches(query: dict[str, str], sitting: oracle.Sitting) -> bool:
    """Return True when a session is in the query's period and seats all its players."""
    named = [name for name in query.get("players", "").split(",") if name]
    if not all(name in sitting.players for name in named):
        return False
    if "from" not in query and "to" not in query:
        return True
    if sitting.last is None:
        return False
    day = sitting.last.astimezone(UTC).date()
    start = date.fromisoformat(query.get("from", "2000-01-01"))
    return start <= day <= date.fromisoformat(query.get("to", "9999-12-31"))


def own_figures(name: str, game: str, mine_: list[oracle.Sitting]) -> dict[str, Any]:
    """Return a player's figures in a game over these sessions, counted from their rounds."""
    seated = [s for s in mine_ if s.game == game and name in s.players]
    tally: dict[str, int] = summed(
        round_tally(game, name, result) for s in seated for _, _, result in s.played
    )
    for s in seated:
        part = {"sessions_played": 1, "played_seconds": s.seconds}
        if s.counted:
            place = s.places[name]
            part |= {
                "sessions_counted": 1,
                "session_place_sum": place,
                "sessions_won": int(place == 1),
            }
        tally = added(tally, part)
    return dict(figures_from(game, tally)) if seated else {}


def test_a_filtered_answer_is_a_from_scratch_count_of_the_matching_sessions(
    app, api, client, clock, monkeypatch
):
    history(api, client, clock)  # day 4's second table still runs
    everything = oracle.sittings
    for query in QUERIES:
        for game in (None, *GAMES):
            asked = {**query, **({"game": game} if game else {})}
            answer = stats(client, **asked)
            with app.app_context():
                monkeypatch.setattr(
                    oracle,
                    "sittings",
                    lambda now, query=query: [s for s in everything(now) if matches(query, s)],
                )
                wanted = oracle.group(clock.now, game)
                kept = oracle.sittings(clock.now)
                db.session.remove()
            answer.pop("ratings")  # a rating is the whole history's
            wanted.pop("ratings")
            answer["records"] = [row for row in answer["records"] if row["key"] in oracle_keys()]
            assert answer == wanted, asked
            players_agree(client, clock, asked, kept, answer, app)
    monkeypatch.setattr(oracle, "sittings", everything)


def oracle_keys() -> set[str]:
    """Return the records the oracle knows (the whole-history test holds any others)."""
    own = {key for keys in oracle.OWN_RECORDS.values() for key in keys}
    return {"highest_total", "best_round", "worst_round", "longest_win_streak", *own}


def players_agree(client, clock, asked: dict[str, str], kept, group: dict, app) -> None:
    """Assert each player's own answer agrees with the matching sessions counted from scratch."""
    games = [asked["game"]] if "game" in asked else list(GAMES)
    for name in ("Ann", "Eve", "Fay", "Dee"):
        answer = mine(client, name, **asked)
        for game in games:
            wanted = own_figures(name, game, kept)
            shown = {
                key: value
                for key, value in answer["games"].get(game, {}).items()
                if key not in ("streak", "roles", "rating")
            }
            assert shown == wanted, (name, game, asked)
            if wanted:
                with app.app_context():
                    streak = oracle.streak_of(name, game, clock.now)
                    db.session.remove()
                assert answer["games"][game]["streak"] == streak, (name, game, asked)
        opponents = sorted(
            (row["b"] if row["a"] == name else row["a"], row["sessions"])
            for row in group["head_to_head"]
            if name in (row["a"], row["b"])
        )
        assert sorted((row["opponent"], row["sessions"]) for row in answer["head_to_head"]) == (
            opponents
        )
        held = [row for row in group["records"] if row["player"] == name]
        assert [row for row in answer["records"] if row["key"] in oracle_keys()] == held


# -- cost ------------------------------------------------------------------------------------------


class FiltersCounter(QueryCounter):
    """Counts statements, and the rows the reads return but a rating's history (up to 200
    points, the whole history's: ratings take no filter)."""

    def _rows(self, conn, cursor, statement: str, *args: Any) -> None:
        if "rating_step" not in statement:
            super()._rows(conn, cursor, statement, *args)


def cost(app, client, many: int, api, clock: Clock) -> list[tuple[int, int]]:
    """Play ``many`` finished Dixit sessions a day apart; return the statements and rows each
    filtered answer reads."""
    for index in range(many):
        dixit(api, client, clock, "ABCD"[index % 4])
        clock.advance(days=1)
    spent = []
    asked = {"from": DAY_1, "to": "2027-12-31", "players": "Ann,Ben"}
    get(client, "/api/stats")  # the first read rates the sessions counted since (services/due.py)
    for path in ("/api/stats", "/api/players/Ann/stats"):
        with app.app_context():
            engine = db.engine
        with FiltersCounter(engine) as counter:
            get(client, path, **asked)
        spent.append((counter.count, counter.rows))
    return spent


def test_the_filtered_answers_cost_the_same_at_3_and_30_sessions(app, api, client, clock):
    few = cost(app, client, 3, api, clock)
    more = cost(app, client, 27, api, clock)  # 30 in all
    assert few == more
