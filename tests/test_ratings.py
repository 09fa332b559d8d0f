"""Ratings (openskill, Plackett-Luce with its defaults): kept by every write as processing the
stored history from scratch gives, read as a leaderboard and a player's rating with history."""

from __future__ import annotations

from openskill.models import PlackettLuce
from sqlalchemy import func, select

from refapp.extensions import db
from refapp.models import Projection, RatingStep
from refapp.services import projection, recount

from . import ratings_oracle
from .conftest import turn
from .test_statistics import FOUR, KILL_HANDS, SIX, dixit, mine, same_rating, stats
from .test_stats import FIVE, MIGHTY_HANDS
from .test_stats import hand as mighty_hand

MODEL = PlackettLuce()


def board(client, **query) -> dict[tuple[str, str], dict]:
    """Return the leaderboard by (name, game)."""
    return {(row["name"], row["game"]): row for row in stats(client, **query)["ratings"]}


def test_a_session_is_rated_only_once_it_counts_each_player_a_team_by_place(api, client, clock):
    sid = dixit(api, clock, "ABC")
    assert stats(client)["ratings"] == []  # still being played
    client.post(f"/api/sessions/{sid}/finish")
    # totals: Ann 4, Ben 4, Cy 4, Dee 6: Dee first, the others share second
    ranks = [1.0, 1.0, 1.0, 0.0]
    after = MODEL.rate([[MODEL.rating()] for _ in FOUR], ranks=ranks)
    rated = board(client)
    for name, [skill] in zip(FOUR, after, strict=True):
        line = rated[(name, "dixit")]
        assert (line["mu"], line["sigma"]) == (round(skill.mu, 4), round(skill.sigma, 4))
        assert line["display"] == round(skill.mu - 3 * skill.sigma, 2)
        assert line["rated"] == 1
    assert stats(client)["ratings"][0]["name"] == "Dee"
    dee = mine(client, "Dee")["games"]["dixit"]["rating"]
    assert dee["rated"] == 1 and len(dee["history"]) == 1
    assert dee["history"][0]["display"] == dee["display"] > 0


def test_a_mighty_hand_is_two_teams_the_ruling_side_against_the_opposition(api, client, clock):
    sid = api.create(players=list(FIVE), game="mighty")["id"]
    for hand in MIGHTY_HANDS[:2]:  # Cy with Dee made 15; Ann alone (her own friend) lost 14
        clock.advance(minutes=3)
        assert api.record(sid, hand).status_code == 201
    client.post(f"/api/sessions/{sid}/finish")
    fresh = MODEL.rating
    ruling, opposition = MODEL.rate([[fresh(), fresh()], [fresh(), fresh(), fresh()]], [0.0, 1.0])
    skills = {"Cy": ruling[0], "Dee": ruling[1]}
    skills |= dict(zip(("Ann", "Ben", "Eve"), opposition, strict=True))
    alone, rest = MODEL.rate(
        [[skills["Ann"]], [skills["Ben"], skills["Cy"], skills["Dee"], skills["Eve"]]], [1.0, 0.0]
    )
    skills |= {"Ann": alone[0]} | dict(zip(("Ben", "Cy", "Dee", "Eve"), rest, strict=True))
    rated = board(client, game="mighty")
    for name, skill in skills.items():
        assert rated[(name, "mighty")]["mu"] == round(skill.mu, 4), name
        assert rated[(name, "mighty")]["rated"] == 2
    history = mine(client, "Ann")["games"]["mighty"]["rating"]["history"]
    assert [point["display"] for point in history] == [round(alone[0].mu - 3 * alone[0].sigma, 2)]


def test_a_correction_in_an_earlier_session_rates_every_later_one_again(app, api, client, clock):
    first = dixit(api, clock, "AB")
    client.post(f"/api/sessions/{first}/finish")
    second = dixit(api, clock, "CD")
    client.post(f"/api/sessions/{second}/finish")
    before = board(client)
    # the first session's turn 1: Ben votes for Cy's card, so Cy scores one more
    body = turn("Ann")
    body["votes"]["Ben"] = 3
    assert client.put(f"/api/sessions/{first}/rounds/1", json=body).status_code == 200
    after = board(client)
    assert after != before
    with app.app_context():
        assert stats(client)["ratings"] == ratings_oracle.board(clock.now, ("dixit",))


def test_a_round_recorded_in_a_session_gone_idle_takes_its_rating_out_until_it_ends_again(
    api, client, clock
):
    sid = dixit(api, clock, "AB")
    clock.advance(hours=12)
    assert board(client)[("Ann", "dixit")]["rated"] == 1
    clock.advance(minutes=1)
    assert api.record(sid, turn("Cy")).status_code == 201
    assert stats(client)["ratings"] == []
    clock.advance(hours=12)
    assert board(client)[("Ann", "dixit")]["rated"] == 1


