"""The deploy/ files a sysadmin copies (docs/deploy.md): the environment template names every
variable the settings read, and the units run as the unprivileged user with beat's schedule
outside the checkout. (tests/deploy/test_stack.py runs them.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SETTINGS_SOURCES = [ROOT / "tichu_site" / "settings.py", ROOT / "tichu_site" / "email_env.py"]
# read by settings, but not for a production environment file
NOT_FOR_PRODUCTION = {"EMAIL_BACKEND"}  # email_env's escape hatch; EMAIL_URL is the setting
# read without its name in the sources: dj_database_url.config() reads DATABASE_URL
IMPLICIT = {"DATABASE_URL"}


def variables_read() -> set[str]:
    names = set()
    for source in SETTINGS_SOURCES:
        text = source.read_text()
        names |= set(re.findall(r"""(?:environ(?:\.get)?|env\.get|env_bool)\(\s*["']([A-Z][A-Z0-9_]+)["']""", text))
        names |= set(re.findall(r"""(?:environ|env)\[["']([A-Z][A-Z0-9_]+)["']\]""", text))
    return (names | IMPLICIT) - NOT_FOR_PRODUCTION


def test_the_environment_template_names_every_variable_the_settings_read():
    template = (DEPLOY / "tichu.env").read_text() + (DEPLOY / "owner.env").read_text()
    listed = set(re.findall(r"^#?([A-Z][A-Z0-9_]+)=", template, re.M))
    read = variables_read()
    assert len(read) > 30, read  # the reading of the settings works
    assert read - listed == set(), "deploy/tichu.env lacks these variables of tichu_site/settings.py"
    assert listed - read == set(), "deploy/tichu.env names variables the settings do not read"


def test_the_running_service_never_gets_the_owners_url():
    assert "DATABASE_OWNER_URL=" not in (DEPLOY / "tichu.env").read_text()


def test_each_unit_runs_as_the_unprivileged_user_from_the_environment_file():
    for unit in ("tichu-web", "tichu-worker", "tichu-beat"):
        text = (DEPLOY / "systemd" / f"{unit}.service").read_text()
        assert "\nUser=tichu\n" in text and "\nGroup=tichu\n" in text, unit
        assert "\nEnvironmentFile=/etc/tichu/tichu.env\n" in text, unit
        assert "journalctl -u " + unit in text, unit  # where its log is


def test_beat_keeps_its_schedule_outside_the_checkout():
    text = (DEPLOY / "systemd" / "tichu-beat.service").read_text()
    assert "--schedule /var/lib/tichu-beat/celerybeat-schedule" in text
    assert "StateDirectory=tichu-beat" in text
