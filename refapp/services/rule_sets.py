"""A session's house rules from a preset or a table's saved rule set, and the saved sets.

A saved set ("Friday club") keeps a preset and the options it changes; a session made from it
(or from a preset) stores the effective rules, so a later change to the set never changes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TypedDict

from sqlalchemy import func, select, text
from sqlalchemy.sql.elements import ColumnElement

from ..club import current_group_id
from ..extensions import db
from ..games import get_game
from ..games.errors import Conflict, MalformedInput, NotFound, RuleViolation, quote
from ..games.game import AnyGame
from ..games.inputs import mapping
from ..games.options import RuleValue, rules_object
from ..models import RuleSet
from . import writes
from .rows import SessionLike
from .values import shown_name

RULE_SET_NAME_MAX = 60
#: the most saved sets a table keeps (``too_many_rule_sets``): a club has a handful, and at 100
#: the list (API and page) stays small and quick. Read as ``rule_sets.MAX_RULE_SETS`` where it
#: is checked, so a test may lower it in one place.
MAX_RULE_SETS = 100
#: the most characters a saved set's rules take as JSON (``invalid_rules``). The game's options
#: already bound their keys and most values; this also bounds the few whole numbers that have
#: no maximum. Every option of the largest game (Mighty) given takes about 800.
RULES_MAX_CHARS = 2_000
#: the PostgreSQL advisory lock that makes counting and adding saved sets one writer's turn
RULE_SETS_LOCK = 0x52554C45


def session_rules(
    game: AnyGame, body: Mapping[str, object], seats: int | None = None
) -> tuple[dict[str, RuleValue], str | None]:
    """Return a new session's effective rules and preset: the saved set or preset, then rules.

    ``rule_set`` names a saved set (its preset and changes), ``preset`` a preset; the body's own
    ``rules`` win over either; an option neither gives takes its default for ``seats`` players.
    """
    preset, base = body.get("preset"), {}
    if body.get("rule_set") is not None:
        saved = find_rule_set(body["rule_set"], "rule_set")
        if saved.game != game.slug:
            raise MalformedInput(
                "invalid_rules",
                "The saved rules {value} are for {other}, not {game_t}.",
                "rule_set",
                value=quote(saved.name),
                other=saved.game,
                game_t=game.title,
            )
        preset = saved.preset if preset is None else preset
        base = dict(saved.rules)
    overrides = body.get("rules")
    if overrides is not None:
        overrides = {**base, **rules_object(overrides)}
    elif base:
        overrides = base
    chosen = game.preset(preset)
    rules = game.resolve_rules(overrides, chosen.key if chosen else None, seats=seats)
    return rules, chosen.key if chosen else None


def preset_of(session: SessionLike) -> str | None:
    """Return the preset a session's rules started from (the game's default for old sessions)."""
    return session.preset or get_game(session.game).default_preset


# -- the saved sets -------------------------------------------------------------------------


def rule_set_name(raw: object, where: str = "name") -> str:
    """Return a saved set's name trimmed and NFC (1..60 printable characters), or raise."""
    name = shown_name(raw, RULE_SET_NAME_MAX)
    if name is None:
        raise MalformedInput(
            "missing_field" if raw is None else "invalid_value",
            "A name for saved house rules has 1 to {most} printable characters, not {value}.",
            where,
            most=RULE_SET_NAME_MAX,
            value=quote(raw),
        )
    return name


def in_group() -> ColumnElement[bool]:
    """Return the condition that keeps a query to this request's group's saved sets."""
    return RuleSet.group_id == current_group_id()


def find_rule_set(raw: object, where: str = "name") -> RuleSet:
    """Return the saved set of that name, or raise ``not_found``."""
    name = rule_set_name(raw, where)
    found = db.session.scalars(
        select(RuleSet).where(RuleSet.name == name, in_group())
    ).one_or_none()
    if found is None:
        raise NotFound("There are no saved house rules called {value}.", where, value=quote(name))
    return found


def rule_set_tag(saved: RuleSet | None) -> str:
    """Return a saved set's strong entity tag: it changes whenever the set does ("" for none)."""
    if saved is None:
        return ""
    content = [saved.id, saved.name, saved.game, saved.preset, saved.rules]
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()
    return f"r{saved.id}-{digest[:16]}"


def check_expected(saved: RuleSet | None, name: str, expected: writes.Precondition | None) -> None:
    """Refuse a write to a saved set that is not the one the client saw (``If-Match``)."""
    if expected is not None and not expected.matches(rule_set_tag(saved)):
        raise Conflict(
            "stale_tag",
            "This device saw {value} of the saved house rules {name}, which have changed since "
            "(or are gone): another device saved or deleted them. Reload and try again.",
            "If-Match",
            value=expected.shown(),
            name=quote(name),
        )


class SavedRules(TypedDict):
    """A saved set as the API, the pages and a backup show it."""

    name: str
    game: str
    preset: str | None
    #: each changed house rule's value (a number, a word, a flag or a list of them)
    rules: dict[str, object]


def rule_set_dict(saved: RuleSet) -> SavedRules:
    """Return a saved set as the API shows it."""
    return {"name": saved.name, "game": saved.game, "preset": saved.preset, "rules": saved.rules}


def list_rule_sets() -> list[SavedRules]:
    """Return every saved set, by game and name."""
    found = db.session.scalars(
        select(RuleSet).where(in_group()).order_by(RuleSet.game, RuleSet.name)
    )
    return [rule_set_dict(saved) for saved in found]


