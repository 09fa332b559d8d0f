"""Pages bounded in rows whatever the session's length: the trick and check-a-play pages read no
round; the printable summary and the CSV stream their rounds, read a batch at a time, and answer
what a whole read would."""

from __future__ import annotations

import csv
import html
import io
import re
import tracemalloc

import pytest
from flask import has_request_context, render_template
from sqlalchemy import func, insert, select

from refapp import services
from refapp.extensions import db
from refapp.games.game import running_totals
from refapp.models import AuditEntry, GameSession, Round
from refapp.services import audit_pages, round_stream, stored_rounds
from refapp.services.session_head import head_of
from refapp.services.sessions import CHART_POINTS
from refapp.web.chart import totals_chart

from .conftest import MIGHTY_HAND, shown, turn
from .stored_oracle import running_series

DIXIT = ("Ann", "Ben", "Cy", "Dee")
FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
LENGTHS = (10, 3000)
TRICK = "trick?trump=S&trick=2&cards=HK,H5"


def grow(session_id: int, rounds: int) -> None:
    """Copy a session's recorded rounds, in turn, until it holds ``rounds`` rounds (totals
    and the round count kept as recording them would)."""
    stored = db.session.execute(
        select(Round.input, Round.result, Round.state, Round.recorded_at)
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    ).all()
    copied = [stored[number % len(stored)] for number in range(rounds)]
    session = db.session.get(GameSession, session_id)
    assert session is not None
    deltas = [row.result["deltas"] for row in copied]
    running = running_series(dict.fromkeys(session.players, 0), deltas)
    rows = [
        {
            "session_id": session_id,
            "number": number,
            **row._asdict(),
            "answer": stored_rounds.answer_text(
                number, row.input, row.result, row.recorded_at, None
            ),
            "running": totals,
        }
        for number, (row, totals) in enumerate(zip(copied, running, strict=True), 1)
    ][len(stored) :]
    if rows:
        db.session.execute(insert(Round), rows)
    session.round_count = rounds
    session.totals = running_totals(dict.fromkeys(session.players, 0), deltas)
    db.session.commit()


#: rounds recorded through the API before they are copied, by game
BODIES = {
    "dixit": [turn(name) for name in DIXIT],
    "mighty": [MIGHTY_HAND],
    "dalmuti": [{"tribute": {"paid": True}, "finish_order": list(FIVE)}],
}


def long_session(app, api, game: str, rounds: int) -> int:
    """Record a few rounds of game through the API, copy them up to ``rounds``; return its id."""
    if game == "dixit":
        sid = api.create(players=DIXIT, rules={"target_score": 10**6})["id"]
    else:
        sid = api.create(players=FIVE, game=game)["id"]
    for body in BODIES[game]:
        response = api.record(sid, body)
        assert response.status_code == 201, response.get_json()
    with app.app_context():
        grow(sid, rounds)
    return sid


def chunks(client, path: str, headers: dict | None = None) -> list[bytes]:
    """Ask for a page and return its body as the server sent it, chunk by chunk."""
    response = client.get(path, headers=headers or {}, buffered=False)
    assert response.status_code == 200
    try:
        return list(response.response)
    finally:
        response.close()


def costs(count_queries, client, path: str, status: int = 200, **post) -> tuple[int, int, str]:
    """Ask for a page (posting ``post`` if given), read it whole; return queries, rows, page."""
    with count_queries() as counter:
        response = client.post(path, data=post) if post else client.get(path)
        page = shown(response)
    assert response.status_code == status, page[:300]
    return counter.count, counter.rows, page


# -- pages that show no round read none ---------------------------------------------------------


def test_the_trick_page_reads_no_round_whatever_the_length(app, api, client, count_queries):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "mighty", rounds)
        queries, rows, page = costs(count_queries, client, f"/sessions/{sid}/{TRICK}")
        assert '<option value="Eve">Eve</option>' in page and "trick-verdict" in page
        read.append((queries, rows))
    assert read[0] == read[1]
    assert read[0][1] <= 1 + len(FIVE)  # the session's row and its seats


def test_a_trick_page_that_is_not_found_reads_no_round(app, api, client, count_queries):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "dixit", rounds)
        queries, rows, _ = costs(count_queries, client, f"/sessions/{sid}/{TRICK}", 404)
        read.append((queries, rows))
    assert read[0] == read[1] and read[0][1] <= 1 + len(DIXIT)
    assert costs(count_queries, client, f"/sessions/999/{TRICK}", 404)[1] == 0


