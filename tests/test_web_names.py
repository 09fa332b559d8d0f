"""Known names on the new-session form: the latest tables' players, latest first, each once,
read in one bounded query whatever the history; offered as chips, the names still typed."""

from __future__ import annotations

import html
import re

from refapp.services import again

CHIP = re.compile(r'<button type="button" class="chip" data-name="([^"]*)"')


def chips(client, game: str = "dixit") -> list[str]:
    """Return the names the new-session form offers as chips, in order."""
    page = client.get(f"/sessions/new?game={game}").get_data(as_text=True)
    return [html.unescape(name) for name in CHIP.findall(page)]


def test_no_history_offers_no_chips_and_the_seat_tools_wait_for_the_script(client):
    page = client.get("/sessions/new?game=dixit").get_data(as_text=True)
    assert CHIP.findall(page) == []
    assert re.search(r'<div class="seat-tools" data-seat-tools hidden>', page)
    assert re.search(r'src="/static/names.js[?"]', page)


def test_the_latest_table_first_each_name_once(client, api):
    api.create(["Old", "Ann", "Ben"], game="dixit")
    api.create(["Minsu", "Jiwoo", "Ann", "Ben", "Cy"], game="mighty")
    assert chips(client) == ["Minsu", "Jiwoo", "Ann", "Ben", "Cy", "Old"]
    assert chips(client, "mighty") == chips(client)  # every game's names: one table plays all


def test_a_name_with_markup_is_shown_as_text(client, api):
    api.create(["<b>Ann</b>", 'Ben "B"', "Cy"], game="dixit")
    page = client.get("/sessions/new?game=dixit").get_data(as_text=True)
    assert "<b>Ann</b>" not in page
    assert chips(client) == ["<b>Ann</b>", 'Ben "B"', "Cy"]


def test_the_read_is_one_query_of_a_fixed_number_of_rows(app, api, client, count_queries):
    for number in range(30):  # 30 tables of 5: 150 seats, more than the read takes
        api.create([f"P{number}-{seat}" for seat in range(5)], game="mighty")
    with app.app_context(), count_queries() as counter:
        names = again.known_names()
    assert counter.count == 1
    assert names == [f"P29-{seat}" for seat in range(5)] + [f"P28-{seat}" for seat in range(5)] + [
        f"P27-{seat}" for seat in range(5)
    ] + ["P26-0"]
    assert len(chips(client)) == 16


def test_the_form_costs_the_same_for_3_and_30_tables(api, client, count_queries):
    costs = []
    for tables in (3, 27):
        for number in range(tables):
            api.create([f"T{tables}-{number}-{seat}" for seat in range(4)], game="dixit")
        with count_queries() as counter:
            assert client.get("/sessions/new?game=dixit").status_code == 200
        costs.append(counter.count)
    assert costs[0] == costs[1]


def test_typed_names_still_start_a_session(client, api):
    api.create(["Ann", "Ben", "Cy"], game="dixit")
    answer = client.post(
        "/sessions/new", data={"game": "dixit", "players": "Zed\nAnn\nYan", "preset": "classic"}
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    sid = int(re.search(r"/sessions/(\d+)$", answer.headers["Location"]).group(1))
    assert api.session(sid)["players"] == ["Zed", "Ann", "Yan"]
