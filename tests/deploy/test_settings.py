"""Production settings by environment (tichu_site/settings.py, docs/deploy.md): `check --deploy`
passes with no warning in production, and development is only the embedded default."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A production environment of the least that `check --deploy` needs (docs/deploy.md); the static
# files are collected once for the module (collected_static below).
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "tichu.example.org",
    "EMAIL_URL": "smtp://tichu:secret@mail.example.org:587",
}


@pytest.fixture(scope="module", autouse=True)
def collected_static(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    result = manage("collectstatic", "--noinput", DJANGO_STATIC_ROOT=str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    PRODUCTION["DJANGO_STATIC_ROOT"] = str(root)
    yield root


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh process with only `env` of the settings' variables set."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_", "CACHE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_passes_with_no_warning_in_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_the_development_default_is_what_check_deploy_warns_about():
    result = manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    for warning in ("W004", "W008", "W009", "W012", "W016", "W018"):  # HSTS, SSL, key, cookies, DEBUG
        assert f"security.{warning}" in result.stderr, warning


def test_each_https_setting_has_its_variable():
    variables = {
        "DJANGO_SECURE_HSTS_SECONDS": ("0", "W004"),
        "DJANGO_SECURE_SSL_REDIRECT": ("0", "W008"),
        "DJANGO_SESSION_COOKIE_SECURE": ("0", "W012"),
        "DJANGO_CSRF_COOKIE_SECURE": ("0", "W016"),
        "DJANGO_DEBUG": ("1", "W018"),
    }
    env = {**PRODUCTION, **{name: value for name, (value, _) in variables.items()}}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode != 0
    for _name, (_value, warning) in variables.items():
        assert f"security.{warning}" in result.stderr, warning


def test_debug_off_without_a_secret_key_refuses_to_start():
    result = manage("check", DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "set DJANGO_SECRET_KEY" in result.stderr


def test_check_deploy_warns_when_mail_would_go_to_the_console():
    env = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_URL"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode != 0
    assert "tichu.W001" in result.stderr and "EMAIL_URL" in result.stderr
    assert "tichu.W002" not in result.stderr and "tichu.W003" not in result.stderr


def test_check_deploy_warns_behind_a_proxy_header_without_the_trusted_proxy_count():
    behind = {**PRODUCTION, "DJANGO_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **behind)
    assert result.returncode != 0 and "tichu.W002" in result.stderr
    for count in ("1", "0"):  # any explicit choice is the operator's, 0 included
        result = manage("check", "--deploy", "--fail-level", "WARNING", **behind, TICHU_TRUSTED_PROXIES=count)
        assert result.returncode == 0, result.stderr


def test_check_deploy_warns_when_static_files_are_not_collected(tmp_path):
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, "DJANGO_STATIC_ROOT": str(tmp_path)}
    )
    assert result.returncode != 0 and "tichu.W003" in result.stderr and "collectstatic" in result.stderr


def test_check_deploy_warns_when_a_collected_file_is_missing(collected_static):
    victim = collected_static / "site" / "site.css"
    kept = victim.read_bytes()
    victim.unlink()
    try:
        result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    finally:
        victim.write_bytes(kept)
    assert result.returncode != 0 and "1 static files are not in STATIC_ROOT" in result.stderr


def test_a_trusted_proxy_count_that_is_not_a_count_refuses_to_start():
    result = manage("check", **PRODUCTION, TICHU_TRUSTED_PROXIES="yes")
    assert result.returncode != 0 and "TICHU_TRUSTED_PROXIES" in result.stderr
