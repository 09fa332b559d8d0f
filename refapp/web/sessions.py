"""Pages: the sessions, a new session, the session page with its round form, undo and finish."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_timezone
from flask_babel import gettext as _

from .. import services
from ..games import GAMES, AnyGame, get_game
from ..games.errors import Refusal
from ..models import GameSession
from ..services import bgstats, idempotency, location
from ..services.fallen import fallen
from ..services.listing import read_filter
from . import again, bp, live_main, stale
from .chart import totals_chart
from .forms import ButtonForm, NewSessionForm, RoundForm, round_form
from .forms.base import RoundBody
from .forms.session import LocationForm, SaveRulesForm
from .game_pages import pages_of
from .helpers import FORM_REFUSALS, session_or_404
from .round_parts import round_parts
from .signin import is_live

#: one point of the totals chart: a round number and each player's running total after it
ChartPoint = tuple[int, dict[str, int]]
#: the session page lists this many latest rounds; the rest are a tap away (and on the sheet)
HISTORY_SIZE = 30


def form_template(view: services.SessionView) -> str:
    """Return the template that lays out the session's round form."""
    return pages_of(view.session.game).round_form.template


@bp.get("/")
def index() -> ResponseReturnValue:
    """Show the sessions (active first, filterable, paged) and the ways to start a new one."""
    error = None
    try:
        wanted = read_filter(request.args, per_page=20, active_first=True)
    except Refusal as refusal:
        error, wanted = refusal.message, services.SessionFilter(per_page=20, active_first=True)
    found = services.list_sessions(wanted)
    return render_template(
        "index.html",
        sessions=found.sessions,
        games=GAMES.values(),
        tables=again.recent_tables(found.sessions),
        wanted=wanted,
        total=found.total,
        pages=found.pages,
        error=error,
        args=request.args,
    ), (422 if error else 200)


@bp.route("/sessions/new", methods=["GET", "POST"])
def new_session() -> ResponseReturnValue:
    """Seat the players and choose the house rules of a new session: a preset or a saved set,
    and the rules the table changes from it."""
    slug = request.values.get("game") or next(iter(GAMES), "")
    if slug not in GAMES:
        abort(404)
    game = get_game(slug)
    form = NewSessionForm.for_game(game, services.rule_sets.list_rule_sets())
    if request.method == "GET" and not again.prefill(form, request.args.get("again")):
        form.load_choice(request.args.get("preset"))
    elif form.validate_on_submit():
        try:
            session = services.create_session(form.body())
        except FORM_REFUSALS as error:
            form.show_violation(error)
        else:
            flash(_("Session started: %(names)s.", names=", ".join(session.players)))
            return redirect(url_for("web.show_session", session_id=session.id))
    return new_session_page(form, game, 422 if request.method == "POST" else 200)


def new_session_page(
    form: NewSessionForm, game: AnyGame, status: int = 200, save_form: SaveRulesForm | None = None
) -> tuple[str, int]:
    """Render the new-session form (with the form that saves its rules under a name)."""
    return render_template(
        "new_session.html",
        form=form,
        game=game,
        save_form=save_form or SaveRulesForm(formdata=None),
    ), status


