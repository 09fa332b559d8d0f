"""The year in review (``/review``, ``/players/<name>/review``): the group's or a player's year -
or any period, ``?from=&to=`` - as a phone page and a picture to share (card.js draws the page's
card data), every figure from the review service (services/review.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from flask import abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date, format_decimal, format_percent, ngettext
from flask_babel import gettext as _

from .. import club
from ..games import GAMES
from ..games.errors import MalformedInput, Refusal, quote
from ..models import utcnow
from ..services.review import Review, group_review, player_review
from ..services.seasons import list_seasons
from ..services.statistics import Query
from . import bp
from .players import name_of, path_keeps, token
from .stats import read_query, record_name

#: a year as ``?year=`` takes it: four digits
YEAR = re.compile(r"[0-9]{4}")
#: the years the page offers as chips: this one and the ones before
YEARS_OFFERED = 3
#: what names a period other than a year: a season, or its first and last day
PERIOD = ("season", "from", "to")


@dataclass
class Period:
    """The period a review covers: the query, its year (None: from-to), what was asked, and a
    refusal to stand next to its field."""

    query: Query
    year: int | None
    wanted: dict[str, str]
    refusal: MalformedInput | None = None


def asked_period(args: Mapping[str, str]) -> Period:
    """Return the period asked for: ``season`` or ``from``/``to`` when given, else ``year``
    (this year by the app's clock when absent); a refused field leaves this year."""
    wanted = {key: (args.get(key) or "").strip() for key in ("year", *PERIOD)}
    wanted = {key: value for key, value in wanted.items() if value}
    if any(key in wanted for key in PERIOD):
        read = read_query({key: wanted[key] for key in PERIOD if key in wanted})
        if read.refusal is None:
            return Period(read.query, None, wanted)
        return Period(year_query(utcnow().year), utcnow().year, wanted, read.refusal)
    text = wanted.get("year") or str(utcnow().year)
    if YEAR.fullmatch(text) and int(text) >= 1:
        return Period(year_query(int(text)), int(text), wanted)
    refusal = MalformedInput(
        "invalid_value", "{value} is not a year; write one as 2026.", "year", value=quote(text)
    )
    return Period(year_query(utcnow().year), utcnow().year, wanted, refusal)


def year_query(year: int) -> Query:
    """Return the statistics query of a calendar year (UTC days, as every period)."""
    return Query(date_from=date(year, 1, 1), date_to=date(year, 12, 31))


def heading(period: Period, player: str | None) -> str:
    """Return the review's title in the reader's language: "2026 in review", "Ann's 2026"."""
    if period.year is not None:
        span = str(period.year)
    elif "season" in period.wanted:
        span = period.wanted["season"]
    else:
        first, last = period.query.date_from, period.query.date_to
        span = _(
            "%(first)s to %(last)s",
            first=format_date(first, "medium") if first else _("the first session"),
            last=format_date(last, "medium") if last else _("today"),
        )
    if player is None:
        return str(_("The group's %(period)s in review", period=span))
    return str(_("%(name)s's %(period)s in review", name=player, period=span))


def hours(value: float) -> str:
    """Write hours played in the reader's language (one decimal)."""
    return str(_("%(hours)s h", hours=format_decimal(value, format="0.0")))


def night_day(day: str) -> str:
    """Write a night's evening as the reader's language writes a date."""
    return str(format_date(date.fromisoformat(day), "medium"))


def facts(review: Review) -> list[str]:
    """Return the review's figures as sentences, for the card and its plain text: the summary
    line first."""
    found = [
        ngettext("%(num)d night", "%(num)d nights", review["nights"])
        + " · "
        + ngettext("%(num)d session", "%(num)d sessions", review["sessions"])
        + " · "
        + hours(review["hours"])
    ]
    rate = review["win_rate"]
    if review["player"] is not None:
        found.append(
            ngettext("%(num)d win", "%(num)d wins", review["wins"])
            + (f" ({format_percent(rate)})" if rate is not None else "")
        )
    if review["games"]:
        top = review["games"][0]
        found.append(_("Played most: %(game)s", game=_(GAMES[top["name"]].title)))
    streak = review["streak"]
    if streak is not None:
        found.append(
            _(
                "Longest win streak: %(num)d, %(name)s (%(game)s)",
                num=streak["value"],
                name=streak["player"],
                game=_(GAMES[streak["game"]].title),
            )
        )
    night = review["best_night"]
    if night is not None:
        found.append(_("Best night: %(day)s", day=night_day(night["day"])))
    return found + people(review)


def people(review: Review) -> list[str]:
    """Return the review's people as sentences: played with most, nemesis, partner (a
    player's), or the most one-sided pair (the group's); then the records set."""
    found = []
    if review["player"] is not None and review["together"]:
        found.append(_("Played with most: %(name)s", name=review["together"][0]["name"]))
    if review["nemesis"]:
        found.append(_("Nemesis: %(name)s", name=review["nemesis"]))
    if review["partner"]:
        found.append(_("Partner: %(name)s", name=review["partner"]))
    pair = review["one_sided"]
    if pair is not None:
        found.append(
            _(
                "%(a)s placed ahead of %(b)s %(ahead)d times, behind %(behind)d.",
                a=pair["a"],
                b=pair["b"],
                ahead=pair["a_ahead"],
                behind=pair["b_ahead"],
            )
        )
    if review["records"]:
        count = len(review["records"])
        found.append(ngettext("%(num)d record set", "%(num)d records set", count))
    return found


def rows(review: Review) -> list[dict[str, object]]:
    """Return the card's rows: the group's leaders by wins, or the player's games."""
    if review["player"] is None:
        return [
            {
                "place": str(index),
                "name": line["name"],
                "value": ngettext("%(num)d win", "%(num)d wins", line["wins"]),
                "winner": index == 1 and line["wins"] > 0,
            }
            for index, line in enumerate(review["leaders"], 1)
        ]
    return [
        {
            "place": "",
            "name": _(GAMES[line["name"]].title),
            "value": ngettext("%(num)d session", "%(num)d sessions", line["sessions"]),
            "winner": False,
        }
        for line in review["games"]
    ]


def card_data(review: Review, period: Period) -> dict[str, object]:
    """Return the card data card.js draws (the contract of docs/API.md's result card)."""
    title = heading(period, review["player"])
    lines = facts(review)
    table = rows(review)
    footer = "refapp"
    text = "\n".join(
        [
            title,
            *(
                f"{row['place']}. {row['name']}: {row['value']}"
                if row["place"]
                else f"{row['name']}: {row['value']}"
                for row in table
            ),
            *lines,
            footer,
        ]
    )
    span = str(period.year) if period.year is not None else (review["first"] or "all")
    who = "group" if review["player"] is None else "player"
    return {
        "file": f"refapp-review-{who}-{span}.png",
        "title": title,
        "subtitle": lines[0],
        "rows": table,
        "facts": lines[1:],
        "footer": footer,
        "text": text,
    }


def years_offered() -> list[int]:
    """Return the years the page offers as chips: this year and the ones before."""
    this = utcnow().year
    return [this - back for back in range(YEARS_OFFERED)]


def render_review(review: Review, period: Period, path: str) -> ResponseReturnValue:
    """Render a review page for the period asked for (422 with a refused field beside it)."""
    return render_template(
        "review.html",
        review=review,
        period=period,
        path=path,
        title=heading(period, review["player"]),
        years=years_offered(),
        seasons=list_seasons(club.current_group_id()),
        card=card_data(review, period),
        hours=hours,
        night_day=night_day,
        record_name=record_name,
    ), (422 if period.refusal else 200)


@bp.get("/review")
def review() -> ResponseReturnValue:
    """Show the group's year (or period) in review."""
    period = asked_period(request.args)
    return render_review(group_review(period.query), period, url_for("web.review"))


@bp.app_template_global()
def review_url(name: str) -> str:
    """Return a player's review: /players/<name>/review, or by token for a name a path folds."""
    if path_keeps(name):
        return url_for("web.show_player_review", name=name)
    return url_for("web.show_player_review_by_token", segment=token(name))


@bp.get("/players/<player_name:name>/review", merge_slashes=False)
def show_player_review(name: str) -> ResponseReturnValue:
    """Show a player's year (or period) in review."""
    period = asked_period(request.args)
    try:
        found = player_review(name, period.query)
    except Refusal:
        abort(404)
    return render_review(found, period, review_url(found["player"] or name))


@bp.get("/player/<segment>/review")
def show_player_review_by_token(segment: str) -> ResponseReturnValue:
    """Show the review of a player whose name a path would fold, by its token."""
    return show_player_review(name_of(segment))
