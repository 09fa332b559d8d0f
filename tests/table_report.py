"""Print what each kind of round costs at the table: ``python -m tests.table_report``.

One line per kind, ``<game> <kind>: taps=N typed=N scrolls=N seconds=S``, measured in headless
Chromium at 390x844 against a fresh server (the same drivers the browser tests hold to targets),
each kind on the page a table has just after recording the round before it (the banner shown):
tests/table_drive.py's ``open_session``. Several languages add `` [lang]`` to each line.
"""

from __future__ import annotations

import logging
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from .browser_support import CHROMIUM, FLAGS, Phone, serve
from .table_rounds import KINDS


def main(languages: list[str]) -> None:
    """Drive every kind of round in each language and print its counts."""
    logging.getLogger("waitress").setLevel(logging.ERROR)  # its queue notes are not figures
    with tempfile.TemporaryDirectory() as folder:
        server = serve(Path(folder), WTF_CSRF_ENABLED=True)
        base, _app = next(server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for lang in languages:
                for drive in KINDS.values():
                    phone = Phone(browser, base)
                    count, _session = drive(phone, lang)
                    suffix = f" [{lang}]" if len(languages) > 1 else ""
                    print(count.line() + suffix, flush=True)
                    phone.page.close()
            browser.close()
        next(server, None)  # the server stops after its yield


if __name__ == "__main__":
    main(sys.argv[1:] or ["en"])
