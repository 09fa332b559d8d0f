"""Statistics across sessions: counted sessions, places, head-to-head, streaks and playing time,
worked by hand and held to a from-scratch computation over random sequences of writes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from refapp.extensions import db
from refapp.games.game import running_totals
from refapp.models import (
    AuditEntry,
    GameSession,
    PairFigures,
    Player,
    PlayerFigures,
    PlayerRating,
    RatingStep,
    Round,
    SessionPlayer,
    WriteKey,
)
from refapp.services import recount
from refapp.services.sessions import chart_points

from . import ratings_oracle, roles_oracle
from . import standings_oracle as oracle
from .conftest import Clock, turn
from .test_stats import DALMUTI_HANDS, FIVE, MIGHTY_HANDS, NO_TAX, out
from .test_stats import hand as mighty_hand

FOUR = ("Ann", "Ben", "Cy", "Dee")
SIX = (*FIVE, "Fay")
THREE = ("Ann", "Ben", "Cy")
# Mighty at six seats, the boss killing one (6마): Eve, Ann, Ben killed, a misdeal, Fay killed;
# Cy and Dee win as boss and friend, then lose the other way round; Fay alone loses
KILL_HANDS = [
    {**mighty_hand("Cy", 15, "H", {"card": "SA", "player": "Dee"}, 4), "dealer": "Ann",
     "kill": {"card": "JK", "player": "Eve"}},
    {**mighty_hand("Dee", 14, "C", {"card": "DA", "player": "Cy"}, 9),
     "kill": {"card": "SA", "player": "Ann"}},
    {**mighty_hand("Fay", 13, "NT", {"none": True}, 10), "kill": {"card": "HA", "player": "Ben"}},
    {"misdeal": {"player": "Ben", "shown": True}},
    {**mighty_hand("Cy", 16, "S", {"card": "DA", "player": "Dee"}, 2),
     "kill": {"card": "JK", "player": "Fay"}},
]  # fmt: skip
# Mighty at six seats, the dealer resting: Ann, then Dee, then Cy rest
REST_HANDS = [
    {**mighty_hand("Cy", 15, "H", {"card": "SA", "player": "Dee"}, 4), "dealer": "Ann"},
    mighty_hand("Eve", 14, "D", {"card": "JK", "player": "Cy"}, 11),
    mighty_hand("Dee", 17, "S", {"card": "CA", "player": "Ann"}, 3),
]
# after DALMUTI_HANDS: Ann stays Greater Dalmuti for hands 4 and 5 (a run of three), then Cy
MORE_DALMUTI = [out("Ann Cy Ben Dee Eve"), out("Cy Ann Ben Dee Eve"), out("Cy Ben Ann Dee Eve")]
# three players: no merchant, the middle seat is the Lesser Dalmuti
THREE_HANDS = [out("Cy Ann Ben"), out("Cy Ben Ann"), out("Ben Cy Ann")]


def stats(client, **query) -> dict:
    """Return ``GET /api/stats`` (asserting success)."""
    response = client.get("/api/stats", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def mine(client, name: str, **query) -> dict:
    """Return ``GET /api/players/<name>/stats`` (asserting success)."""
    response = client.get(f"/api/players/{name}/stats", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def dixit(api, clock: Clock, tellers: str, minutes: float = 5, players=FOUR) -> int:
    """Start a Dixit session and record a turn per storyteller letter, minutes apart."""
    sid = api.create(players=list(players), game="dixit")["id"]
    by_letter = {name[0]: name for name in players}
    for letter in tellers:
        clock.advance(minutes=minutes)
        assert api.record(sid, turn(by_letter[letter], players)).status_code == 201
    return sid


def line(answer: dict, name: str) -> dict:
    """Return a player's line in the standings."""
    return next(row for row in answer["players"] if row["name"] == name)


