"""Children of an import done apart that fail at their worst moments, for test_import_apart.py.

``python -m tests.apart_children`` reads its job as ``refapp.services.archive.child`` does, then,
as ``REFAPP_TEST_CHILD`` says: ``killed`` imports and is killed (SIGKILL) before it answers;
``stopped`` stops itself (SIGSTOP) before it does anything; ``stored-then-stopped`` imports and
stops before it answers. A stopped child waits for the server's time limit to kill it.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys

from refapp.services.archive.child import child


def main() -> None:
    """Do the job given on stdin the way ``REFAPP_TEST_CHILD`` says; never answer."""
    how = os.environ.get("REFAPP_TEST_CHILD", "")
    job = pickle.loads(sys.stdin.buffer.read())  # from the test's own server
    if how == "stopped":
        os.kill(os.getpid(), signal.SIGSTOP)
    outcome = child(*job)
    assert outcome[0] == "stored", outcome
    os.kill(os.getpid(), signal.SIGKILL if how == "killed" else signal.SIGSTOP)


if __name__ == "__main__":
    main()
