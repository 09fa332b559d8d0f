"""A group's backup as its organizer downloads it (the API's ``/api/backup`` and the page's
``/backup``): what ``flask backup --group`` writes, streamed."""

from __future__ import annotations

from flask import Response, stream_with_context

from . import club
from .services.archive import backups
from .services.archive.large_answers import large_answer


def backup_download() -> Response:
    """Return the request's group's backup as a JSON download, streamed in chunks (one of the
    process's few places for large answers: ``large_answers``, else ``503 busy``)."""
    with large_answer() as slot:
        found = club.current_group()
        filename = f"refapp-{found.slug if found is not None else 'default'}-backup.json"
        return Response(
            slot.hold(stream_with_context(backups.backup_chunks())),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )
