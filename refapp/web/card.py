"""A session's result card (``/sessions/<id>/card``): its standings, highlights and records that
fell, as a page and as the data ``static/card.js`` draws into a picture to share.

The card's data (``card-data``, docs/API.md "The result card") is every word already in the
reader's language; the phone draws the picture with its own fonts, so the server needs none.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TypedDict

from flask import render_template
from flask.typing import ResponseReturnValue
from flask_babel import format_date, gettext, ngettext, to_user_timezone

from ..games import AnyGame, get_game
from ..games.errors import fill
from ..games.standings import places
from ..i18n import rule_label, rule_value
from ..models import GameSession
from ..services.fallen import fallen
from ..services.review import NIGHT_ENDS
from ..services.round_stream import result_parts
from ..services.statistics_shapes import Record
from . import bp
from .helpers import stored_or_404
from .stats import record_name


class Row(TypedDict):
    """One line of the card's standings: the place, the name, the points, a winner or not."""

    place: str
    name: str
    value: str
    winner: bool


class CardData(TypedDict):
    """What card.js draws and shares (docs/API.md, "The result card")."""

    file: str
    title: str
    subtitle: str
    rows: list[Row]
    facts: list[str]
    footer: str
    text: str


@bp.get("/sessions/<int:session_id>/card")
def result_card(session_id: int) -> ResponseReturnValue:
    """Show a session's result card, with the buttons that share it as a picture or as text."""
    session = stored_or_404(session_id)
    game = get_game(session.game)
    card = card_data(session, game)
    return render_template("card.html", session=session, game=game, card=card)


def card_data(session: GameSession, game: AnyGame) -> CardData:
    """Return the card of a session in the reader's language."""
    rows = standings(session)
    details = [part for part in (when_played(session), playing_time(session)) if part]
    location = (getattr(session, "location", None) or "").strip()
    if location:
        details.append(location)
    rules = preset_line(session, game)
    subtitle = " · ".join(details)
    facts = [*highlights(session, game), *records_fell(session)]
    footer = ngettext(
        "refapp · session %(id)d · %(num)d round",
        "refapp · session %(id)d · %(num)d rounds",
        session.round_count,
        id=session.id,
    )
    title = gettext(game.title)
    if session.name:
        title = f"{title} · {session.name}"
    head = [title, subtitle, rules]
    return {
        "file": f"refapp-{game.slug}-{session.id}-{day(session)}.png",
        "title": title,
        "subtitle": " · ".join(part for part in (subtitle, rules) if part),
        "rows": rows,
        "facts": facts,
        "footer": footer,
        "text": plain_text(head, rows, facts, footer),
    }


def standings(session: GameSession) -> list[Row]:
    """Return the standings, leader first (ties in seat order); the winners marked once the
    session counts (finished, or idle 12 hours) with a round played."""
    players = session.players
    totals = {name: int(session.totals.get(name, 0)) for name in players}
    placed = places(players, totals)
    decided = session.round_count > 0 and (session.finished or session.counted)
    order = sorted(players, key=lambda name: placed[name])
    return [
        {
            "place": str(placed[name]),
            "name": name,
            "value": str(totals[name]),
            "winner": decided and placed[name] == 1,
        }
        for name in order
    ]


def moment(session: GameSession) -> datetime:
    """Return when the session was played: its first round (its creation before any), UTC."""
    at = session.first_round_at or session.created_at
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def evening(session: GameSession) -> datetime:
    """Return the moment whose day is the session's night, as the year in review counts nights:
    a session begun before NIGHT_ENDS in the morning belongs to the evening before."""
    return moment(session) - NIGHT_ENDS


def when_played(session: GameSession) -> str:
    """Return the session's night as the reader's language writes it."""
    return str(format_date(evening(session), "long"))


def day(session: GameSession) -> str:
    """Return the session's night for a file name (YYYY-MM-DD, the app's time zone)."""
    return str(to_user_timezone(evening(session)).date().isoformat())


def playing_time(session: GameSession) -> str:
    """Return the playing time in words, as the session page says it ("" before any)."""
    minutes = session.played_seconds // 60
    if not session.played_seconds:
        return ""
    if minutes >= 60:
        return str(
            gettext(
                "Playing time: %(hours)s h %(minutes)s min",
                hours=minutes // 60,
                minutes=minutes % 60,
            )
        )
    return str(gettext("Playing time: %(minutes)s min", minutes=minutes))


def preset_line(session: GameSession, game: AnyGame) -> str:
    """Return the house rules' preset and the changes from it, as the session page says them."""
    key = session.preset or game.default_preset
    chosen = next((preset for preset in game.presets if preset.key == key), None)
    if chosen is None:
        return ""
    label = gettext(chosen.label)
    changed = game.rules_changed(session.rules, key)
    if not changed:
        return str(gettext("Preset %(preset)s, no changes", preset=label))
    rules = game.house_rules(session.rules)
    options = [option for option in game.options if option.key in changed]
    changes = ", ".join(f"{rule_label(o)} → {rule_value(o, rules[o.key])}" for o in options)
    return str(
        ngettext(
            "Preset %(preset)s, with %(num)d change: %(changes)s",
            "Preset %(preset)s, with %(num)d changes: %(changes)s",
            len(changed),
            preset=label,
            changes=changes,
        )
    )


def highlights(session: GameSession, game: AnyGame) -> list[str]:
    """Return the night's highlights in the reader's language, read from its stored rounds (the
    parts the game names, a batch of rounds at a time)."""
    told = game.highlights
    if not told.keys or not session.round_count:
        return []
    rounds = result_parts(session.id, told.keys, session.round_count)
    return [fill(template, params) for template, params in told.find(rounds)]


def records_fell(session: GameSession) -> list[str]:
    """Return the records the session set that still stand, once it counts, in words."""
    if not (session.finished or session.counted):
        return []
    return [record_words(record) for record in fallen(session)]


def record_words(record: Record) -> str:
    """Return one record that fell as a sentence."""
    where = gettext("round %(n)d", n=record["round"]) if record["round"] is not None else ""
    said = gettext(
        "New record: %(record)s, %(value)s by %(player)s",
        record=record_name(record),
        value=record["value"],
        player=record["player"],
    )
    return f"{said} ({where})" if where else str(said)


def plain_text(head: list[str], rows: list[Row], facts: list[str], footer: str) -> str:
    """Return the card as plain text, for a chat that takes no picture."""
    return "\n".join(text_lines(head, rows, facts, footer))


def text_lines(head: list[str], rows: list[Row], facts: list[str], footer: str) -> Iterator[str]:
    """Yield the plain text's lines: the head, the standings, the highlights, the footer."""
    yield from (line for line in head if line)
    yield ""
    for row in rows:
        mark = " 🏆" if row["winner"] else ""
        yield f"{row['place']}. {row['name']} {row['value']}{mark}"
    if facts:
        yield ""
        yield from (f"• {fact}" for fact in facts)
    yield ""
    yield footer
