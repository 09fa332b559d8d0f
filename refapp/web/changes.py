"""The audit trail in plain words: what changed in a session, when, and from what to what."""

from __future__ import annotations

import json
from typing import Any

from ..games.base import Game


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """Return {input path: leaf value}; list items are numbered from 1 like the field paths."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        items = ((str(index), item) for index, item in enumerate(value, 1))
    else:
        return {path: value} if path else {}
    flat: dict[str, Any] = {}
    for key, item in items:
        flat.update(flatten(item, f"{path}.{key}" if path else str(key)))
    return flat


def shown(value: Any) -> str:
    """Write a stored value briefly, as a player would read it."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(shown(item) for item in value) or "nothing"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def differences(game: Game, before: Any, after: Any) -> list[str]:
    """Describe each input path whose value changed: "Dee's vote: 3 → 2"."""
    old, new = flatten(before or {}), flatten(after or {})
    lines = []
    for path in [*old, *(p for p in new if p not in old)]:
        if old.get(path) != new.get(path):
            lines.append(
                f"{game.describe_path(path)}: {shown(old.get(path))} → {shown(new.get(path))}"
            )
    return lines


def describe_entry(game: Game, entry: dict[str, Any]) -> tuple[str, list[str]]:
    """Return the headline of an audit entry and its details."""
    action, number = entry["action"], entry["round"]
    before, after = entry["before"], entry["after"]
    if action == "create_session":
        players = ", ".join((after or {}).get("players", []))
        return f"Session started with {players}.", []
    if action == "record_round":
        return f"Round {number} recorded.", []
    if action == "replace_round":
        return f"Round {number} corrected.", differences(game, before, after) or ["no change"]
    if action == "delete_round":
        return f"Round {number} undone.", [
            f"{game.describe_path(path)} was {shown(value)}"
            for path, value in flatten(before or {}).items()
        ]
    if action == "finish_session":
        winners = ", ".join((after or {}).get("winners", []))
        return f"Session finished; winners: {winners or 'nobody'}.", []
    if action == "rename_player":
        return f"Player renamed: {(before or {}).get('name')} → {(after or {}).get('name')}.", []
    return action.replace("_", " ").capitalize() + ".", differences(game, before, after)
