"""Settings for the Tichu record and replay service.

One env-driven file. The embedded default (no environment at all) is SQLite with Celery tasks run
in-process; production sets DATABASE_URL (PostgreSQL through psycopg 3) and CELERY_BROKER_URL
(Redis).
"""

import os
import tempfile
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# --- Production or development (docs/deploy.md) ------------------------------------------------
# Development is the embedded default and only that: with no DJANGO_SECRET_KEY set, DEBUG is on
# and a public development key is used (`make run`, the tests). Setting DJANGO_SECRET_KEY means
# production: DEBUG defaults to off and every HTTPS setting below defaults to on, so that
# `manage.py check --deploy` passes with no warning (tests/api/test_deploy_settings.py). DEBUG off
# with the public key is refused outright.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or DEVELOPMENT_SECRET_KEY
DEBUG = env_bool("DJANGO_DEBUG", SECRET_KEY == DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("DJANGO_DEBUG is off: set DJANGO_SECRET_KEY to a long random secret (docs/deploy.md)")
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
if os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER"):
    # Behind a proxy that ends TLS: the header it sets (e.g. X-Forwarded-Proto) says https.
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + os.environ["DJANGO_SECURE_PROXY_SSL_HEADER"].upper().replace("-", "_"),
        "https",
    )
# How many reverse proxies in front of the service append to X-Forwarded-For and are trusted:
# the client's address (every limit keyed on an address) is the Nth address from the right of
# that header; 0 or unset: REMOTE_ADDR, the header ignored (games/client_address.py). Unset is
# kept as None so that `check --deploy` can warn when a proxy header is configured without it
# (tichu_site/checks.py).
_trusted_proxies = os.environ.get("TICHU_TRUSTED_PROXIES", "").strip()
if _trusted_proxies and not (_trusted_proxies.isdigit() and int(_trusted_proxies) <= 10):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"TICHU_TRUSTED_PROXIES must be a count from 0 to 10, not {_trusted_proxies!r}")
TICHU_TRUSTED_PROXIES = int(_trusted_proxies) if _trusted_proxies else None
# --- end production or development -------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc from our own static files (no CDN)
    "csp",
    "games",
    "games.tournaments",
    "games.clubs",
    "games.online",
    "games.ratings",  # after games: its models (label "ratings") point at the records' tables
    "replay",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A database that cannot answer (a restart) is a 503 with Retry-After on the pages, not a 500
    # (games/unavailable.py; the API's views answer it in games.api.exceptions).
    "games.unavailable.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # CORS under /api/ for the origins of TICHU_CORS_ORIGINS only (off by default; games/api/cors.py)
    "games.api.cors.ApiCorsMiddleware",
    # The replay page embeds every frame of a game (~450 KiB, ~50 KiB gzipped). Django's gzip
    # middleware pads responses against BREACH (Django 4.2+).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the visitor's choice (the switcher's cookie), else the browser's
    # Accept-Language, else English (LANGUAGES below).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A table code opened at /t/<code>/ signs its holder in on its game's entry page and API only.
    "games.tournaments.middleware.TableCodeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "tichu_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "replay.site_nav.site_nav",
            ],
        },
    },
]

WSGI_APPLICATION = "tichu_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        # A persistent connection is checked before a request reuses it: after a database restart
        # the first request of each worker would otherwise fail with a 500 (tests/faults).
        conn_health_checks=True,
    )
}
# Seconds a client is told to wait (Retry-After) when the database cannot answer for a moment, as
# during a restart: such a request is a 503, never a 500 (games/unavailable.py).
TICHU_DB_RETRY_AFTER = int(os.environ.get("TICHU_DB_RETRY_AFTER", "5"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # Wait up to 20 s for the write lock instead of failing at once under concurrent appends.
        timeout=20,
        # Every transaction takes the write lock when it begins (BEGIN IMMEDIATE), so it waits
        # above: a deferred one that has read and then writes fails at once ("database is
        # locked") when another connection wrote in between, whatever the timeout.
        transaction_mode="IMMEDIATE",
        # Write-ahead log: readers do not block the writer nor the writer readers (a long poll
        # reading the stream head while an append commits). NORMAL is safe with WAL: a power cut
        # may lose the last commits, never the file.
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    )
    # Tests run on a file, not on Django's shared in-memory database: the test server's threads
    # (browser tests) then have connections of their own, as on PostgreSQL and in production.
    # In memory they all shared the test's one connection, and a long poll still reading in one
    # thread made the flush after the test fail in another ("database table is locked").
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"tichu-test-{os.getpid()}.sqlite3"),
    }
