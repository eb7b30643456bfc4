# Set-up and test entry points; see README.md. Two commands do everything on a fresh machine:
#   make run    the service on the embedded default (SQLite, Celery in-process, demo games)
#   make test   the suite on SQLite, again on PostgreSQL, then the tests that need a real
#               Celery worker on Redis, then the fault tests (private servers they stop)
# Both create .venv and install the project (pip install -e '.[dev]') when needed.

PYTHON   ?= python3
VENV     ?= .venv
PY       := $(VENV)/bin/python
ADDR     ?= 127.0.0.1:8000
PG_URL   ?= postgres://postgres@127.0.0.1:5432/tichu
# The PostgreSQL stage runs only the tests that use the database (tests/plugins/markers.py): the
# others cannot differ from the SQLite run. PG_PYTEST_ARGS= runs the whole suite there again.
PG_PYTEST_ARGS ?= --db-tests-only
# The PostgreSQL stages connect as the app's least-privilege role, as production does
# (docs/deploy.md): PG_URL is the owner's URL (it creates and migrates the test database and
# grants the role its rights, tests/plugins/db_roles.py), PG_APP_URL the app role's.
PG_APP_ROLE ?= tichu_app
PG_APP_URL ?= $(subst ://postgres@,://$(PG_APP_ROLE)@,$(PG_URL))
PG_ENV = DATABASE_URL='$(PG_APP_URL)' DATABASE_OWNER_URL='$(PG_URL)'
# Extra pytest arguments for every stage, e.g. make test PYTEST_ARGS='-x -k replay'
PYTEST_ARGS ?=

# The service's environment variables (tichu_site/settings.py). Each test stage sets its own, so
# that a DATABASE_URL left in a developer's shell cannot turn the SQLite run into something else.
SERVICE_ENV_VARS := DATABASE_URL DATABASE_OWNER_URL CELERY_BROKER_URL CELERY_RESULT_BACKEND CELERY_TASK_ALWAYS_EAGER CACHE_URL TICHU_CELERY_WORKER
CLEAN_ENV := env $(addprefix -u ,$(SERVICE_ENV_VARS))

# How `make test` runs its stages: the SQLite stage beside the PostgreSQL and Celery stages (one
# after the other: they share the PostgreSQL test database), the fault stage last and alone (it
# stops and starts servers and measures heartbeats, so it gets the machine to itself).
# TEST_JOBS=1 runs all of them one after the other.
TEST_JOBS ?= 2
.PHONY: compile run test lint test-sqlite test-postgres test-celery test-faults test-database-stages \
	test-postgres-then-celery install install-prod pgdb clean bench test-browser-slow test-deploy

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -e '.[dev]'
	touch $@

# The compiled build (mypyc_build.py, docs/speed.md): the engine's hot modules compiled with mypyc
# to extension modules beside their sources, rebuilt when one of them (or the list) is newer than
# the build's manifest. Without a C compiler it says so and the pure Python source runs (same
# results, slower); with CI set that fails. The engine refuses to import a compiled module older
# than its source ("run make compile"); TICHU_PURE_PYTHON=1 runs the source.
COMPILED_SOURCES := $(shell $(PYTHON) mypyc_build.py --sources 2>/dev/null)
COMPILED_MANIFEST := games/engine/compiled.json

$(COMPILED_MANIFEST): $(COMPILED_SOURCES) mypyc_build.py | $(VENV)/.installed
	$(PY) mypyc_build.py

compile: $(VENV)/.installed
	$(PY) mypyc_build.py

install: $(VENV)/.installed $(COMPILED_MANIFEST)

# The production install (docs/deploy.md): the project and its runtime dependencies only, none of
# pyproject's [dev] tools (pytest, Playwright, mypy, ruff...). Editable, because the templates,
# the catalogues and the static files stay beside the packages in the checkout (settings'
# BASE_DIR), which is what the service runs from:
#   make install-prod VENV=/srv/tichu/venv
# Then the compiled build: pyproject's `compile` extra (mypy, whose mypyc compiles, and setuptools)
# goes into a directory of its own for the build only and is removed after it, so the service's
# virtualenv holds no development tool (tests/deploy checks).
COMPILE_TOOLS = $(VENV)/compile-tools
install-prod:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -e .
	rm -rf $(COMPILE_TOOLS)
	$(PY) -m pip install --disable-pip-version-check -q --target $(COMPILE_TOOLS) \
		$$($(PY) -c "import tomllib; print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['compile']))")
	PYTHONPATH=$(COMPILE_TOOLS) $(PY) mypyc_build.py
	rm -rf $(COMPILE_TOOLS)

# Uses the environment as it is: DATABASE_URL=postgres://... make run runs on PostgreSQL (the
# database is created if missing), CELERY_BROKER_URL=redis://... sends tasks to a worker.
run: install
	@case "$$DATABASE_URL" in postgres*) $(PY) .ci/ensure_pg_db.py;; esac
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver $(ADDR)

