"""Flask commands: whole-database backup and restore."""


def register(app) -> None:
    """Add refapp's commands to the app's CLI."""
