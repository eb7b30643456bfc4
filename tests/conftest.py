"""Shared fixtures for the API and event-store tests.

The suite runs on SQLite by default and on PostgreSQL with DATABASE_URL=postgres://... (the
`postgres` marker is handled in tests/plugins/markers.py).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import snapshots
from games.models import Club, Membership
from tests.plugins import db_roles as db_roles_mode

# --- The app-role test mode (tests/plugins/db_roles.py) -----------------------------------------


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings):
    """The test database is created and migrated by the owner, as in production."""
    if db_roles_mode.app_role_mode():
        db_roles_mode.use_owner()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """...then the owner grants the app role its rights, and the tests connect as the app role
    (the owner again to drop the test database at the end)."""
    if not db_roles_mode.app_role_mode():
        yield
        return
    from django.db import connection

    with django_db_blocker.unblock():
        db_roles_mode.grant_app_role(connection)
    db_roles_mode.use_app()
    yield
    db_roles_mode.use_owner()


@pytest.fixture
def as_owner():
    """For tests that run migrations themselves (DDL): in the app-role mode the default
    connection logs in as the owner for the test, as `manage.py migrate` does."""
    if not db_roles_mode.app_role_mode():
        yield
        return
    db_roles_mode.use_owner()
    try:
        yield
    finally:
        db_roles_mode.use_app()


# --- end app-role test mode ---------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Snapshots and throttle counters live in the cache; no test sees another's."""
    cache.clear()
    snapshots.forget_local()
    yield
    cache.clear()
    snapshots.forget_local()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db):
    def make(username: str, **extra):
        user = get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)
        Token.objects.create(user=user)
        return user

    return make


@pytest.fixture
def make_club(db):
    def make(slug: str, visibility: str = Club.Visibility.PUBLIC, **members):
        """members: role=User, e.g. make_club("c", admin=ann, scorer=ben)."""
        club = Club.objects.create(name=slug.title(), slug=slug, visibility=visibility)
        for role, user in members.items():
            Membership.objects.create(club=club, user=user, role=role)
        return club

    return make


def client_for(user=None, token: str | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        token = Token.objects.get(user=user).key
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def scorer(make_user):
    return make_user("scorer")


@pytest.fixture
def club(make_club, scorer):
    club = make_club("home")
    Membership.objects.create(club=club, user=scorer, role=Membership.Role.SCORER)
    return club


@pytest.fixture
def scorer_client(scorer):
    return client_for(scorer)


def pytest_sessionstart(session):
    """In CI the shared corpus must be there: its ~100 tests never skip quietly (tests/corpus.py)."""
    from tests.corpus import CORPUS, IN_CI, MISSING

    if IN_CI and not CORPUS.is_dir():
        raise pytest.UsageError(f"CI=true and {MISSING}: CI keeps the corpus beside the clone")


def pytest_sessionfinish(session):
    """The SQLite test database is a file in WAL mode (tichu_site/settings.py): Django removes
    the file, and the test server's threads, still connected then, leave its -wal and -shm
    beside it."""
    from pathlib import Path

    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        name = Path(database.get("TEST", {}).get("NAME") or "")
        for sidecar in (name.with_name(name.name + "-wal"), name.with_name(name.name + "-shm")):
            if name.name and not name.exists():
                sidecar.unlink(missing_ok=True)