def test_a_session_counts_after_twelve_idle_hours_without_finish(api, client, clock):
    # a card everyone finds scores its storyteller 0 and the others 2: Ann 4, Ben 4, Cy 4, Dee 6
    sid = dixit(api, clock, "ABC")
    assert line(stats(client), "Dee")["sessions"] == 0  # still running
    clock.advance(hours=11, minutes=59)
    assert line(stats(client), "Dee")["sessions"] == 0
    clock.advance(minutes=1)
    dee = line(stats(client), "Dee")
    assert (dee["sessions"], dee["wins"], dee["win_rate"], dee["average_place"]) == (1, 1, 1.0, 1.0)
    assert [line(stats(client), name)["average_place"] for name in FOUR] == [2.0, 2.0, 2.0, 1.0]
    # a round recorded later un-counts it until it is idle again: then all four tie on 6
    assert api.record(sid, turn("Dee", FOUR)).status_code == 201
    assert line(stats(client), "Dee")["sessions"] == 0
    clock.advance(hours=12)
    assert [line(stats(client), name)["wins"] for name in FOUR] == [1, 1, 1, 1]


def test_a_player_page_counts_a_session_gone_idle_without_a_statistics_read(api, client, clock):
    dixit(api, clock, "ABC")  # Dee 6 wins
    dee = client.get("/api/players/Dee").get_json()
    assert (dee["sessions_played"], dee["sessions_won"]) == (1, 0)
    clock.advance(hours=12)
    dee = client.get("/api/players/Dee").get_json()
    assert (dee["sessions_played"], dee["sessions_won"]) == (1, 1)
    assert dee["sessions"][0]["place"] == 1
    rows = {row["name"]: row for row in client.get("/api/players").get_json()["players"]}
    assert rows["Dee"]["sessions_won"] == 1 and rows["Ann"]["sessions_won"] == 0


def test_places_share_the_better_place_on_a_tie_and_wins_are_first_places(api, client, clock):
    sid = dixit(api, clock, "A")  # Ben, Cy and Dee find Ann's card: each +2, Ann 0
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    answer = stats(client)
    assert [line(answer, name)["average_place"] for name in FOUR] == [4.0, 1.0, 1.0, 1.0]
    assert [line(answer, name)["wins"] for name in FOUR] == [0, 1, 1, 1]
    pairs = {(row["a"], row["b"]): row for row in answer["head_to_head"]}
    assert pairs[("Ann", "Ben")] == {
        "a": "Ann", "b": "Ben", "sessions": 1, "a_ahead": 0, "b_ahead": 1, "tied": 0
    }  # fmt: skip
    assert pairs[("Ben", "Cy")]["tied"] == 1


def test_playing_time_leaves_out_breaks_of_more_than_half_an_hour(api, client, clock):
    sid = dixit(api, clock, "AB", minutes=10)  # 10 minutes of play between the two turns
    clock.advance(minutes=45)  # a dinner break: not playing time
    assert api.record(sid, turn("Cy", FOUR)).status_code == 201
    clock.advance(minutes=30)  # exactly half an hour still counts
    assert api.record(sid, turn("Dee", FOUR)).status_code == 201
    assert line(stats(client), "Ann")["hours"] == round(40 * 60 / 3600, 2)
    assert client.delete(f"/api/sessions/{sid}/rounds/4").status_code == 200
    assert line(stats(client), "Ann")["hours"] == round(10 * 60 / 3600, 2)


def test_streaks_and_the_longest_streak_record(api, client, clock):
    # Ben, Cy and Dee tie first when Ann tells (three sessions), then Ann, Cy and Dee when Ben does
    for tellers in ("A", "A", "A", "B"):
        sid = dixit(api, clock, tellers)
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
        clock.advance(hours=1)
    ben = mine(client, "Ben")
    assert ben["games"]["dixit"]["streak"] == {"current": 0, "longest": 3}
    assert mine(client, "Ann")["games"]["dixit"]["streak"] == {"current": 1, "longest": 1}
    assert mine(client, "Cy")["games"]["dixit"]["streak"] == {"current": 4, "longest": 4}
    record = next(r for r in stats(client)["records"] if r["key"] == "longest_win_streak")
    # Cy and Dee both won four in a row, ending in the same session: the first name holds it
    assert (record["game"], record["value"], record["player"]) == ("dixit", 4, "Cy")
    assert record["session"] == sid