elif (
    DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    and os.environ.get("DATABASE_PREPARED_STATEMENTS", "1") != "0"
):
    # Prepared statements: psycopg prepares a statement on the server once a connection has run
    # it prepare_threshold times, so the token lookup, the game lookup and the append's lock,
    # insert and update are planned once per persistent connection (CONN_MAX_AGE) instead of on
    # every request. That needs server-side parameter binding; Django's defaults (client-side
    # binding, no threshold) prepare nothing. DATABASE_PREPARED_STATEMENTS=0 turns both off,
    # for a pooler in transaction mode that cannot keep prepared statements (PgBouncer < 1.21).
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)

# --- Database roles (docs/deploy.md) ---------------------------------------------------------
# In production DATABASE_URL is the app's own role, which owns nothing (games/db_roles.py), and
# DATABASE_OWNER_URL the schema owner's: `manage.py migrate` then runs the migrations as the owner
# and grants the app role its rights (games/management/commands/migrate.py); `grant_app_role`
# connects through the owner alias below.
if os.environ.get("DATABASE_OWNER_URL"):
    DATABASES["owner"] = dj_database_url.parse(os.environ["DATABASE_OWNER_URL"], conn_max_age=0)
    # Tests: the owner's connection opens the test database of the default one.
    DATABASES["owner"]["TEST"] = {"MIRROR": "default"}
# --- end database roles ----------------------------------------------------------------------

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    # Refuses nothing: a new password (changed, reset, set by an admin) ends the API token.
    {"NAME": "games.api.tokens.RevokeTokensOnPasswordChange"},
]

LANGUAGE_CODE = "en"
# The players' languages (issue #21): the rule books are French, English and Ukrainian, the
# largest server and most championships German. Each name is written in its own language, as the
# switcher shows it. Catalogues in locale/ (README "Languages").
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch"), ("uk", "Українська")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice is remembered for a year (Django's default is the browser session).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Dates and numbers in each language's own way (Django's locale formats); English keeps the
# site's ISO-like dates (tichu_site/formats/en/formats.py).
FORMAT_MODULE_PATH = ["tichu_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `manage.py collectstatic` copies every static file here (deploy: DJANGO_STATIC_ROOT, outside the
# checkout); whitenoise serves them from it. `check --deploy` warns when it is missing or stale.
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["CACHE_URL"]}
        if os.environ.get("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tichu"}
    )
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.TokenOrBearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        # Authorization: TableCode ... (a tournament table's code: its own game only)
        "games.tournaments.api.authentication.TableCodeAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # The API speaks JSON only, errors included (games/api/exceptions.py): no browsable HTML pages.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JsonParser"],
    "EXCEPTION_HANDLER": "games.api.exceptions.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.AutoSchema",
    # DRF's own reading of the client's address (get_ident) agrees with games.client_address.
    "NUM_PROXIES": TICHU_TRUSTED_PROXIES or 0,
    "DEFAULT_THROTTLE_RATES": {
        "writes": os.environ.get("TICHU_WRITE_THROTTLE", "600/minute"),
    },
}

# A CSRF failure under /api/ is JSON like every other API error; Django's page elsewhere.
CSRF_FAILURE_VIEW = "games.api.exceptions.api_csrf_failure"

SPECTACULAR_SETTINGS = {
    "TITLE": "Tichu record and replay API",
    "DESCRIPTION": "Event-sourced game records for Tichu and its family of games.",
    "VERSION": "1.0.0",
    # Games and tournaments both have an active/finished status: one name each in the schema.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "TournamentStatusEnum": "games.tournaments.models.Tournament.Status",
        "LeagueTableEnum": "games.ratings.models.LeagueRules.LeadsWith",  # the league's tables (games.ratings.systems)
        "FeedKindEnum": "games.clubs.models.FeedEntry.Kind",
    },
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files, at the pinned version.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema_hooks.add_error_responses",
        "games.api.examples.add_examples",
    ],
}

