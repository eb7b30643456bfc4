"""Production settings by environment (tichu_site/settings.py, docs/deploy.md): `check --deploy`
passes with no warning in production, and development is only the embedded default."""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "tichu.example.org",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh process with only `env` of the settings' variables set."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_", "CACHE_"))}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120)


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