def test_check_a_play_reads_no_round_whatever_the_length(app, api, client, count_queries):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "dalmuti", rounds)
        path = f"/sessions/{sid}/check-play"
        shown_empty = costs(count_queries, client, path)
        checked = costs(count_queries, client, path, previous="7 7 7", play="6 6 6")
        assert "Legal: 6, 6, 6 (Knight, 3 cards) beats 7, 7, 7 (Seamstress, 3 cards)." in checked[2]
        read.append((shown_empty[:2], checked[:2]))
    assert read[0] == read[1]
    assert read[0][0][1] <= 1 + len(FIVE) and read[0][1][1] <= 1 + len(FIVE)


def test_a_check_a_play_page_that_is_not_found_reads_no_round(app, api, client, count_queries):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "mighty", rounds)
        read.append(costs(count_queries, client, f"/sessions/{sid}/check-play", 404)[:2])
    assert read[0] == read[1] and read[0][1] <= 1 + len(FIVE)
    assert costs(count_queries, client, "/sessions/999/check-play", 404)[1] == 0


# -- pages that show every round stream them ------------------------------------------------------


def whole_print(app, sid: int, language: str) -> str:
    """Return the printable summary rendered from a whole read of the session: every round's
    full row in one list (what the page read before it streamed)."""
    path = f"/sessions/{sid}/print"
    with app.test_request_context(path, headers={"Accept-Language": language}):
        view = head_of(services.load_session(sid, with_rounds=False))
        played = services.round_rows(sid)
        players = view.table.players
        deltas = [(p.number, p.result["deltas"]) for p in played]
        sheet = [(number, {name: d.get(name, 0) for name in players}) for number, d in deltas]
        return render_template(
            "print.html",
            view=view,
            sheet=sheet,
            chart=totals_chart(players, services.chart_points(sid, len(played)), len(played)),
            explained=[(p.number, p.result) for p in played],
        )


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_printable_summary_streams_what_a_whole_read_shows(
    app, api, client, count_queries, language
):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "dixit", rounds)
        with count_queries() as counter:
            sent = chunks(client, f"/sessions/{sid}/print", {"Accept-Language": language})
        read.append((counter.count, counter.rows))
        page = b"".join(sent).decode()
        assert page == whole_print(app, sid, language)
    assert read[0][0] == read[1][0]  # the same queries, read a batch at a time
    # each round read twice, and the chart's sample of the stored running totals once
    assert read[1][1] - read[0][1] == 2 * (LENGTHS[1] - LENGTHS[0]) + sampled(LENGTHS[1]) - sampled(
        LENGTHS[0]
    )
    assert len(sent) > 10  # sent as written, a chunk at a time (a whole read sent one)
    assert page.count("<polyline") == 4 and page.count("<li value=") == 3000
    assert "<tr><td>3000</td>" in page and '<li value="3000">' in page


def sampled(count: int) -> int:
    """Return how many rounds the chart draws of a session of ``count`` rounds."""
    step = -(-count // CHART_POINTS)
    return sum(1 for number in range(1, count + 1) if number % step == 0 or number == count)


def whole_csv(app, sid: int) -> str:
    """Return the CSV written from a whole read of the session's rounds."""
    with app.app_context():
        players = services.load_session(sid, with_rounds=False).players
        played = services.round_rows(sid)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(["round", *players])
    deltas = [p.result["deltas"] for p in played]
    for number, changes in enumerate(deltas, 1):
        writer.writerow([number, *(changes.get(name, 0) for name in players)])
    totals = running_totals(dict.fromkeys(players, 0), deltas)
    writer.writerow(["total", *(totals[name] for name in players)])
    return "\ufeff" + out.getvalue()


def test_the_csv_streams_what_a_whole_read_writes(app, api, client, count_queries, monkeypatch):
    monkeypatch.setattr(round_stream, "CHUNK", 4096)  # the CSV of 3,000 rounds is 40 KB
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "dixit", rounds)
        with count_queries() as counter:
            sent = chunks(client, f"/sessions/{sid}.csv")
        read.append((counter.count, counter.rows))
        text = b"".join(sent).decode()
        assert text == whole_csv(app, sid)
    assert len(sent) >= 40960 // 4096  # sent as written, a chunk at a time
    assert read[0][0] == read[1][0]
    assert read[1][1] - read[0][1] == LENGTHS[1] - LENGTHS[0]  # each round read once
    assert text.count("\r\n") == 3000 + 2