# Each stage's output is printed whole when it ends (--output-sync), so parallel stages do not
# interleave; the first failing stage fails `make test` once the stages beside it have ended.
test: lint
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-database-stages
	@$(MAKE) --no-print-directory test-faults
	@$(MAKE) --no-print-directory test-deploy

test-database-stages: test-sqlite test-postgres-then-celery

test-postgres-then-celery:
	@$(MAKE) --no-print-directory test-postgres
	@$(MAKE) --no-print-directory test-celery

# A few seconds, first: all code and tests linted (`ruff check --fix` sorts imports) and formatted
# (`ruff format games replay tichu_site tests bench manage.py` fixes it), the engine, the tournament core, the stream store, the
# services and the selectors type-checked (pyproject.toml [tool.mypy]), and the architecture's
# import contracts (pyproject.toml [tool.importlinter], docs/architecture.md) kept.
LINTED := games replay tichu_site tests bench
lint: install
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED) manage.py
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

# pytest's exit 5 (no test collected) is not a failure of the stage; every other non-zero exit is.
# $(1): stage name, $(2): environment, $(3): pytest arguments
define pytest
	@echo "=== pytest: $(1) ==="
	@$(2) $(PY) -m pytest $(3) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest ($(1)): no tests collected, exit 5 taken as success"; rc=0; fi; \
	exit $$rc
endef

test-sqlite: install
	$(call pytest,SQLite,$(CLEAN_ENV),)

pgdb: install
	@$(CLEAN_ENV) DATABASE_URL='$(PG_URL)' $(PY) .ci/ensure_pg_db.py

test-postgres: pgdb
	$(call pytest,PostgreSQL (as $(PG_APP_ROLE)),$(CLEAN_ENV) $(PG_ENV),$(PG_PYTEST_ARGS))

# tests/plugins/celery_worker.py points the test process and the worker at Redis
# (TICHU_TEST_REDIS_URL, default redis://127.0.0.1:6379/15) and the worker at the test database.
test-celery: pgdb
	$(call pytest,Celery worker on Redis (as $(PG_APP_ROLE)),$(CLEAN_ENV) $(PG_ENV) TICHU_CELERY_WORKER=1,-m celery_worker)

# tests/faults/: a worker killed with rating tasks queued, Redis stopped during finishing appends,
# PostgreSQL restarted under a worker. Each test starts its own Redis and PostgreSQL (redis-server,
# initdb/pg_ctl; as root they run as the postgres user) on free ports, never the shared ones.
# The browser tests with every page's scripts 4x slower (tests/plugins/browser.py): a test that
# reads a page before its script or a navigation has finished fails here, as on a loaded CI machine.
test-browser-slow: install
	$(call pytest,browser tests with slow scripts,$(CLEAN_ENV) TICHU_BROWSER_SLOWDOWN=4,-m browser)

test-faults: install
	$(call pytest,fault tests,$(CLEAN_ENV) TICHU_FAULT_TESTS=1,tests/faults -m faults)

# tests/deploy/test_stack.py: docs/deploy.md followed with the deploy/ files on private servers
# (a PostgreSQL and a Redis of its own, a fresh venv from `make install-prod`, gunicorn, the
# worker, beat, nginx with a self-signed certificate), a browser through HTTPS, then a backup and
# a restore into a fresh database. Needs nginx and openssl (.ci/run installs them).
test-deploy: install
	$(call pytest,deploy test,$(CLEAN_ENV) TICHU_DEPLOY_TESTS=1,tests/deploy -m deploy)

clean:
	test ! -x $(PY) || $(PY) mypyc_build.py --clean
	rm -rf $(VENV) .pytest_cache db.sqlite3

# Every benchmark in turn (README "Benchmarks"), each one command that prints its ratio to a
# baseline of the same run; bench/api.py, bench/tournament.py (its night over the API) and the
# bulk imports need PostgreSQL and Redis, bench/scale.py (an archive grown to 10^6 events) PostgreSQL.
# bench/import.py compares with frohlfing/tichu when
# FROHLFING_TICHU and FROHLFING_PYTHON name it (docs/speed.md), and says so when they do not.
bench: install
	$(CLEAN_ENV) $(PY) bench/engine.py
	$(CLEAN_ENV) $(PY) bench/import.py
	$(CLEAN_ENV) $(PY) bench/api.py
	$(CLEAN_ENV) $(PY) bench/replay.py
	$(CLEAN_ENV) $(PY) bench/jsi18n.py
	$(CLEAN_ENV) $(PY) bench/ratings.py
	$(CLEAN_ENV) $(PY) bench/tournament.py
	$(CLEAN_ENV) $(PY) bench/league.py
	$(CLEAN_ENV) $(PY) bench/bulk_import.py
	$(CLEAN_ENV) $(PY) bench/bulk_import_cpu.py
	$(CLEAN_ENV) $(PY) bench/online.py
	$(CLEAN_ENV) $(PY) bench/scale.py
