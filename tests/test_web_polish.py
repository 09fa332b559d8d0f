"""Small polish, through the test client: the installable app, cached static files, the chart's
legend, and a finished Dixit session without a next storyteller."""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

from .conftest import SEED_TURN


def get(client, path: str):
    """Fetch a static file, read it and close it (its file stays open otherwise)."""
    response = client.get(path)
    response.get_data()
    response.close()
    return response


def png_size(data: bytes) -> tuple[int, int]:
    """Return a PNG's width and height from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_served_as_json_with_its_icons(client):
    response = get(client, "/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data())
    assert manifest["name"] == "refapp" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = set()
    for icon in manifest["icons"]:
        image = get(client, icon["src"])
        assert image.status_code == 200 and image.mimetype == icon["type"] == "image/png"
        width, height = png_size(image.get_data())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes


def test_every_page_links_the_manifest_and_the_icons(client):
    page = client.get("/").get_data(as_text=True)
    manifest = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert manifest and touch
    assert manifest.group(1).startswith("/static/manifest.webmanifest?v=")
    assert get(client, touch.group(1)).status_code == 200
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}"', page)


def test_static_files_are_cached_for_a_day(client):
    for path in ("/static/style.css", "/static/table.js", "/static/icons/icon-192.png"):
        response = get(client, path)
        assert response.status_code == 200
        assert response.cache_control.max_age == 86400, path
    # pages are not: they show the table as it stands
    assert client.get("/").cache_control.max_age is None


def test_static_addresses_carry_their_content_version(client, app):
    page = client.get("/").get_data(as_text=True)
    script = re.search(r'<script src="/static/live\.js\?v=([0-9a-f]{10})"', page)
    assert script, "live.js is not addressed by its content"
    body = (Path(app.static_folder) / "live.js").read_bytes()
    assert script.group(1) == hashlib.sha256(body).hexdigest()[:10]
    assert get(client, f"/static/live.js?v={script.group(1)}").status_code == 200


def test_the_legend_samples_are_small_svgs(client, api):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    swatches = re.findall(r'<svg width="24" height="8" viewBox="0 0 24 8" class="swatch"', page)
    assert len(swatches) == 4
    assert page.count('class="series-0"') == 2  # the line and its sample


def test_a_finished_dixit_session_has_no_next_storyteller(client, api):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    assert "Next storyteller" in client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "finished" in page and "Next storyteller" not in page
    assert "Target" in page  # the rest of the status stays