def peak_streaming(client, path: str) -> tuple[int, int]:
    """Return the peak memory Python allocated answering path, the body read a chunk at a time
    and let go, and the body's length."""
    tracemalloc.start()
    try:
        response = client.get(path, buffered=False)
        size = sum(len(chunk) for chunk in response.response)
        response.close()
        return tracemalloc.get_traced_memory()[1], size
    finally:
        tracemalloc.stop()


def test_the_printable_summary_holds_less_than_it_sends(app, api, client):
    peaks, sizes = [], []
    for rounds in (300, 3000):
        sid = long_session(app, api, "dixit", rounds)
        client.get(f"/sessions/{sid}/print").get_data()  # templates compiled, caches filled
        peak, size = peak_streaming(client, f"/sessions/{sid}/print")
        peaks.append(peak)
        sizes.append(size)
    # a whole read held 25 MB at 3,000 rounds; streamed, only the chart's points and the
    # packed deltas grow with the rounds, and by less than the text they become
    assert peaks[1] < 4 * 2**20, peaks
    assert peaks[1] - peaks[0] < sizes[1] - sizes[0], (peaks, sizes)


# -- the history of changes is read a page at a time ----------------------------------------------


def lengthen_trail(app, sid: int, entries: int) -> None:
    """Copy the session's last audit entry until its trail holds ``entries`` entries."""
    with app.app_context():
        last = db.session.scalars(
            select(AuditEntry).where(AuditEntry.session_id == sid).order_by(AuditEntry.id.desc())
        ).first()
        assert last is not None
        have = db.session.scalar(
            select(func.count()).select_from(AuditEntry).where(AuditEntry.session_id == sid)
        )
        copy = {"session_id": sid, "at": last.at, "action": last.action, "after": last.after}
        rows = [{**copy, "round_number": last.round_number} for _ in range(entries - have)]
        db.session.execute(insert(AuditEntry), rows)
        db.session.commit()


def test_the_history_of_changes_reads_a_page_whatever_the_trail(app, api, client, count_queries):
    read = []
    for entries in (300, 3000):
        sid = long_session(app, api, "dixit", 4)
        lengthen_trail(app, sid, entries)
        queries, rows, page = costs(count_queries, client, f"/sessions/{sid}/changes")
        assert page.count("Round 4 recorded.") == audit_pages.PAGE and "Earlier changes" in page
        read.append((queries, rows))
    assert read[0] == read[1]
    assert read[0][1] <= 1 + len(DIXIT) + audit_pages.PAGE + 1


def headlines(page: str) -> list[str]:
    """Return the headlines of a page of the history of changes, in order."""
    trail = page.split('<ol class="changes card">')[1].split("</ol>")[0]
    return re.findall(r"<strong>(.*?)</strong>", trail)


def test_going_back_through_the_history_shows_every_change_once(app, api, client, monkeypatch):
    monkeypatch.setattr(audit_pages, "PAGE", 4)
    sid = api.create()["id"]
    for name in ("Ann", "Ben", "Cy", "Dee", "Ann", "Ben", "Cy", "Dee", "Ann"):
        assert api.record(sid, turn(name)).status_code == 201
    path, pages = f"/sessions/{sid}/changes", []
    while path:
        page = shown(client.get(path))
        pages.append(headlines(page))
        earlier = re.search(r'href="([^"]*)">Earlier changes<', page)
        path = html.unescape(earlier.group(1)) if earlier else ""
        assert ("Latest changes" in page) == (len(pages) > 1)
    assert [len(lines) for lines in pages] == [4, 4, 2]
    every = [line for lines in reversed(pages) for line in lines]
    assert every == ["Session started with Ann, Ben, Cy, Dee."] + [
        f"Round {number} recorded." for number in range(1, 10)
    ]


@pytest.mark.parametrize("before", ["x", "-1", "1" * 12, "", "٣"])
def test_a_history_page_before_no_entry_is_not_found(api, client, before):
    sid = api.create()["id"]
    assert client.get(f"/sessions/{sid}/changes?before={before}").status_code == 404


def test_a_reader_leaving_mid_sheet_lets_the_table_go_on(app, api, client):
    sid = long_session(app, api, "dixit", 3000)
    response = client.get(f"/sessions/{sid}/print", buffered=False)
    assert b"<h1>" in next(iter(response.response))
    response.close()  # the reader went away: the page's reads and its request end here
    assert not has_request_context()
    assert api.record(sid, turn("Ann")).status_code == 201
    assert api.session(sid)["rounds_total"] == 3001