def test_an_undo_moving_a_counted_session_back_moves_the_longest_streak_with_it(api, client, clock):
    """Undoing the last round of a session that still counts moves its time back, and with it
    its place among its players' sessions: the longest streak ends in another session now."""
    first = dixit(api, clock, "A")  # Ben, Cy and Dee +2 each: they tie first (then Cy, Dee)
    clock.advance(hours=1)
    second = dixit(api, clock, "A")
    clock.advance(hours=1)
    assert api.record(first, turn("Ben", FOUR)).status_code == 201  # first now ends last
    clock.advance(hours=13)  # both idle: both count, second before first

    def longest() -> dict:
        return next(r for r in stats(client)["records"] if r["key"] == "longest_win_streak")

    assert (longest()["value"], longest()["session"]) == (2, first)
    assert client.delete(f"/api/sessions/{first}/rounds/2").status_code == 200
    assert line(stats(client), "Cy")["sessions"] == 2  # first still counts, ending first
    assert (longest()["value"], longest()["session"]) == (2, second)


def test_a_player_sees_rival_and_nemesis(api, client, clock):
    for _ in range(3):  # Ann tells each time: she is last, behind everyone three times
        sid = dixit(api, clock, "A")
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    ann = mine(client, "Ann")
    assert [row["opponent"] for row in ann["head_to_head"]] == ["Ben", "Cy", "Dee"]
    assert ann["head_to_head"][0] == {
        "opponent": "Ben", "sessions": 3, "ahead": 0, "behind": 3, "tied": 0
    }  # fmt: skip
    assert ann["nemesis"] == "Ben" and ann["rival"] == "Ben"
    assert mine(client, "Ben")["nemesis"] is None


def test_records_name_where_they_were_set(api, client, clock):
    first = dixit(api, clock, "A")  # Ben, Cy, Dee +2 each, Ann 0
    assert client.post(f"/api/sessions/{first}/finish").status_code == 200
    mighty = api.create(players=list(FIVE), game="mighty")["id"]
    for hand in MIGHTY_HANDS:
        assert api.record(mighty, hand).status_code == 201
    records = {(r["game"], r["key"]): r for r in stats(client)["records"]}
    assert records[("dixit", "best_round")] == {
        "key": "best_round", "game": "dixit", "value": 2, "player": "Ben", "session": first,
        "round": 1,
    }  # fmt: skip
    assert records[("dixit", "worst_round")]["player"] == "Ann"
    assert records[("dixit", "highest_total")]["value"] == 2
    assert records[("dixit", "best_turn")]["value"] == 2
    # the Mighty session runs: no highest total yet. Made: Cy 15 (hand 1), Ann's critic 13
    # (hand 5), Eve 16 with her run (hand 6, +48); Ann lost 14 for -64 (hand 2)
    assert ("mighty", "highest_total") not in records
    shown = {
        key: (r["value"], r["player"], r["round"])
        for (game, key), r in records.items()
        if game == "mighty"
    }
    assert shown == {
        "highest_contract_made": (16, "Eve", 6),
        "best_round": (48, "Eve", 6),
        "worst_round": (-64, "Ann", 2),
    }
    # an undo takes the round's marks out again: hands 7 and 6 undone
    for number in (7, 6):
        assert client.delete(f"/api/sessions/{mighty}/rounds/{number}").status_code == 200
    again = {r["key"]: r for r in stats(client, game="mighty")["records"]}
    assert (again["best_round"]["value"], again["best_round"]["player"]) == (16, "Ben")
    made = again["highest_contract_made"]
    assert (made["value"], made["player"], made["round"]) == (15, "Cy", 1)


def test_a_bad_game_or_an_unknown_player_is_refused(client):
    response = client.get("/api/stats", query_string={"game": "chess"})
    assert response.status_code == 422
    assert (response.get_json()["error"]["code"], response.get_json()["error"]["field"]) == (
        "invalid_value",
        "game",
    )
    assert client.get("/api/players/Nobody/stats").status_code == 404


