"""docs/deploy.md followed with the deploy/ files, on servers of the test's own (`make test-deploy`).

A private PostgreSQL (the two roles created by the SQL of docs/deploy.md) and a private Redis on
free ports; a fresh virtualenv from `make install-prod`; the environment file, gunicorn's
settings, the three systemd units and the nginx site taken from deploy/ with only their paths,
ports, host name and secrets substituted (SUBSTITUTIONS), never rewritten by hand; `migrate`
(as the owner), `collectstatic`, `check --deploy` and `create_admin` through deploy/manage.sh;
gunicorn, the Celery worker and beat started with their units' ExecStart, environment and working
directory; nginx ending TLS with a self-signed certificate. Then Chromium through HTTPS (sign in,
a game rated by the worker, its replay, a tournament round, no console error, no CSP violation),
a backup with pg_dump as the owner, a restore as the owner into a fresh database that takes the
old one's name, Redis emptied, the services restarted, and the same pages again, equal.

Runs as root in CI: the services then run as root (systemd's User= is not applied here).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.faults.instances import PrivatePostgres, PrivateRedis, free_port, require, wait_until

pytestmark = [pytest.mark.deploy, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOCS = ROOT / "docs" / "deploy.md"
UNITS = ("tichu-web.service", "tichu-worker.service", "tichu-beat.service")
ADMIN, ADMIN_PASSWORD, CLUB = "admin", "deploy-" + secrets.token_hex(8), "Deploy Club"
SIGNIN_LIMIT = 5
APP_PASSWORD, OWNER_PASSWORD = "app-" + secrets.token_hex(8), "owner-" + secrets.token_hex(8)
# What a sysadmin would keep: nothing of the test's own environment reaches the services.
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "PIP_CACHE_DIR", "PIP_INDEX_URL", "PIP_NO_INPUT", "CI")


def documented_sql() -> list[str]:
    """The statements of docs/deploy.md's block that creates the roles and the database."""
    blocks = re.findall(r"```sql\n(.*?)```", DOCS.read_text(), re.S)
    block = next(b for b in blocks if "CREATE ROLE tichu_owner" in b)
    lines = [line.split("--", 1)[0] for line in block.splitlines()]
    return [s.strip() for s in " ".join(lines).split(";") if s.strip()]


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=value lines, as systemd's EnvironmentFile= and `set -a; .` read them."""
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def set_env_values(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text, count = re.subn(rf"^#?{key}=.*$", f"{key}={value}", text, flags=re.M)  # a default uncommented
        assert count == 1, f"deploy/tichu.env has no single {key}= line"
    return text


def unit_service(text: str) -> dict[str, str]:
    section, found = None, {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found[key] = value
    return found


@dataclass
class Site:
    base: Path
    pg: PrivatePostgres
    redis: PrivateRedis
    https_port: int
    http_port: int
    web_port: int
    subs: dict[str, str]
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"https://localhost:{self.https_port}"

    def substitute(self, text: str) -> str:
        for old, new in self.subs.items():
            text = text.replace(old, new)
        # the test machine may have no IPv6: the [::] listeners go
        return "\n".join(line for line in text.splitlines() if "listen [::]" not in line) + "\n"

    def manage(self, *args: str, extra: dict | None = None, timeout: float = 600) -> str:
        env = {k: v for k, v in os.environ.items() if k in KEPT_ENV}
        env.update(
            {
                "TICHU_ENV_DIR": str(self.base / "etc"),
                "TICHU_APP": str(ROOT),
                "TICHU_VENV": str(self.base / "venv"),
                **(extra or {}),
            }
        )
        done = subprocess.run(
            [str(DEPLOY / "manage.sh"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, f"manage.sh {' '.join(args)}: {done.stdout}\n{done.stderr}"
        return done.stdout + done.stderr

    # -- the services, as their units start them -------------------------------------------------

    def start_unit(self, name: str) -> None:
        service = unit_service(self.substitute((DEPLOY / "systemd" / name).read_text()))
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "HOME")}
        env.update(read_env_file(Path(service["EnvironmentFile"])))
        env["PYTHONUNBUFFERED"] = "1"
        log = open(self.base / "log" / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(
            shlex.split(service["ExecStart"]),
            cwd=service["WorkingDirectory"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop_unit(self, name: str) -> None:
        process = self.processes.pop(name, None)
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)  # the units' KillSignal
            try:
                process.wait(40)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)

    def start_nginx(self, nginx: str) -> None:
        conf_dir = self.base / "nginx"
        conf_dir.mkdir(exist_ok=True)
        (conf_dir / "tichu.conf").write_text(self.substitute((DEPLOY / "nginx" / "tichu.conf").read_text()))
        temp = "\n".join(
            f"  {kind}_temp_path {conf_dir / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (conf_dir / "nginx.conf").write_text(
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"worker_processes 1;\npid {conf_dir / 'nginx.pid'};\nerror_log {self.base / 'log' / 'nginx.log'};\n"
            f"events {{ worker_connections 256; }}\nhttp {{\n  include /etc/nginx/mime.types;\n"
            f"  default_type application/octet-stream;\n{temp}\n  include {conf_dir / 'tichu.conf'};\n}}\n"
        )
        command = [nginx, "-p", str(conf_dir), "-c", str(conf_dir / "nginx.conf")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        log = open(self.base / "log" / "nginx.stdout.log", "ab")
        self.processes["nginx"] = subprocess.Popen(
            [*command, "-g", "daemon off;"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def start_services(self) -> None:
        for name in UNITS:
            self.start_unit(name)

    def stop_services(self) -> None:
        for name in UNITS:
            self.stop_unit(name)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted((self.base / "log").glob("*"))
        )

    # -- HTTP from outside ---------------------------------------------------------------------------

    def get(self, path: str, *, token: str | None = None, base: str | None = None):
        return self.request("GET", path, token=token, base=base)

    def request(
        self,
        method: str,
        path: str,
        body=None,
        *,
        token: str | None = None,
        base: str | None = None,
        headers: dict | None = None,
    ):
        """(status, headers, parsed JSON or text); redirects are not followed."""
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), NoRedirect())
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request((base or self.url) + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Token {token}")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with opener.open(req, timeout=30) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as err:
            status, headers, raw = err.code, err.headers, err.read()
        try:
            return status, headers, json.loads(raw)
        except ValueError:
            return status, headers, raw.decode(errors="replace")

    def wait_ready(self) -> dict:
        def ready():
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise AssertionError(f"{name} exited ({process.returncode}):\n{self.logs()}")
            try:
                status, _, body = self.get("/api/ready/")
            except OSError:
                return None
            return body if status == 200 else None

        try:
            return wait_until(ready, 120, "/api/ready/ through nginx", interval=0.5)
        except AssertionError:
            raise AssertionError(f"not ready: {self.get('/api/ready/')}\n{self.logs()}") from None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def site(tmp_path):
    nginx = require("nginx", "/usr/sbin/nginx")
    openssl = require("openssl")
    pg, redis = PrivatePostgres(), PrivateRedis()
    base = tmp_path
    for sub in ("etc", "log", "run", "beat", "tls", "www", "static"):
        (base / sub).mkdir()
    https_port, http_port, web_port = free_port(), free_port(), free_port()
    subs = {
        "/srv/tichu/app/deploy/gunicorn.conf.py": str(base / "gunicorn.conf.py"),
        "/srv/tichu/app": str(ROOT),
        "/srv/tichu/venv": str(base / "venv"),
        "/srv/tichu/static": str(base / "static"),
        "/etc/tichu": str(base / "etc"),
        "/run/tichu-web": str(base / "run"),
        "/var/lib/tichu-beat": str(base / "beat"),
        "/etc/letsencrypt/live/tichu.example.org": str(base / "tls"),
        "/var/log/nginx": str(base / "log"),
        "/var/www/html": str(base / "www"),
        "127.0.0.1:8000": f"127.0.0.1:{web_port}",
        "https://tichu.example.org": f"https://localhost:{https_port}",
        "tichu.example.org": "localhost",
        "listen 443 ssl": f"listen {https_port} ssl",
        "listen 80;": f"listen {http_port};",
    }
    built = Site(base, pg, redis, https_port, http_port, web_port, subs)
    try:
        pg.start()
        redis.start()
        subprocess.run(
            [
                openssl,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost",
                "-keyout",
                str(base / "tls" / "privkey.pem"),
                "-out",
                str(base / "tls" / "fullchain.pem"),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        yield built, nginx
    finally:
        for name in list(built.processes):
            built.stop_unit(name)
        redis.close()
        pg.close()


def install(site: Site) -> None:
    """docs/deploy.md: the production install, the environment files, the database, the schema."""
    started = time.monotonic()
    done = subprocess.run(
        ["make", "install-prod", f"VENV={site.base / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={k: v for k, v in os.environ.items() if k in KEPT_ENV},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"make install-prod: {time.monotonic() - started:.1f} s")
    listed = subprocess.run(
        [str(site.base / "venv" / "bin" / "python"), "-m", "pip", "list", "--format=json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    installed = {p["name"].lower() for p in json.loads(listed)}
    assert {"gunicorn", "celery", "django"} <= installed
    assert not installed & {"pytest", "playwright", "mypy", "ruff", "hypothesis"}, "development tools installed"

    import psycopg

    with psycopg.connect(site.pg.url("postgres"), autocommit=True) as conn:
        for statement in documented_sql():
            conn.execute(statement)  # trust authentication here: the documented passwords are not used

    pg_port = site.pg.port
    env_text = set_env_values(
        site.substitute((DEPLOY / "tichu.env").read_text()),
        {
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"postgres://tichu_app:{APP_PASSWORD}@127.0.0.1:{pg_port}/tichu",
            "CELERY_BROKER_URL": site.redis.url(0),
            "CELERY_RESULT_BACKEND": site.redis.url(0),
            "CACHE_URL": site.redis.url(1),
            "EMAIL_URL": f"smtp+plain://127.0.0.1:{free_port()}",  # nothing listens: no mail in this test
            "TICHU_SIGNIN_FAILURES_PER_ADDRESS": str(SIGNIN_LIMIT),  # reached at the end of the test
        },
    )
    (site.base / "etc" / "tichu.env").write_text(env_text)
    unfilled = [k for k, v in read_env_file(site.base / "etc" / "tichu.env").items() if "CHANGE-ME" in v]
    assert unfilled == [], "the template has values to fill in that docs/deploy.md does not name"
    owner_text = (
        (DEPLOY / "owner.env")
        .read_text()
        .replace(
            "postgres://tichu_owner:CHANGE-ME@127.0.0.1:5432/tichu",
            f"postgres://tichu_owner:{OWNER_PASSWORD}@127.0.0.1:{pg_port}/tichu",
        )
    )
    assert "CHANGE-ME" not in owner_text
    (site.base / "etc" / "owner.env").write_text(owner_text)
    (site.base / "gunicorn.conf.py").write_text(site.substitute((DEPLOY / "gunicorn.conf.py").read_text()))

    site.manage("migrate", "--noinput")
    site.manage("collectstatic", "--noinput")
    checked = site.manage("check", "--deploy", "--fail-level", "WARNING")
    assert "no issues" in checked
    site.manage(
        "create_admin",
        "--username",
        ADMIN,
        "--club",
        CLUB,
        "--url",
        site.url,
        extra={"TICHU_ADMIN_PASSWORD": ADMIN_PASSWORD},
    )
    with psycopg.connect(site.pg.url("tichu"), autocommit=True) as conn:
        owner, app_may_update = conn.execute(
            "SELECT tableowner, has_table_privilege('tichu_app', 'games_event', 'UPDATE') FROM pg_tables "
            "WHERE tablename = 'games_event'"
        ).fetchone()
    assert (owner, app_may_update) == ("tichu_owner", False), "migrated as the owner, the app role granted"


# -- what the visitor does ------------------------------------------------------------------------

PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


def api(site: Site, method: str, path: str, body=None, token=None, expect=(200, 201)):
    status, _, answer = site.request(method, path, body, token=token)
    assert status in expect, (method, path, status, answer)
    return answer


def make_records(site: Site) -> dict:
    """Through the API, as the administrator: a finished game and a tournament round."""
    import random

    from tests.faults.helpers import record

    token = api(site, "POST", "/api/auth/token/", {"username": ADMIN, "password": ADMIN_PASSWORD})["token"]
    slug = "deploy-club"
    game = api(site, "POST", f"/api/games/import/?club={slug}", record(random.Random(7)), token)["id"]

    header = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 1}
    tid = api(site, "POST", "/api/tournaments/", {"club": slug, "name": "Thursday", "header": header}, token)["id"]
    entries = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    api(site, "POST", f"/api/tournaments/{tid}/events/", {"expected_seq": 0, "events": entries}, token)
    proposal = api(site, "GET", f"/api/tournaments/{tid}/pairing/", token=token)
    api(
        site,
        "POST",
        f"/api/tournaments/{tid}/events/",
        {"expected_seq": proposal["seq"], "events": [proposal["event"]]},
        token,
    )
    for link, points in zip(
        api(site, "POST", f"/api/tournaments/{tid}/rounds/1/games/", token=token), ([70, 30], [45, 55])
    ):
        hand = {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": points}
        api(site, "POST", f"/api/games/{link['game']}/events/", {"expected_seq": 0, "events": [hand]}, token)
        api(site, "POST", f"/api/tournaments/{tid}/rounds/1/tables/{link['table']}/result-from-game/", {}, token)
    seq = api(site, "GET", f"/api/tournaments/{tid}/", token=token)["seq"]
    api(
        site,
        "POST",
        f"/api/tournaments/{tid}/events/",
        {"expected_seq": seq, "events": [{"type": "round_closed", "round": 1}]},
        token,
    )
    return {"token": token, "slug": slug, "game": game, "tournament": tid}


def rated(site: Site, made: dict) -> dict:
    """The league once the worker has rated the club's games (three: the import, two tables)."""

    def league():
        body = api(site, "GET", f"/clubs/{made['slug']}/league.json")
        return body if body["games"] >= 3 else None

    started = time.monotonic()
    body = wait_until(league, 60, "the worker's ratings", interval=0.3)
    print(f"rated by the worker within {time.monotonic() - started:.1f} s")
    return body


def snapshot(site: Site, made: dict) -> dict:
    """What must come back from a backup: the league, the game, the tournament."""
    league = api(site, "GET", f"/clubs/{made['slug']}/league.json")
    return {
        "league": {k: league[k] for k in ("games", "rows", "elo", "partnerships")},
        "game": api(site, "GET", f"/api/games/{made['game']}/", token=made["token"]),
        "score": api(site, "GET", f"/api/games/{made['game']}/score/", token=made["token"]),
        "record": api(site, "GET", f"/api/tournaments/{made['tournament']}/record/", token=made["token"]),
        "standings": api(site, "GET", f"/api/tournaments/{made['tournament']}/standings/", token=made["token"]),
    }


def browse(site: Site, browser, made: dict) -> None:
    """Chromium through nginx's HTTPS: every page without a console error or CSP violation."""
    context = browser.new_context(ignore_https_errors=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    page.goto(site.url + "/accounts/sign-in/")
    page.fill("#id_username", ADMIN)
    page.fill("#id_password", ADMIN_PASSWORD)
    with page.expect_navigation():
        page.click("#sign-in-form button[type=submit]")
    assert page.locator("#account-link").inner_text() == ADMIN

    page.goto(f"{site.url}/clubs/{made['slug']}/league/")
    for name in ("Ann", "Bob"):
        assert page.get_by_text(name, exact=True).count() >= 1
    page.goto(f"{site.url}/games/{made['game']}/replay/")
    page.wait_for_selector("#replay[data-ready='1']")  # the replay's script ran on the collected static files
    page.goto(f"{site.url}/tournaments/{made['tournament']}/standings/")
    assert page.get_by_text("Anna & Ben").count() >= 1
    page.goto(f"{site.url}/api/redoc/")
    page.wait_for_selector("[data-section-id^='tag/']", timeout=30_000)
    page.goto(site.url + "/favicon.ico")
    assert page.evaluate("document.contentType") == "image/svg+xml"
    context.close()
    assert failed == [], failed
    assert console_errors == [], console_errors
    assert page.csp_violations == [], page.csp_violations


def backup_and_restore(site: Site) -> None:
    """docs/deploy.md "Backups": pg_dump as the owner; the restore drill as the owner into a fresh
    database that then takes the old one's name, with the services stopped."""
    bindir = Path(os.path.realpath(site.pg.pg_ctl)).parent  # the server's own version
    owner_url = read_env_file(site.base / "etc" / "owner.env")["DATABASE_OWNER_URL"]
    dump = site.base / "tichu.dump"
    done = subprocess.run(
        [str(bindir / "pg_dump"), "--format=custom", f"--file={dump}", owner_url],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    import psycopg

    with psycopg.connect(site.pg.url("postgres"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE tichu_restored OWNER tichu_owner")
    done = subprocess.run(
        [
            str(bindir / "pg_restore"),
            "--exit-on-error",
            "--no-owner",
            f"--dbname={owner_url.rsplit('/', 1)[0]}/tichu_restored",
            str(dump),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    site.stop_services()
    with psycopg.connect(site.pg.url("postgres"), autocommit=True) as conn:
        conn.execute("ALTER DATABASE tichu RENAME TO tichu_before_restore")
        conn.execute("ALTER DATABASE tichu_restored RENAME TO tichu")
    site.redis.client(0).flushall()  # Redis holds nothing that must be backed up


def spoofing_the_forwarded_address_does_not_help(site: Site) -> None:
    """Through nginx, a client that sends its own X-Forwarded-For still has the address nginx saw:
    failed sign-ins with a rotated header count against one address (issue 30, finding 4)."""
    for i in range(SIGNIN_LIMIT):
        status, _, _ = site.request(
            "POST",
            "/api/auth/token/",
            {"username": f"nobody{i}", "password": "wrong"},
            headers={"X-Forwarded-For": f"10.7.0.{i}"},
        )
        assert status == 400
    status, _, body = site.request(
        "POST",
        "/api/auth/token/",
        {"username": ADMIN, "password": ADMIN_PASSWORD},
        headers={"X-Forwarded-For": "10.7.1.1"},
    )
    assert status == 429 and body["code"] == "throttled", body


def test_the_documented_deploy_serves_https_and_survives_a_restore(site, browser):
    site, nginx = site
    install(site)
    site.start_services()
    site.start_nginx(nginx)
    ready = site.wait_ready()
    assert ready["checks"]["worker"]["ok"] and ready["checks"]["migrations"] == {"ok": True, "pending": 0}

    status, headers, _ = site.get("/", base=f"http://localhost:{site.http_port}")
    assert status == 301 and headers["Location"].startswith("https://localhost/")
    status, headers, _ = site.get("/")
    assert status == 200 and "max-age=31536000" in headers["Strict-Transport-Security"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]

    made = make_records(site)
    rated(site, made)
    before = snapshot(site, made)
    browse(site, browser, made)

    backup_and_restore(site)
    site.start_services()
    site.wait_ready()
    after = snapshot(site, made)
    assert after == before
    browse(site, browser, made)
    spoofing_the_forwarded_address_does_not_help(site)
    assert not list(ROOT.glob("celerybeat-schedule*")), "beat wrote its schedule into the checkout"
    assert list((site.base / "beat").glob("celerybeat-schedule*"))