def test_a_merge_and_a_rebuild_give_what_the_history_gives_from_scratch(app, api, client, clock):
    one = dixit(api, clock, "ABCD")
    client.post(f"/api/sessions/{one}/finish")
    other = dixit(api, clock, "FG", players=("Fay", "Gus", "Hal", "Ivy"))
    client.post(f"/api/sessions/{other}/finish")
    assert client.post("/api/players/Ivy/rename", json={"name": "Ann"}).status_code == 200
    with app.app_context():
        wanted = ratings_oracle.board(clock.now, ("dixit",))
    assert stats(client)["ratings"] == wanted
    assert board(client)[("Ann", "dixit")]["rated"] == 2
    with app.app_context():
        recount.rebuild()
        db.session.remove()
    assert stats(client)["ratings"] == wanted


def test_figures_counted_by_older_definitions_are_counted_again_at_migrate(app, api, client, clock):
    sid = dixit(api, clock, "AB")
    client.post(f"/api/sessions/{sid}/finish")
    with app.app_context():
        db.session.execute(db.delete(RatingStep))
        db.session.execute(db.delete(Projection))
        db.session.commit()
        assert projection.stale()
    with app.app_context():
        ran = app.test_cli_runner().invoke(args=["rebuild-figures", "--if-stale"])
        assert "Counted 1 session(s)" in ran.output
        assert not projection.stale()
        steps = db.session.scalar(select(func.count()).select_from(RatingStep))
        assert steps == 4
        again = app.test_cli_runner().invoke(args=["rebuild-figures", "--if-stale"])
        assert "up to date" in again.output


def test_a_correction_that_leaves_every_hands_sides_alone_rates_nothing_again(
    app, api, client, clock
):
    sid = api.create(players=list(FIVE), game="mighty")["id"]
    for hand in MIGHTY_HANDS[:2]:
        clock.advance(minutes=3)
        assert api.record(sid, hand).status_code == 201
    client.post(f"/api/sessions/{sid}/finish")
    stats(client)  # the read rates the session the finish counted
    with app.app_context():
        kept = db.session.execute(select(RatingStep.id, RatingStep.mu)).all()
        db.session.remove()
    # hand 1: the opposition took 4 point cards, not 3: Cy's 15 is still made, other points
    body = {**MIGHTY_HANDS[0], "opposition_points": 4}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=body).status_code == 200
    stats(client)
    with app.app_context():
        assert db.session.execute(select(RatingStep.id, RatingStep.mu)).all() == kept
        db.session.remove()
    # hand 1 again: the opposition took 6, so Cy's 15 fails: both hands are rated again
    body = {**MIGHTY_HANDS[0], "opposition_points": 6}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=body).status_code == 200
    stats(client)
    with app.app_context():
        again = db.session.execute(select(RatingStep.id, RatingStep.mu)).all()
        wanted = ratings_oracle.board(clock.now, ("mighty",))
        db.session.remove()
    assert again != kept and len(again) == len(kept) == 10
    assert stats(client)["ratings"] == wanted


def test_a_write_rates_nothing_itself_the_next_read_rates_its_sessions_once(
    app, api, client, clock, count_queries
):
    sid = api.create(players=list(FIVE), game="mighty")["id"]
    for hand in MIGHTY_HANDS[:2]:
        clock.advance(minutes=3)
        assert api.record(sid, hand).status_code == 201
    with count_queries() as finishing:
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    for number, points in ((1, 6), (2, 3), (1, 7)):  # three corrections, one replay
        body = {**MIGHTY_HANDS[number - 1], "opposition_points": points}
        with count_queries() as correcting:
            assert client.put(f"/api/sessions/{sid}/rounds/{number}", json=body).status_code == 200
        assert not rating_statements(correcting)
    assert not rating_statements(finishing)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(RatingStep)) == 0
        wanted = ratings_oracle.board(clock.now, ("mighty",))
        db.session.remove()
    with count_queries() as reading:
        assert stats(client)["ratings"] == wanted
    assert sum(text.startswith("INSERT INTO rating_step") for text in reading.statements) == 1
    with count_queries() as again:
        assert stats(client)["ratings"] == wanted
    assert not [text for text in again.statements if text.startswith(("INSERT", "UPDATE"))]


def rating_statements(counter) -> list[str]:
    """Return the statements a counter saw that read or write the ratings' tables."""
    return [text for text in counter.statements if "rating_step" in text or "player_rating" in text]


