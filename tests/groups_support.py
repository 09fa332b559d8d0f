"""Two groups on one server, each with its sessions, players and saved rules (the groups tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .conftest import turn

SERVER = {"X-Server-Password": "server pw"}
PLAYERS = {
    "alpha": ("Ann", "Ben", "Cy", "Dee", "Eli"),
    "beta": ("Fay", "Gus", "Hal", "Ida", "Jo"),
}


@dataclass
class Group:
    """A group made for a test: its prefix, passwords, and the ids and names it holds."""

    slug: str
    password: str
    organizer: str
    sessions: dict[str, int] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    rule_set: str = ""
    #: a season of the group's, and a public view of its Dixit session (its id and token)
    season: str = ""
    view_id: int = 0
    view_token: str = ""
    #: the group's address prefix (None: /g/<slug>)
    prefix_path: str | None = None

    @property
    def prefix(self) -> str:
        """Return the group's address prefix."""
        return f"/g/{self.slug}" if self.prefix_path is None else self.prefix_path

    def headers(self, organizer: bool = True) -> dict[str, str]:
        """Return the headers of a write (the organizer's, or the table password's)."""
        if not self.organizer:
            return {}
        if organizer:
            return {"X-Organizer-Password": self.organizer}
        return {"X-Table-Password": self.password}


def make_group(client, slug: str) -> Group:
    """Make a group through the API and fill it: a session of each game, a round, saved rules."""
    group = Group(slug, f"{slug} table", f"{slug} organizer", players=PLAYERS[slug])
    body = {
        "name": slug.title(),
        "slug": slug,
        "password": group.password,
        "organizer_password": group.organizer,
    }
    made = client.post("/api/groups", json=body, headers=SERVER)
    assert made.status_code == 201, made.get_json()
    names = list(group.players)
    for game, seated in (("dixit", names[:4]), ("mighty", names), ("dalmuti", names[:4])):
        group.sessions[game] = create(client, group, game, seated)
    dixit = group.sessions["dixit"]
    recorded = client.post(
        f"{group.prefix}/api/sessions/{dixit}/rounds",
        json=turn(names[0], names[:4]),
        headers=group.headers(),
    )
    assert recorded.status_code == 201, recorded.get_json()
    group.rule_set = f"{slug} rules"
    saved = client.put(
        f"{group.prefix}/api/rule-sets/{group.rule_set}",
        json={"game": "dixit", "rules": {"target_score": 20}},
        headers=group.headers(),
    )
    assert saved.status_code in (200, 201), saved.get_json()
    group.season = f"{slug} season"
    named = client.put(
        f"{group.prefix}/api/seasons/{group.season}",
        json={"from": "2026-01-01", "to": "2026-12-31"},
        headers=group.headers(),
    )
    assert named.status_code == 201, named.get_json()
    viewed = client.post(
        f"{group.prefix}/api/sessions/{dixit}/public-view", headers=group.headers()
    )
    assert viewed.status_code == 201, viewed.get_json()
    view = viewed.get_json()["public_view"]
    group.view_id, group.view_token = view["id"], view["url"].rstrip("/").rsplit("/", 1)[-1]
    return group


def create(client, group: Group, game: str, players: list[str], **extra: Any) -> int:
    """Create a session in the group and return its id."""
    response = client.post(
        f"{group.prefix}/api/sessions",
        json={"game": game, "players": players, **extra},
        headers=group.headers(),
    )
    assert response.status_code == 201, response.get_json()
    session_id: int = response.get_json()["id"]
    return session_id


def two_groups(app, client) -> tuple[Group, Group]:
    """Turn groups on (a server password) and make groups alpha and beta."""
    app.config["SERVER_PASSWORD"] = "server pw"
    return make_group(client, "alpha"), make_group(client, "beta")
