"""A session's house rules from a preset or a table's saved rule set, and the saved sets.

A saved set ("Friday club") keeps a preset and the options it changes; a session made from it
(or from a preset) stores the effective rules, so a later change to the set never changes it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..games import get_game
from ..games.errors import NotFound, RuleViolation, quote
from ..games.game import Game
from ..games.inputs import mapping
from ..games.options import rules_object
from ..models import GameSession, RuleSet
from . import writes
from .values import has_control

RULE_SET_NAME_MAX = 60


def session_rules(game: Game, body: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Return a new session's effective rules and preset: the saved set or preset, then rules.

    ``rule_set`` names a saved set (its preset and changes), ``preset`` a preset; the body's own
    ``rules`` win over either.
    """
    preset, base = body.get("preset"), {}
    if body.get("rule_set") is not None:
        saved = find_rule_set(body["rule_set"], "rule_set")
        if saved.game != game.slug:
            raise RuleViolation(
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
    rules = game.resolve_rules(overrides, chosen.key if chosen else None)
    return rules, chosen.key if chosen else None


def preset_of(session: GameSession) -> str | None:
    """Return the preset a session's rules started from (the game's default for old sessions)."""
    return session.preset or get_game(session.game).default_preset


# -- the saved sets -------------------------------------------------------------------------


def rule_set_name(raw: Any, where: str = "name") -> str:
    """Return a saved set's name trimmed and NFC (1..60 printable characters), or raise."""
    name = unicodedata.normalize("NFC", raw.strip()) if isinstance(raw, str) else None
    if name is None or not 1 <= len(name) <= RULE_SET_NAME_MAX or has_control(name):
        raise RuleViolation(
            "missing_field" if raw is None else "invalid_value",
            "A name for saved house rules has 1 to {most} printable characters, not {value}.",
            where,
            most=RULE_SET_NAME_MAX,
            value=quote(raw),
        )
    return name


def find_rule_set(raw: Any, where: str = "name") -> RuleSet:
    """Return the saved set of that name, or raise ``not_found``."""
    name = rule_set_name(raw, where)
    found = db.session.scalars(select(RuleSet).where(RuleSet.name == name)).one_or_none()
    if found is None:
        raise NotFound("There are no saved house rules called {value}.", where, value=quote(name))
    return found


def rule_set_dict(saved: RuleSet) -> dict[str, Any]:
    """Return a saved set as the API shows it."""
    return {"name": saved.name, "game": saved.game, "preset": saved.preset, "rules": saved.rules}


def list_rule_sets() -> list[dict[str, Any]]:
    """Return every saved set, by game and name."""
    found = db.session.scalars(select(RuleSet).order_by(RuleSet.game, RuleSet.name))
    return [rule_set_dict(saved) for saved in found]


def save_rule_set(raw_name: Any, body: Any) -> RuleSet:
    """Create or replace a saved set; its rules are checked as a session's would be."""
    name = rule_set_name(raw_name)
    body = mapping(body, "body")
    game = get_game(body.get("game"))
    chosen = game.preset(body.get("preset"))
    overrides = dict(rules_object(body.get("rules")))
    game.resolve_rules(overrides, chosen.key if chosen else None)  # refuses a bad option
    saved = db.session.scalars(select(RuleSet).where(RuleSet.name == name)).one_or_none()
    if saved is None:
        saved = RuleSet(name=name, game=game.slug)
        db.session.add(saved)
    saved.game, saved.preset, saved.rules = game.slug, chosen.key if chosen else None, overrides
    writes.commit(
        RuleViolation("stale_round", "Another device saved rules under this name; try again.")
    )
    return saved


def delete_rule_set(raw_name: Any) -> None:
    """Delete a saved set; sessions made from it keep their rules."""
    db.session.delete(find_rule_set(raw_name))
    writes.commit()


def checked_rule_sets(raw: Any) -> list[RuleSet]:
    """Return a backup's saved sets checked like new ones (unsaved), or raise naming the first."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleViolation(
            "invalid_value", "rule_sets must be a list, not {value}.", "rule_sets", value=quote(raw)
        )
    checked = []
    for index, item in enumerate(raw):
        where = f"rule_sets.{index}"
        entry = mapping(item, where)
        name = rule_set_name(entry.get("name"), f"{where}.name")
        game = get_game(entry.get("game"))
        chosen = game.preset(entry.get("preset"))
        overrides = dict(rules_object(entry.get("rules")))
        game.resolve_rules(overrides, chosen.key if chosen else None)
        checked.append(
            RuleSet(
                name=name, game=game.slug, preset=chosen.key if chosen else None, rules=overrides
            )
        )
    return checked


def add_missing_rule_sets(checked: list[RuleSet]) -> None:
    """Add restored saved sets whose names are free (a set already here is kept as it is)."""
    taken = set(db.session.scalars(select(RuleSet.name)))
    for saved in checked:
        if saved.name not in taken:
            db.session.add(saved)
            taken.add(saved.name)
