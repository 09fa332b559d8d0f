"""Session exports (JSON and CSV), imports that replay every round, whole-database backups.

Callers use the modules (``exports``, ``imports``, ``backups``); the names below are here for
reading. A test patches a name in the module that owns it (``imports.IMPORT_MAX_BYTES``).
"""

from ..limits import AUDIT_MAX
from .backups import Restored, RestoreRefused, backup, restore
from .checks import DEPTH_MAX
from .exports import cell, export, export_session
from .imports import IMPORT_MAX_BYTES, ROUND_BYTES, import_session

__all__ = [
    "AUDIT_MAX",
    "DEPTH_MAX",
    "IMPORT_MAX_BYTES",
    "ROUND_BYTES",
    "RestoreRefused",
    "Restored",
    "backup",
    "cell",
    "export",
    "export_session",
    "import_session",
    "restore",
]