@writes.transaction()
def save_rule_set(
    raw_name: object, body: object, *, expected: writes.Precondition | None = None
) -> RuleSet:
    """Create or replace a saved set; its rules are checked as a session's would be.

    A new name is refused (``too_many_rule_sets``) when the table keeps MAX_RULE_SETS already;
    with ``expected`` (If-Match), a set that is not the one the client saw is ``stale_tag``.
    """
    name = rule_set_name(raw_name)
    body = mapping(body, "body")
    game = get_game(body.get("game"))
    preset, overrides = checked_rules(game, body.get("preset"), body.get("rules"), "rules")
    take_rule_sets()
    saved = db.session.scalars(
        select(RuleSet).where(RuleSet.name == name, in_group())
    ).one_or_none()
    check_expected(saved, name, expected)
    if saved is None:
        refuse_one_more(1, name, "name")
        saved = RuleSet(name=name, game=game.slug, group_id=current_group_id())
        db.session.add(saved)
    saved.game, saved.preset, saved.rules = game.slug, preset, overrides
    writes.commit(Conflict("lost_race", "Another device saved rules under this name; try again."))
    return saved


@writes.transaction()
def rename_rule_set(raw_old: object, raw_new: object) -> RuleSet:
    """Give a saved set a new name in place (a taken name is refused); sessions keep theirs."""
    new = rule_set_name(raw_new)
    take_rule_sets()
    saved = find_rule_set(raw_old)
    if new != saved.name:
        taken = db.session.scalars(
            select(RuleSet.id).where(RuleSet.name == new, in_group())
        ).first()
        if taken is not None:
            raise MalformedInput(
                "invalid_value",
                "There are already saved house rules called {value}.",
                "name",
                value=quote(new),
            )
        saved.name = new
        writes.commit(
            Conflict("lost_race", "Another device saved rules under this name; try again.")
        )
    return saved


def checked_rules(
    game: AnyGame, raw_preset: object, raw_rules: object, where: str, *, stored: bool = False
) -> tuple[str | None, dict[str, object]]:
    """Return a set's preset key and its changes, checked by the game's options and the size.

    ``stored``: a set read back from a backup, which a check added later does not refuse.
    """
    chosen = game.preset(raw_preset)
    overrides = dict(rules_object(raw_rules))
    game.resolve_rules(overrides, chosen.key if chosen else None, stored=stored)  # bad option
    size = len(json.dumps(overrides, ensure_ascii=False))
    if size > RULES_MAX_CHARS:
        raise MalformedInput(
            "invalid_rules",
            "Saved house rules take at most {most} characters as JSON; these take {value}.",
            where,
            most=RULES_MAX_CHARS,
            value=size,
        )
    return (chosen.key if chosen else None), overrides


def take_rule_sets() -> None:
    """Make this write the only one counting and adding saved sets until it commits."""
    writes.begin_write()  # SQLite: one writer at a time
    if db.session.connection().dialect.name == "postgresql":
        db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RULE_SETS_LOCK})


def refuse_one_more(adding: int, name: str, where: str) -> None:
    """Refuse adding saved sets that would take the table past MAX_RULE_SETS."""
    kept = db.session.scalar(select(func.count()).select_from(RuleSet).where(in_group())) or 0
    if kept + adding > MAX_RULE_SETS:
        raise RuleViolation(
            "too_many_rule_sets",
            "The table keeps at most {most} saved house rules and has {kept}; delete some "
            "before adding {value}.",
            where,
            most=MAX_RULE_SETS,
            kept=kept,
            value=quote(name),
        )


@writes.transaction()
def delete_rule_set(raw_name: object, *, expected: writes.Precondition | None = None) -> None:
    """Delete a saved set (if it is the one the client saw); sessions made from it keep theirs."""
    take_rule_sets()
    saved = find_rule_set(raw_name)
    check_expected(saved, saved.name, expected)
    db.session.delete(saved)
    writes.commit()


def checked_rule_sets(raw: object) -> list[RuleSet]:
    """Return a backup's saved sets checked like new ones (unsaved), or raise naming the first."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise MalformedInput(
            "invalid_value", "rule_sets must be a list, not {value}.", "rule_sets", value=quote(raw)
        )
    if len(raw) > MAX_RULE_SETS:
        raise RuleViolation(
            "too_many_rule_sets",
            "A table keeps at most {most} saved house rules; the backup holds {value}.",
            "rule_sets",
            most=MAX_RULE_SETS,
            value=len(raw),
        )
    checked = []
    for index, item in enumerate(raw):
        where = f"rule_sets.{index}"
        entry = mapping(item, where)
        name = rule_set_name(entry.get("name"), f"{where}.name")
        game = get_game(entry.get("game"))
        preset, overrides = checked_rules(
            game, entry.get("preset"), entry.get("rules"), f"{where}.rules", stored=True
        )
        saved = RuleSet(name=name, game=game.slug, preset=preset, rules=overrides)
        saved.group_id = current_group_id()
        checked.append(saved)
    return checked


def add_missing_rule_sets(checked: list[RuleSet]) -> None:
    """Add restored saved sets whose names are free (a set already here is kept as it is).

    Refused (``too_many_rule_sets``) when the sets added would take the table past the maximum.
    """
    take_rule_sets()
    taken = set(db.session.scalars(select(RuleSet.name).where(in_group())))
    missing: dict[str, RuleSet] = {}
    for saved in checked:
        if saved.name not in taken:
            missing.setdefault(saved.name, saved)
    if len(taken) + len(missing) > MAX_RULE_SETS:
        raise RuleViolation(
            "too_many_rule_sets",
            "A table keeps at most {most} saved house rules: this one has {kept} and the "
            "backup would add {value}.",
            "rule_sets",
            most=MAX_RULE_SETS,
            kept=len(taken),
            value=len(missing),
        )
    db.session.add_all(missing.values())