def render_session(
    view: services.SessionView,
    points: list[ChartPoint],
    form: RoundForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """Render the session page with a round form (a fresh one unless given)."""
    if form is None and not view.session.finished:
        form = round_form(view)
        form.expected_round.data = str(view.count + 1)
        if not is_live():  # a page kept for every phone (live_main) gets its key from live.js
            form.idempotency_key.data = idempotency.new_key()
    by_seat = request.args.get("order") == "seats"
    return render_template(
        "session.html",
        view=view,
        form=form,
        button=ButtonForm(),
        round_template=form_template(view),
        chart=totals_chart(view.table.players, points, view.count),
        parts=round_parts(view),
        earlier=view.rounds[0].number - 1 if view.rounds else 0,
        standings=standings(view, by_seat),
        by_seat=by_seat,
        just_round=just_round(view) if status == 200 else None,
        fallen=fallen(view.session) if view.session.finished or view.session.counted else [],
        live_session=view.session,  # the page polls its version to stay in step
        location_form=LocationForm(formdata=None, location=view.session.location or ""),
    ), status


def standings(view: services.SessionView, by_seat: bool = False) -> list[str]:
    """Return the players leader first (ties in seat order), or in seat order when asked."""
    players = list(view.table.players)
    if by_seat:
        return players
    return sorted(players, key=lambda name: -view.totals[name])


def just_round(view: services.SessionView) -> services.PlayedRound | None:
    """Return the round the table has just recorded or corrected (``?just=N``), if shown."""
    number = request.args.get("just", type=int)
    return next((played for played in view.rounds if played.number == number), None)


def history_view(session_id: int) -> tuple[services.SessionView, list[ChartPoint]]:
    """Describe a session with one page of its history (the last rounds, or those up to
    ?upto=N) and every round's deltas for the chart; a page never carries more than
    HISTORY_SIZE rounds, however long the session."""
    view = session_or_404(session_id, 0)
    upto = request.args.get("upto", type=int)
    upto = view.count if upto is None else min(max(upto, 1), view.count)
    view.rounds = services.round_rows(session_id, upto - HISTORY_SIZE, upto)
    return view, services.chart_points(session_id, view.count)


@bp.get("/sessions/<int:session_id>")
def show_session(session_id: int) -> ResponseReturnValue:
    """Show the standings, what comes next, the round form and a page of the round history."""

    def render() -> tuple[str, int, int]:
        view, points = history_view(session_id)
        html, status = render_session(view, points)
        return html, status, view.session.version

    return live_main.page(session_id, render)


@bp.post("/sessions/<int:session_id>/rounds")
def record_round(session_id: int) -> ResponseReturnValue:
    """Record a round from the form, or check a step of it; a refusal stands by its field."""
    view = session_or_404(session_id, 0)  # the form needs the state, not the rounds
    form = round_form(view)
    status = 422
    if form.validate_on_submit():
        body = form.round_input()
        try:
            if form.is_check():
                form.show_check(services.check_round(session_id, body))
                status = 200
            else:
                key = entry_key(form.idempotency_key.data)
                played, _session = services.record_round(session_id, body, key=key)
                return recorded(session_id, played.number)
        except idempotency.Stored as stored:  # this entry was stored before: a resend
            return recorded(session_id, stored.replay.number)
        except FORM_REFUSALS as error:
            if not is_stale(error):
                form.show_violation(error)
            elif services.already_recorded(session_id, body):
                return recorded(session_id, form.expected())  # a retry whose answer was lost
            else:
                show_stale(form, session_id, form.expected(), body)
    return render_session(*history_view(session_id), form, status)


def entry_key(field: str | None) -> str | None:
    """Return the key of the entry a page sends: its script's header, else the form's field."""
    return idempotency.sent_key(request.headers.getlist(idempotency.HEADER), field)


def recorded(session_id: int, number: int | None) -> ResponseReturnValue:
    """Send the table to the session page showing the round just recorded at the form (a
    resend of a round undone since shows the session as it is)."""
    if number is None:
        return redirect(url_for("web.show_session", session_id=session_id))
    flash(_("Round %(n)d recorded.", n=number))
    return redirect(url_for("web.show_session", session_id=session_id, just=number))


def is_stale(error: Refusal) -> bool:
    """Return True when another phone recorded the round this one was entering."""
    return error.code == "stale_round"


def show_stale(
    form: RoundForm, session_id: int, expected: int | None, body: RoundBody | None = None
) -> None:
    """Keep the input, say which rounds another phone recorded, and aim it at the next round;
    the page shows the last of them beside the kept entry, whose recording the table chooses."""
    count = services.load_session(session_id, with_rounds=False).round_count
    first = expected or count
    if first >= count:
        words = _("Another phone recorded round %(n)d while you were entering this one.", n=count)
    else:
        words = _(
            "Other phones recorded rounds %(first)d to %(last)d while you were entering this one.",
            first=first,
            last=count,
        )
    form.form_errors.append(
        words + " " + _("Your entry is kept: check it and record it as round %(n)d.", n=count + 1)
    )
    form.stale = True
    moved = []
    if stale.take_what_moved(form, session_or_404(session_id, 0), expected):
        now = form.round_input()  # the entry as it now stands, the next dealer taken
        moved, body = stale.moved_words(session_id, body or {}, now), now
    form.stale_choice = stale.compare(session_id, body or {}, count)
    form.stale_choice.mine.moved = moved
    form.expected_round.data = str(count + 1)


@bp.get("/sessions/<int:session_id>/rounds")
@bp.get("/sessions/<int:session_id>/finish")
@bp.get("/sessions/<int:session_id>/location")
@bp.get("/sessions/<int:session_id>/rounds/<int:number>/delete")
def back_to_session(session_id: int, number: int | None = None) -> ResponseReturnValue:
    """Answer a reload or a bookmark of a form's address with the session page itself (a
    session that is not there, or is another group's: 404)."""
    services.load_session(session_id, with_rounds=False)
    return redirect(url_for("web.show_session", session_id=session_id))


@bp.post("/sessions/<int:session_id>/rounds/<int:number>/delete")
def delete_round(session_id: int, number: int) -> ResponseReturnValue:
    """Undo the last round (it stays in the audit trail)."""
    return button_action(
        session_id,
        lambda: services.delete_round(
            session_id, number, key=entry_key(request.form.get(idempotency.FIELD))
        ),
        _("Round %(n)d undone.", n=number),
    )


@bp.post("/sessions/<int:session_id>/finish")
def finish_session(session_id: int) -> ResponseReturnValue:
    """End the session now; the highest totals win."""
    return button_action(
        session_id, lambda: services.finish_session(session_id), _("Session finished.")
    )


def button_action(session_id: int, action: Callable[[], object], done: str) -> ResponseReturnValue:
    """Run a one-button action, then show the session with what happened."""
    session_or_404(session_id, 0)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        action()
    except idempotency.Stored:  # the same undo sent again: done the first time
        flash(done)
    except FORM_REFUSALS as error:
        flash(error.message, "error")
    else:
        flash(done)
    return redirect(url_for("web.show_session", session_id=session_id))


@bp.post("/sessions/<int:session_id>/location")
def set_location(session_id: int) -> ResponseReturnValue:
    """Set, change or clear where the session was played (audited, as the API's write)."""
    session_or_404(session_id, 0)
    form = LocationForm()
    if not form.validate_on_submit():
        if form.location.errors:
            flash(_("Where you play: at most 60 characters."), "error")
            return redirect(url_for("web.show_session", session_id=session_id))
        abort(400)
    try:
        session = location.set_location(session_id, form.location.data or None)
    except FORM_REFUSALS as error:
        flash(error.message, "error")
    else:
        flash(_("Location saved.") if session.location else _("Location cleared."))
    return redirect(url_for("web.show_session", session_id=session_id))


@bp.app_template_global("known_locations")
def known_locations() -> list[str]:
    """Return the locations the forms offer and the play log filters by, the most used first."""
    return location.locations_used()


@bp.app_template_global("bgstats_link")
def bgstats_link(session: GameSession) -> str | None:
    """Return a session's "Send to BG Stats" link, None until it is finished or counted."""
    return bgstats.play_link(session, pages_of(session.game).bgg_id, get_timezone())
