"""The server's groups: made and listed with the server password, a group's table password
changed by its organizer (its devices signed out), and a session archived by it."""

from __future__ import annotations

import re
import secrets
import string
import unicodedata
from typing import TypedDict

from sqlalchemy import func, select

from .. import club
from ..extensions import db
from ..games.errors import Conflict, MalformedInput, quote
from ..group_models import Group
from ..models import GameSession, Player, utcnow
from ..sign_ins import forget_group_sign_ins
from . import writes
from .values import character_name, has_control, invisible_character, shows

GROUP_NAME_MAX = 60
PASSWORD_MAX = 200
#: the join code's letters (no look-alikes) and length
CODE_LETTERS = "".join(c for c in string.ascii_lowercase + string.digits if c not in "01ilo")
CODE_LENGTH = 10


class Listed(TypedDict):
    """A group as ``GET /api/groups`` lists it."""

    slug: str
    name: str
    sessions: int
    players: int


def group_name(raw: object) -> str:
    """Return a group's name trimmed and NFC (1..60 printable characters), or refuse it."""
    if raw is None:
        raise MalformedInput("missing_field", "A group needs a name.", "name")
    text = unicodedata.normalize("NFC", raw.strip()) if isinstance(raw, str) else None
    if text is None or not text or has_control(text) or len(text) > GROUP_NAME_MAX:
        raise MalformedInput(
            "invalid_value",
            "A group's name is text of 1 to {most} printable characters, not {value}.",
            "name",
            most=GROUP_NAME_MAX,
            value=quote(raw),
        )
    hidden = invisible_character(text)
    if hidden is not None:  # a name must show what it holds, as a player's must
        raise MalformedInput(
            "invalid_value",
            "A group's name may not hold {char}, which shows as nothing; {value} does.",
            "name",
            char=character_name(hidden),
            value=quote(raw),
        )
    if not any(shows(char) for char in text):
        raise MalformedInput(
            "invalid_value",
            "A group's name needs a letter, digit or sign that shows; {value} has none.",
            "name",
            value=quote(raw),
        )
    return text


def group_slug(raw: object, name: str) -> str:
    """Return the slug asked for (1-40 of a-z, 0-9 and -), or one made from the name."""
    if raw is None:
        made = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
        return made or "group-" + secrets.token_hex(3)
    if not isinstance(raw, str) or club.SLUG.fullmatch(raw) is None:
        raise MalformedInput(
            "invalid_value",
            "A group's slug is 1 to 40 of a-z, 0-9 and -, not {value}.",
            "slug",
            value=quote(raw),
        )
    return raw


def password_of(raw: object, field: str, *, needed: bool) -> str | None:
    """Return a password given in a body (None: none given and none needed), or refuse it."""
    if raw is None and not needed:
        return None
    if raw is None:
        raise MalformedInput("missing_field", "Send the {name}.", field, name=field)
    if not isinstance(raw, str) or not raw or len(raw) > PASSWORD_MAX or has_control(raw):
        raise MalformedInput(
            "invalid_value",
            "A password is 1 to {most} printable characters, not {value}.",
            field,
            most=PASSWORD_MAX,
            value=quote(raw),
        )
    return raw


@writes.transaction()
def create_group(body: dict[str, object]) -> Group:
    """Make a group (``group_exists`` when its slug is taken), with a fresh join code."""
    name = group_name(body.get("name"))
    slug = group_slug(body.get("slug"), name)
    password = password_of(body.get("password"), "password", needed=False)
    organizer = password_of(body.get("organizer_password"), "organizer_password", needed=True)
    if exists(slug):
        raise Conflict("group_exists", "There is a group {value} already.", "slug", value=slug)
    group = Group(
        slug=slug,
        name=name,
        password_digest=club.hashed(password) if password else None,
        organizer_digest=club.hashed(organizer) if organizer else None,
        join_code="".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH)),
        created_at=utcnow(),
    )
    db.session.add(group)
    writes.commit(Conflict("group_exists", "There is a group {value} already.", "slug", value=slug))
    return group


def list_groups() -> list[Listed]:
    """Return every group with its sessions and players counted, in slug order."""
    sessions = dict(
        db.session.execute(select(GameSession.group_id, func.count()).group_by("group_id")).all()
    )
    players = dict(
        db.session.execute(select(Player.group_id, func.count()).group_by("group_id")).all()
    )
    return [
        {
            "slug": group.slug,
            "name": group.name,
            "sessions": int(sessions.get(group.id, 0)),
            "players": int(players.get(group.id, 0)),
        }
        for group in db.session.scalars(select(Group).order_by(Group.slug))
    ]


def exists(slug: str) -> bool:
    """Return True when a group has this slug."""
    return db.session.scalar(select(Group.id).where(Group.slug == slug)) is not None


def group_by_code(code: str) -> Group | None:
    """Return the group whose join code this is (None: none)."""
    if not code or len(code) > CODE_LENGTH * 2:
        return None
    return db.session.scalars(select(Group).where(Group.join_code == code)).one_or_none()


@writes.transaction()
def change_password(raw: object) -> None:
    """Give this request's group a new table password (None: none), ending its sign-ins; the
    default group's password is the server's configuration (PASSWORD), not changed here."""
    group = club.current_group()
    if group is None:
        raise MalformedInput(
            "invalid_value",
            "The default group's password is the server's REFAPP_PASSWORD setting.",
            "password",
            value=quote(raw),
        )
    password = password_of(raw, "password", needed=False)
    digest = club.hashed(password) if password else None
    group.password_digest = digest
    forget_group_sign_ins(group.id)
    writes.commit()


@writes.transaction()
def set_archived(session_id: object, archived: object) -> GameSession:
    """Archive a session of this group (out of the lists, in the statistics) or bring it back."""
    session = writes.lock_session(session_id)  # another group's: 404 before anything else
    if not isinstance(archived, bool):
        raise MalformedInput(
            "invalid_value", "archived is true or false, not {value}.", "archived",
            value=quote(archived),
        )  # fmt: skip
    if session.archived != archived:
        session.archived = archived
        session.version += 1  # its pages, kept by version, show it (and phones see a change)
    writes.commit()
    return session