# --- Content-Security-Policy (django-csp; docs/deploy.md) ----------------------------------------
# Scripts only from our own files (the pages' data travels in JSON <script> blocks, which are not
# run); inline styles are allowed because the replay and entry pages place seats with style
# attributes, and ReDoc injects its styles. DJANGO_CSP_REPORT_ONLY=1 reports instead of blocking.
from csp.constants import NONE, SELF, UNSAFE_INLINE  # noqa: E402

_CSP = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
if env_bool("DJANGO_CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP
else:
    CONTENT_SECURITY_POLICY = _CSP
# --- end Content-Security-Policy -----------------------------------------------------------------

# Celery: Redis in production; in-process by default so that the embedded setup needs no broker.
# Delivery of the rating tasks is at least once (docs/ratings.md, "Delivery"): the tasks are
# idempotent, a finishing append writes an outbox row with its events, and the sweep below
# re-queues what the broker lost.
# In-process default: a host is named because kombu warns "No hostname was supplied" on every
# eager task otherwise (Celery acquires a producer to check serialisation even when eager).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "memory://localhost/")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", "CELERY_BROKER_URL" not in os.environ)
CELERY_TASK_EAGER_PROPAGATES = True
# Acknowledge after the task, not before: a worker killed mid-task leaves the message to be
# redelivered (to the next worker when a prefork child dies: reject_on_worker_lost; after the
# visibility timeout when the whole worker dies).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a killed worker holds one unacknowledged task, not four
CELERY_TASK_TRACK_STARTED = True
# A publish never retries: the web request must not wait for a broker that is down (the outbox
# sweep re-queues the task); a connection attempt gives up after 2 s.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True  # a worker started before Redis waits for it
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2  # the result backend, likewise
CELERY_REDIS_SOCKET_TIMEOUT = 10
# Redis redelivers a message that stayed unacknowledged for `visibility_timeout` seconds (a
# worker killed with it in hand). It must exceed the longest task, or a running task is handed
# to a second worker: the longest is a full recompute (100,000 games: 18-110 s measured, so a
# few minutes at most under load), and a retried task's countdown is at most 600 s
# (retry_backoff_max), which Redis also counts from delivery. 900 s covers both; the default
# 3600 s left a killed worker's task unrated for an hour. Kombu looks for such messages every
# `unacked_restore_interval` seconds (throttle 1: on every look).
CELERY_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "900"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(10, CELERY_VISIBILITY_TIMEOUT // 4)),
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": 2,
    "socket_timeout": 10,  # a publish on a half-open connection gives up instead of hanging
}

# The rating outbox (games/ratings/outbox.py): rows older than GRACE_S (their on-commit message is
# presumed lost) are re-queued by a sweep every SWEEP_S (Celery beat: run the worker with -B, or
# `celery -A tichu_site beat`) and on worker start, at most once per REQUEUE_S per row.
RATINGS_OUTBOX_SWEEP_S = float(os.environ.get("TICHU_OUTBOX_SWEEP_S", "60"))
RATINGS_OUTBOX_GRACE_S = float(os.environ.get("TICHU_OUTBOX_GRACE_S", "30"))
RATINGS_OUTBOX_REQUEUE_S = float(os.environ.get("TICHU_OUTBOX_REQUEUE_S", "300"))
# The worker's heartbeat (tichu_site/health.py): beat queues it every TICHU_WORKER_HEARTBEAT_S,
# a worker runs it; /api/ready/ fails once it is three intervals old.
TICHU_WORKER_HEARTBEAT_S = float(os.environ.get("TICHU_WORKER_HEARTBEAT_S", "30"))
CELERY_BEAT_SCHEDULE = {
    "rating-outbox-sweep": {"task": "games.tasks.sweep_rating_outbox", "schedule": RATINGS_OUTBOX_SWEEP_S},
    "worker-heartbeat": {
        "task": "tichu_site.worker_heartbeat",
        "schedule": TICHU_WORKER_HEARTBEAT_S,
        "options": {"expires": TICHU_WORKER_HEARTBEAT_S},
    },
}

# Every server error is logged with its traceback on stderr (the process manager keeps it):
# request errors (django.request: every 5xx, pages and API alike), Celery's task failures, and
# the app's own warnings (a cache or broker that is down, a task not queued). One handler, on
# the root logger, so that nothing is written twice; Django's default handlers (console only
# with DEBUG, mail_admins without ADMINS) are replaced. A Celery worker installs its own root
# handler at the level of --loglevel.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("TICHU_LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": [], "level": "WARNING", "propagate": True},
        "django.request": {"handlers": [], "level": "ERROR", "propagate": True},
        # no level: WARNING (root) in the web process, --loglevel in a worker; task failures are ERROR
        "celery": {"handlers": [], "propagate": True},
    },
}

