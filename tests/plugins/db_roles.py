"""The app-role test mode: tests connect as the app's least-privilege role (docs/deploy.md).

`make test-postgres` and `make test-celery` set DATABASE_URL to the app role's URL and
DATABASE_OWNER_URL to the owner's, as production does. Then (tests/conftest.py):

1. pytest-django creates and migrates the test database as the owner (`use_owner()` around its
   `django_db_setup`), and the owner grants the app role its rights there (games/db_roles.py);
2. every test, the live server and the Celery worker then connect as the app role
   (`use_app()`), so the API's append path runs with exactly the production rights;
3. what only the owner may do in a test run goes through `owner_connection()`: pytest-django's
   flush after transactional tests (tests/plugins/append_only_flush.py) and the owner's side of
   tests/api/test_db_roles.py; and the test database is dropped as the owner.

Without DATABASE_OWNER_URL (the SQLite stage, or a plain DATABASE_URL=postgres://postgres@...)
nothing changes.
"""

from __future__ import annotations

from contextlib import contextmanager

from games import db_roles

_app_credentials: dict | None = None  # the app role's USER and PASSWORD, read before any switch


def _read_app_credentials() -> dict | None:
    """Once, before the default alias is switched to the owner: the app role's credentials, or
    None outside the app-role mode."""
    global _app_credentials
    from django.conf import settings

    if _app_credentials is None:
        default = settings.DATABASES["default"]
        mode = default["ENGINE"] == "django.db.backends.postgresql" and db_roles.app_role_name() is not None
        _app_credentials = {"USER": default["USER"], "PASSWORD": default["PASSWORD"]} if mode else {}
    return _app_credentials or None


def app_role_mode() -> bool:
    return _read_app_credentials() is not None


def app_role() -> str:
    return _read_app_credentials()["USER"]


def _switch_default_to(source: dict) -> None:
    from django.db import connections

    connections.close_all()
    target = connections["default"].settings_dict
    target["USER"], target["PASSWORD"] = source["USER"], source["PASSWORD"]


def use_owner() -> None:
    """Connect the default alias as the owner from now on."""
    from django.db import connections

    _read_app_credentials()
    _switch_default_to(connections[db_roles.OWNER_ALIAS].settings_dict)


def use_app() -> None:
    """Connect the default alias as the app role again."""
    if app_role_mode():
        _switch_default_to(_app_credentials)


def grant_app_role(connection) -> None:
    """The owner (on `connection`) creates the app role if needed and grants it its rights."""
    db_roles.grant(connection, app_role(), create=True, password=_app_credentials["PASSWORD"])


@contextmanager
def owner_connection():
    """A private connection to the test database as the owner, in one transaction committed at
    the end. Private, under an alias of its own: Django's test cases forbid the `owner` alias to
    tests that did not ask for it, and this must work in any test's teardown."""
    from django.db import connections
    from django.db.utils import load_backend

    settings_dict = connections.settings[db_roles.OWNER_ALIAS]  # NAME: the test database (mirror)
    connection = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, "tichu_test_owner")
    try:
        connection.set_autocommit(False)
        yield connection
        connection.commit()
    except BaseException:
        if connection.connection is not None:
            connection.rollback()
        raise
    finally:
        connection.close()