# -- the kept figures against a computation from scratch ---------------------------------------


def agree(app, client, clock: Clock, rebuilt: bool = False) -> None:
    """Assert the answers are what a from-scratch computation gives (and, with ``rebuilt``, that
    a rebuild counts them the same)."""
    games = (None, *oracle.GAMES)
    answers = {game: stats(client, **({"game": game} if game else {})) for game in games}
    with app.app_context():
        wanted = {game: oracle.group(clock.now, game) for game in answers}
        names = [row["name"] for row in wanted[None]["players"]]
        streaks = {
            (name, game): oracle.streak_of(name, game, clock.now)
            for name in names
            for game in oracle.GAMES
        }
        for game, answer in wanted.items():
            answer["ratings"] = ratings_oracle.board(clock.now, (game,) if game else oracle.GAMES)
        rated = {key: ratings_oracle.rating_of(clock.now, *key) for key in streaks}
        played = roles_oracle.rounds()
        roles = {key: roles_oracle.roles(*key, played) for key in streaks}
        partners = {name: roles_oracle.partner(name, played) for name in names}
        db.session.remove()
    assert answers == wanted
    charts_agree(app)
    pages = {name: mine(client, name) for name in names}
    for name, page in pages.items():
        assert page["partner"] == partners[name], name
        for game, shown in page["games"].items():
            assert shown["streak"] == streaks[(name, game)], (name, game)
            assert same_rating(shown["rating"], rated[(name, game)]), (name, game)
            assert shown["roles"] == roles[(name, game)], (name, game)
    if not rebuilt:
        return
    with app.app_context():
        recount.rebuild()
        db.session.remove()
    assert {game: stats(client, **({"game": game} if game else {})) for game in answers} == answers
    for name, page in pages.items():
        again = mine(client, name)
        assert again["partner"] == page["partner"], name
        assert {game: shown["roles"] for game, shown in again["games"].items()} == {
            game: shown["roles"] for game, shown in page["games"].items()
        }, name


def charts_agree(app) -> None:
    """Assert every session's chart draws the running totals its rounds' deltas add up to (the
    stored ones with the corrections' running shifts added)."""
    with app.app_context():
        for sid, count in db.session.execute(select(GameSession.id, GameSession.round_count)):
            drawn = chart_points(sid, count)
            deltas = db.session.scalars(
                select(Round.result).where(Round.session_id == sid).order_by(Round.number)
            ).all()
            totals = dict.fromkeys(drawn[0][1] if drawn else (), 0)  # the players it draws
            series = []
            for number, result in enumerate(deltas, 1):
                totals = running_totals(totals, [result["deltas"]])
                series.append((number, totals))
            assert drawn == series, sid
        db.session.remove()


def same_rating(shown: dict | None, wanted: dict | None) -> bool:
    """Return True if a player's rating and its history are what the oracle gives."""
    if shown is None or wanted is None:
        return shown is wanted
    points = [point["display"] for point in shown["history"]]
    kept = {key: shown[key] for key in ("mu", "sigma", "display", "rated")}
    return {**kept, "points": points} == wanted


