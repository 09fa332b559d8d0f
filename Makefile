# The two commands a newcomer needs: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUM    := $(shell cksum pyproject.toml | cut -d' ' -f1)
# make run installs only what running needs; make test adds the test tools
STAMP  := $(VENV)/.installed-$(SUM)
TOOLS  := $(VENV)/.tools-$(SUM)
HOST   ?= 127.0.0.1
# not 5000: macOS's AirPlay receiver already listens there
PORT   ?= 8000
# processes make run serves with (refapp/serving/serve.py: RUN_WORKERS)
RUN_WORKERS ?= 2
export FLASK_APP := refapp

.PHONY: install run migrate test test-fast test-pg lint format bench screens golden clean translations compile table-report
CATALOGS := $(wildcard refapp/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
# the rules' and forms' translatable strings: gettext, lazy labels, RuleViolation(code, template),
# explanation sentences (Account.say) and house-rule descriptions
KEYWORDS := -k _l -k lazy_gettext -k N_ -k RuleViolation:2 -k MalformedInput:2 -k NotFound:1 -k Conflict:2 -k AccessDenied:2 -k say:1 -k RuleOption:4 -k _choice:3 -k _flag:3 -k _cost:3 -k _bad:2

$(STAMP): pyproject.toml
	@echo "First start: making .venv and installing refapp's packages (a minute or two)..."
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	rm -f $(VENV)/.installed-*
	touch $@

$(TOOLS): $(STAMP)
	@echo "Installing the test tools (pytest, hypothesis, ruff, mypy, Playwright)..."
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.tools-*
	touch $@

install: $(STAMP) $(COMPILED)

# compiled with Babel's writer: pybabel compile's format check wrongly refuses a one-form plural
# (Korean) that names the count; tests/test_i18n.py checks the placeholders instead
refapp/translations/%/LC_MESSAGES/messages.mo: refapp/translations/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/python -c "import sys; from babel.messages.pofile import read_po; from babel.messages.mofile import write_mo; write_mo(open(sys.argv[2], 'wb'), read_po(open(sys.argv[1], 'rb')))" $< $@

# re-extract the English strings and merge them into the ko and hu catalogs
translations: $(TOOLS)
	$(BIN)/pybabel --quiet extract -F babel.cfg $(KEYWORDS) --no-location --sort-output -o refapp/translations/messages.pot .
	$(BIN)/pybabel --quiet update -N --no-wrap --ignore-obsolete -i refapp/translations/messages.pot -d refapp/translations

compile: $(COMPILED)

migrate: $(STAMP) $(COMPILED)
	$(BIN)/flask db upgrade
	$(BIN)/flask rebuild-figures --if-stale

# waitress with limits for a shared Wi-Fi (refapp/serving/serve.py): slow clients, huge bodies
run: migrate
	@echo "refapp on http://$(HOST):$(PORT)/"
	$(BIN)/python -m refapp.serving.serve --host=$(HOST) --port=$(PORT) --workers=$(RUN_WORKERS)

# a club server: WORKERS processes (gunicorn, Unix only), best on PostgreSQL (DATABASE_URL).
# gunicorn's threads read requests themselves, so a few clients sending slowly hold them all:
# keep it on 127.0.0.1 behind nginx (docs/nginx-refapp.conf, docs/deployment.md)
.PHONY: serve-club
WORKERS ?= 4
# several hosts on one PostgreSQL (docs/deployment.md, "Several hosts"): none migrates at its
# start (make migrate once per deploy); flask hosts refuses a start on a database not migrated
serve-club: $(STAMP) $(COMPILED)
	@hosts=$$($(BIN)/flask hosts) || exit $$?; \
	if [ "$$hosts" = one ]; then $(MAKE) --no-print-directory migrate; \
	else echo "several hosts share this database: not migrating at start (make migrate, once per deploy)"; fi
	@echo "refapp on http://$(HOST):$(PORT)/ ($(WORKERS) worker processes): put nginx in front (docs/deployment.md)"
	$(BIN)/gunicorn --workers=$(WORKERS) --worker-class=gthread --threads=4 --keep-alive=5 \
		--bind=$(HOST):$(PORT) 'refapp:served_app()'

# pytest on both cores (pytest-xdist): a file whose tests share one server or browser stays in one
# process (tests/conftest.py); Chromium's tests run there too (their checks are sizes, words and
# taps, not times). The tests marked serial hold timing bars a second process would break, so
# they run alone afterwards; make test reports both runs in full and fails if either failed
PARALLEL := -n 2 --dist loadgroup

test: $(TOOLS) $(COMPILED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	status=0; \
	$(BIN)/python -m pytest -m "not serial" $(PARALLEL) || status=$$?; \
	$(BIN)/python -m pytest -m "serial" || status=$$?; \
	exit $$status

# the quick loop while working (README.md): rules, services, API and pages on SQLite on both
# cores, stopping at the first failure; not Chromium's tests, not the timing bars (serial), not
# the tests that wait on servers, child processes or lock timeouts (waits), and at most a few
# examples per property test (--quick, tests/conftest.py): make test runs them all
test-fast: $(TOOLS) $(COMPILED)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not layout and not browser and not serial and not waits" $(PARALLEL) --quick -x

# the suite again on PostgreSQL: TEST_DATABASE_URL=postgresql://user:pass@host/db make test-pg
# runs the tests that reach its database (tests/conftest.py), each rolled back at its end; with
# -n PG_WORKERS each worker has a database of its own, <db>_gw0, <db>_gw1 (made if the user may;
# .ci/run makes them), PG_WORKERS=0 runs in one process on <db> alone. Not the browser tests:
# their live server runs on SQLite whatever the suite's database
PG_WORKERS ?= 2
test-pg: $(TOOLS) $(COMPILED)
	@test -n "$(TEST_DATABASE_URL)" || (echo "set TEST_DATABASE_URL to an empty PostgreSQL database"; exit 2)
	status=0; \
	$(BIN)/python -m pytest -m "not layout and not browser and not serial" -n $(PG_WORKERS) --dist loadgroup || status=$$?; \
	$(BIN)/python -m pytest -m "serial and not layout and not browser" || status=$$?; \
	exit $$status

lint: $(TOOLS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(TOOLS)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# figures, not tests: reads and writes beside floor B (bare Flask + sqlite3 on a copy of the
# database) and the ratios it must stay within; the long session's pages; a player's page; the
# longest corrections; a record and a correction with the statistics kept beside the same writes
# without them and beside refapp before them (the bar: 1.5x); a club night against live servers with each one's headroom
# (SQLite, and PostgreSQL when BENCH_DATABASE_URL names a database it may empty; BENCH_LONG=1
# runs longer); then the memory of each game's largest import, alone and three at once, with
# polls meanwhile
bench: $(STAMP)
	$(BIN)/python bench/read_session.py
	$(BIN)/python bench/read_pages.py
	$(BIN)/python bench/player_page.py
	$(BIN)/python bench/longest_write.py
	$(BIN)/python bench/record_parts.py
	$(BIN)/python bench/statistics_cost.py
	BENCH_DATABASE_URL="$(BENCH_DATABASE_URL)" $(BIN)/python bench/club_night.py
	BENCH_DATABASE_URL="$(BENCH_DATABASE_URL)" $(BIN)/python bench/club_night.py --push
	$(BIN)/python bench/import_memory.py

# what a round costs at the table, per kind (taps, characters typed, searches off-screen, the
# model's seconds), measured in headless Chromium at phone size; LANGS="en ko hu" for three
table-report: $(TOOLS) $(COMPILED)
	$(BIN)/python -m tests.table_report $(LANGS)

# the README's screenshots: each game's session page, phone and laptop, light and dark; the
# result card and the year in review at phone size
screens: $(TOOLS) $(COMPILED)
	$(BIN)/python docs/screens/take.py
	$(BIN)/python docs/screens/take_card.py
	$(BIN)/python docs/screens/take_review.py

golden:
	python3 tests/golden/run_golden.py http://$(HOST):$(PORT) tests/golden/*.json

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
