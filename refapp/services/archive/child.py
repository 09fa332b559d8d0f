"""The child process of an import done apart (``apart``): ``python -m`` this module.

It reads its job (pickled by the server that started it) on stdin, imports the body it names and
writes what came of it, pickled, on stdout; nothing else is written there.
"""

from __future__ import annotations

import logging
import pickle
import sys

from .apart import child


def main() -> None:
    """Do the job given on stdin; write its outcome on stdout."""
    logging.basicConfig(level=logging.WARNING)
    answer = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed meanwhile must not mix with the answer
    job = pickle.loads(sys.stdin.buffer.read())  # from the server that started this process
    outcome = child(*job)
    answer.write(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
    answer.flush()


if __name__ == "__main__":
    main()