# --- accounts and club life (replay/accounts, replay/clubs, games/clubs; docs/accounts.md) ----------
# One authentication backend for every sign-in path (the site, /api/auth/token/, /api-auth/login/,
# /admin/login/): Django's ModelBackend behind the sign-in throttle.
AUTHENTICATION_BACKENDS = ["replay.accounts.backends.ThrottledModelBackend"]
# The origins a club's website may call the API from (CORS; games/api/cors.py): comma-separated,
# e.g. "https://club.example.org,https://bot.example.org". Empty: no cross-origin call is allowed.
TICHU_CORS_ORIGINS = tuple(
    o.strip().rstrip("/") for o in os.environ.get("TICHU_CORS_ORIGINS", "").split(",") if o.strip()
)
# A club's webhooks (games/clubs/webhooks.py): attempts per delivery (with backoff), and whether a
# webhook may call a private or loopback address (off: a club admin may not reach into the
# server's own network; on for a test server or a club's own intranet).
TICHU_WEBHOOK_ATTEMPTS = int(os.environ.get("TICHU_WEBHOOK_ATTEMPTS", "5"))
TICHU_WEBHOOK_PRIVATE_ADDRESSES = env_bool("TICHU_WEBHOOK_PRIVATE_ADDRESSES", False)
MIDDLEWARE += ["replay.accounts.middleware.SignInThrottledMiddleware"]
TICHU_SIGNIN_FAILURES_PER_ACCOUNT = int(os.environ.get("TICHU_SIGNIN_FAILURES_PER_ACCOUNT", "10"))
TICHU_SIGNIN_FAILURES_PER_ADDRESS = int(os.environ.get("TICHU_SIGNIN_FAILURES_PER_ADDRESS", "50"))
TICHU_SIGNIN_WINDOW_MINUTES = int(os.environ.get("TICHU_SIGNIN_WINDOW_MINUTES", "15"))
# Wrong table codes: per client address and per tournament in a window (games/tournaments/code_throttle.py).
TICHU_TABLE_CODE_FAILURES_PER_ADDRESS = int(os.environ.get("TICHU_TABLE_CODE_FAILURES_PER_ADDRESS", "30"))
TICHU_TABLE_CODE_FAILURES_PER_TOURNAMENT = int(os.environ.get("TICHU_TABLE_CODE_FAILURES_PER_TOURNAMENT", "200"))
TICHU_TABLE_CODE_WINDOW_MINUTES = int(os.environ.get("TICHU_TABLE_CODE_WINDOW_MINUTES", "15"))
LOGIN_URL = "accounts:sign-in"
LOGIN_REDIRECT_URL = "accounts:home"
LOGOUT_REDIRECT_URL = "clubs:home"
# Off: people join only through a club admin's invitation link (which lets them sign up).
TICHU_OPEN_SIGNUP = env_bool("TICHU_OPEN_SIGNUP", False)
TICHU_INVITATION_DAYS = int(os.environ.get("TICHU_INVITATION_DAYS", "7"))
# The largest club archive the site's and the API's import take (docs/club-archive.md)
TICHU_CLUB_ARCHIVE_MAX_BYTES = int(os.environ.get("TICHU_CLUB_ARCHIVE_MAX_BYTES", str(100 * 2**20)))
from tichu_site.email_env import email_settings  # noqa: E402

globals().update(email_settings(os.environ))
# --- end of accounts and club life -----------------------------------------------------------------