def test_corrections_of_two_counted_sessions_are_rated_together_as_from_scratch(
    app, api, client, clock
):
    played = []
    for hands in (MIGHTY_HANDS[:2], MIGHTY_HANDS[4:7], MIGHTY_HANDS[:2]):
        sid = api.create(players=list(FIVE), game="mighty")["id"]
        for hand in hands:
            clock.advance(minutes=3)
            assert api.record(sid, hand).status_code == 201
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
        played.append(sid)
        clock.advance(hours=2)
    stats(client)
    # the first session's hand 1 fails now, the last one's hand 2 is made: both sessions due,
    # one replay from the first session's hand 1 on
    for sid, number, points in ((played[0], 1, 6), (played[2], 2, 3)):
        body = {**MIGHTY_HANDS[number - 1], "opposition_points": points}
        assert client.put(f"/api/sessions/{sid}/rounds/{number}", json=body).status_code == 200
    with app.app_context():
        wanted = ratings_oracle.board(clock.now, ("mighty",))
        histories = {name: ratings_oracle.rating_of(clock.now, name, "mighty") for name in FIVE}
        db.session.remove()
    assert stats(client, game="mighty")["ratings"] == wanted
    for name in FIVE:
        assert same_rating(mine(client, name)["games"]["mighty"]["rating"], histories[name]), name


def test_a_session_emptied_before_a_later_one_of_its_players_rates_them_as_from_scratch(
    app, api, client, clock
):
    # an import of the first session plays its one hand at the very same time, after it in the
    # game's order; a later session seats the same five. Counted, then the copy's hand undone:
    # each player's later hands start again from the first session's, not from the copy's
    first = api.create(players=list(FIVE), game="mighty")["id"]
    clock.advance(minutes=3)
    assert api.record(first, MIGHTY_HANDS[0]).status_code == 201
    copy = client.post(
        "/api/sessions/import", json=client.get(f"/api/sessions/{first}/export").get_json()
    )
    assert copy.status_code == 201
    clock.advance(minutes=30)
    later = api.create(players=list(FIVE), game="mighty")["id"]
    for hand in MIGHTY_HANDS[4:6]:
        clock.advance(minutes=3)
        assert api.record(later, hand).status_code == 201
    clock.advance(hours=12)  # all three count by going idle
    before = board(client, game="mighty")
    assert client.delete(f"/api/sessions/{copy.get_json()['id']}/rounds/1").status_code == 200
    with app.app_context():
        wanted = ratings_oracle.board(clock.now, ("mighty",))
        histories = {name: ratings_oracle.rating_of(clock.now, name, "mighty") for name in FIVE}
        db.session.remove()
    assert stats(client, game="mighty")["ratings"] == wanted
    assert board(client, game="mighty") != before  # the copy's hand was rated before
    for name in FIVE:
        assert same_rating(mine(client, name)["games"]["mighty"]["rating"], histories[name]), name


def test_a_correction_at_one_of_two_tables_at_once_rates_each_player_once_per_hand(
    app, api, client, clock
):
    # two tables play at once: Eve is killed in the six-seat table's hand 1, plays a hand at
    # the other table, then the six-seat table's hand 2. Correcting that hand 2 rates the six
    # seats' hands again from hand 1: Eve from her rating before hand 1, so the other table's
    # hand counts for her once
    six = api.create(players=list(SIX), game="mighty")["id"]
    other = api.create(players=["Eve", "Gus", "Hal", "Ivy", "Jo"], game="mighty")["id"]
    between = mighty_hand("Eve", 15, "H", {"card": "JK", "player": "Gus"}, 3)
    for sid, entered in ((six, KILL_HANDS[0]), (other, between), (six, KILL_HANDS[1])):
        clock.advance(minutes=3)
        assert api.record(sid, entered).status_code == 201, entered
    clock.advance(minutes=3)
    for sid in (six, other):
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    assert board(client, game="mighty")[("Eve", "mighty")]["rated"] == 2
    body = {**KILL_HANDS[1], "opposition_points": 4}  # Dee's 14 is made now
    assert client.put(f"/api/sessions/{six}/rounds/2", json=body).status_code == 200
    with app.app_context():
        wanted = ratings_oracle.board(clock.now, ("mighty",))
        eve = ratings_oracle.rating_of(clock.now, "Eve", "mighty")
        db.session.remove()
    assert stats(client, game="mighty")["ratings"] == wanted
    assert board(client, game="mighty")[("Eve", "mighty")]["rated"] == 2
    assert same_rating(mine(client, "Eve")["games"]["mighty"]["rating"], eve)