@dataclass
class Table:
    """What the random steps act on: the app's client and API, the clock, the Dixit sessions."""

    api: Any
    client: Any
    clock: Clock
    data: Any
    running: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    names: Iterator[str] = field(default_factory=lambda: (f"P{i}" for i in range(10_000)))
    #: the Mighty and Dalmuti sessions: (id, game)
    tables: list[tuple[int, str]] = field(default_factory=list)

    def session(self) -> tuple[int, tuple[str, ...]]:
        """Return one of the Dixit sessions, drawn."""
        drawn: tuple[int, tuple[str, ...]] = self.data.draw(st.sampled_from(self.running))
        return drawn

    def new_dixit(self) -> None:
        """Start a Dixit session of Ann, Ben and two new players."""
        players = (next(self.names), "Ann", next(self.names), "Ben")
        self.running.append((self.api.create(players=list(players), game="dixit")["id"], players))

    def record(self) -> None:
        """Record a turn for a drawn storyteller (one out of turn is refused)."""
        sid, players = self.session()
        self.api.record(sid, turn(self.data.draw(st.sampled_from(players)), players))

    def undo(self) -> None:
        """Undo a session's last round, if it has one."""
        sid, _ = self.session()
        count = self.client.get(f"/api/sessions/{sid}").get_json()["rounds_total"]
        if count:
            self.client.delete(f"/api/sessions/{sid}/rounds/{count}")

    def correct(self) -> None:
        """Correct a drawn round: the same storyteller, another player's card for one voter."""
        sid, _ = self.session()
        rounds = self.client.get(f"/api/sessions/{sid}").get_json()["rounds"]
        if rounds:
            chosen = self.data.draw(st.sampled_from(rounds))
            body = dict(chosen["input"])
            votes = dict(body["votes"])
            first = next(iter(votes))
            votes[first] = 3 if votes[first] == 1 else 1
            self.client.put(
                f"/api/sessions/{sid}/rounds/{chosen['number']}", json={**body, "votes": votes}
            )

    def finish(self) -> None:
        """Finish a drawn session."""
        self.client.post(f"/api/sessions/{self.session()[0]}/finish")

    def idle(self) -> None:
        """Let twelve hours pass."""
        self.clock.advance(hours=12)

    def pause(self) -> None:
        """Let about half an hour pass (a break or not)."""
        self.clock.advance(minutes=self.data.draw(st.integers(25, 35)))

    def table(self, game: str, hands: list[dict], rules: dict | None = None, players=FIVE) -> None:
        """Play a drawn number of a game's canned rounds at a new table (of five)."""
        sid = self.api.create(players=list(players), game=game, rules=rules or {})["id"]
        self.tables.append((sid, game))
        for hand in hands[: self.data.draw(st.integers(1, len(hands)))]:
            self.clock.advance(minutes=3)
            assert self.api.record(sid, hand).status_code == 201

    def mighty(self) -> None:
        """Play some of the canned Mighty hands, at five, or at six with kills or a resting
        dealer."""
        seats = self.data.draw(st.sampled_from(["five", "kill", "rest"]))
        if seats == "five":
            self.table("mighty", MIGHTY_HANDS)
        elif seats == "kill":
            self.table("mighty", KILL_HANDS, players=SIX)
        else:
            self.table("mighty", REST_HANDS, {"six_player_rule": "dealer_sits_out"}, SIX)

    def dalmuti(self) -> None:
        """Play some of the canned Dalmuti hands (no tax), at five or at three."""
        if self.data.draw(st.booleans()):
            self.table("dalmuti", [*DALMUTI_HANDS, *MORE_DALMUTI], NO_TAX)
        else:
            self.table("dalmuti", THREE_HANDS, {**NO_TAX, "allow_any_count": True}, THREE)

    def undo_table(self) -> None:
        """Undo the last round of a drawn Mighty or Dalmuti session, if it has one."""
        if self.tables:
            sid, _ = self.data.draw(st.sampled_from(self.tables))
            count = self.client.get(f"/api/sessions/{sid}").get_json()["rounds_total"]
            if count:
                self.client.delete(f"/api/sessions/{sid}/rounds/{count}")

    def correct_table(self) -> None:
        """Correct a drawn round of a Mighty or Dalmuti session: a hand's finishing order drawn
        again, or a played hand's opposition points (a refused correction changes nothing)."""
        if not self.tables:
            return
        sid, game = self.data.draw(st.sampled_from(self.tables))
        rounds = self.client.get(f"/api/sessions/{sid}").get_json()["rounds"]
        if not rounds:
            return
        chosen = self.data.draw(st.sampled_from(rounds))
        body = dict(chosen["input"])
        if game == "dalmuti":
            body["finish_order"] = self.data.draw(st.permutations(body["finish_order"]))
        elif "opposition_points" in body:
            body["opposition_points"] = self.data.draw(st.integers(0, 20))
        else:
            return
        self.client.put(f"/api/sessions/{sid}/rounds/{chosen['number']}", json=body)

    def imported(self) -> None:
        """Import a drawn session's export: a new session with the same rounds and times."""
        sid, players = self.session()
        document = self.client.get(f"/api/sessions/{sid}/export").get_json()
        answer = self.client.post("/api/sessions/import", json=document)
        assert answer.status_code == 201, answer.get_json()
        self.running.append((answer.get_json()["id"], players))

    def import_table(self) -> None:
        """Import a drawn Mighty or Dalmuti session's export."""
        if self.tables:
            sid, game = self.data.draw(st.sampled_from(self.tables))
            document = self.client.get(f"/api/sessions/{sid}/export").get_json()
            answer = self.client.post("/api/sessions/import", json=document)
            assert answer.status_code == 201, answer.get_json()
            self.tables.append((answer.get_json()["id"], game))

    def rename(self) -> None:
        """Rename a drawn session's first player to a new name."""
        _, players = self.session()
        old, new = players[0], next(self.names)
        if self.client.post(f"/api/players/{old}/rename", json={"name": new}).status_code == 200:
            self.running = [
                (one, tuple(new if name == old else name for name in seated))
                for one, seated in self.running
            ]

    def merge(self) -> None:
        """Seat a new player at a finished session (Dixit, or Mighty as Ben's boss and friend),
        then merge them into Eve or Ann."""
        source = next(self.names)
        if self.data.draw(st.booleans()):
            seated = (source, "Fay", "Gus", "Hal")
            other = self.api.create(players=list(seated), game="dixit")["id"]
            self.api.record(other, turn(source, seated))
        else:
            seated = (source, "Ben", "Fay", "Gus", "Hal")
            other = self.api.create(players=list(seated), game="mighty")["id"]
            for boss, friend, against in ((source, "Ben", 3), ("Ben", source, 12)):
                self.clock.advance(minutes=3)
                entered = mighty_hand(boss, 15, "H", {"card": "JK", "player": friend}, against)
                assert self.api.record(other, entered).status_code == 201
        self.client.post(f"/api/sessions/{other}/finish")
        target = self.data.draw(st.sampled_from(["Eve", "Ann"]))
        self.client.post(f"/api/players/{source}/rename", json={"name": target})


