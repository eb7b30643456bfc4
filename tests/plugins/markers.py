"""Decides which marked tests run here (markers are declared in pyproject.toml).

- `postgres`: skipped unless the database is PostgreSQL (DATABASE_URL=postgres://...).
- `celery_worker`: skipped unless TICHU_CELERY_WORKER=1 (see tests/plugins/celery_worker.py).
- `faults`: skipped unless TICHU_FAULT_TESTS=1 (`make test-faults`, tests/faults/conftest.py);
  there, a missing redis-server or PostgreSQL binary fails the test in CI (tests/faults/instances.py).
- `deploy`: skipped unless TICHU_DEPLOY_TESTS=1 (`make test-deploy`, tests/deploy/test_stack.py); there,
  a missing nginx, openssl or PostgreSQL binary fails the test in CI.
- `browser`: skipped unless Chromium and Playwright are present; in CI (CI=true) their absence
  fails the test instead, so that a broken install cannot pass as a run of skips.

Also the option `--db-tests-only`, used by `make test-postgres`: it deselects the tests that
cannot touch the database (no `django_db` mark, no database or live_server fixture; pytest-django
blocks database access in every other test), since on a second database they would only repeat
the SQLite run. The pure engine and ratings tests are most of the suite's time.

Registered by `-p tests.plugins.markers` in pyproject's addopts, with the fixture plugins.
"""

import os

import pytest

from tests.plugins import celery_worker
from tests.plugins.browser import chromium_missing_reason

DB_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}


def pytest_addoption(parser):
    parser.addoption(
        "--db-tests-only",
        action="store_true",
        help="deselect tests that use no database (for the run on a second database)",
    )


def uses_database(item) -> bool:
    return bool(
        item.get_closest_marker("django_db")
        or item.get_closest_marker("postgres")
        or DB_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--db-tests-only"):
        return
    deselected = [item for item in items if not uses_database(item)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if uses_database(item)]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def database_vendor() -> str:
    from django.db import connection

    return connection.vendor


def pytest_report_header(config):
    browser = chromium_missing_reason() or "chromium present"
    worker = f"on ({celery_worker.REDIS_URL})" if celery_worker.ENABLED else "off (TICHU_CELERY_WORKER!=1)"
    return [f"tichu: database {database_vendor()}; celery worker tests {worker}; browser: {browser}"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and database_vendor() != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    if item.get_closest_marker("faults") and os.environ.get("TICHU_FAULT_TESTS") != "1":
        pytest.skip("a fault test (private servers it stops and restarts): TICHU_FAULT_TESTS=1, see make test-faults")
    if item.get_closest_marker("deploy") and os.environ.get("TICHU_DEPLOY_TESTS") != "1":
        pytest.skip(
            "the deploy test (private servers, nginx, a fresh venv): TICHU_DEPLOY_TESTS=1, see make test-deploy"
        )
    if item.get_closest_marker("celery_worker") and not celery_worker.ENABLED:
        pytest.skip("needs a Celery worker on Redis (TICHU_CELERY_WORKER=1, see make test-celery)")
    if item.get_closest_marker("browser"):
        reason = chromium_missing_reason()
        if reason and in_ci():
            pytest.fail(f"browser test cannot run in CI: {reason}", pytrace=False)
        if reason:
            pytest.skip(reason)