STEPS = st.lists(
    st.sampled_from(
        ["new_dixit", "record", "record", "undo", "correct", "finish", "idle", "pause", "mighty",
         "dalmuti", "merge", "imported", "rename", "mighty", "dalmuti", "undo_table",
         "correct_table", "correct_table", "import_table"]
    ),
    min_size=4,
    max_size=14,
)  # fmt: skip


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS, data=st.data())
def test_random_writes_keep_every_figure_as_from_scratch(app, api, client, clock, steps, data):
    with app.app_context():  # each example starts from an empty table
        for model in (Round, AuditEntry, WriteKey, SessionPlayer, PairFigures, PlayerFigures):
            db.session.execute(delete(model))
        for model in (RatingStep, PlayerRating):
            db.session.execute(delete(model))
        db.session.execute(delete(GameSession))
        db.session.execute(delete(Player))
        db.session.commit()
        db.session.remove()
    table = Table(api, client, clock, data)
    for step in steps:
        clock.advance(minutes=data.draw(st.integers(1, 40)))
        if not table.running:
            table.new_dixit()
        getattr(table, step)()
        agree(app, client, clock)
    agree(app, client, clock, rebuilt=True)


def test_a_session_page_says_its_playing_time_and_once_counted_the_places(api, client, clock):
    sid = dixit(api, clock, "ABC", minutes=40)  # breaks of 40 minutes: no playing time yet
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "data-played" not in page and "data-place" not in page
    clock.advance(minutes=25)
    assert api.record(sid, turn("Dee", FOUR)).status_code == 201
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'data-played="1500"' in page and "Playing time: 25 min" in page
    assert "data-place" not in page  # not counted yet
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    page = client.get(f"/sessions/{sid}", headers={"Accept-Language": "hu"}).get_data(as_text=True)
    assert "Játékidő: 25 perc" in page and "Helyezés" in page
    # all four tie on 6: each is first
    assert page.count('<td class="num" data-place>1</td>') == 4
