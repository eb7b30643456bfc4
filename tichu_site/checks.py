"""The project's own deployment checks, run by `manage.py check --deploy` beside Django's
(docs/deploy.md): what Django cannot know is wrong with this service's production set-up.

- tichu.W001: mail goes to the console backend: a password-reset mail is only printed in the
  server's log while the page says it was sent (EMAIL_URL unset).
- tichu.W002: a proxy header is configured (DJANGO_SECURE_PROXY_SSL_HEADER: the service is behind
  a TLS-ending proxy) but TICHU_TRUSTED_PROXIES is unset: every visitor then has the proxy's
  address, and one visitor's failed sign-ins lock everyone out (games/client_address.py).
- tichu.W003: static files are not collected (or are stale): STATIC_ROOT lacks files the apps
  ship, so pages would come without their styles and scripts (run `manage.py collectstatic`).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.checks import Tags, Warning, register

CONSOLE_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
}


@register(Tags.security, deploy=True)
def mail_is_delivered(app_configs=None, **kwargs):
    if settings.EMAIL_BACKEND in CONSOLE_BACKENDS:
        return [
            Warning(
                f"Mail is not sent: EMAIL_BACKEND is Django's {settings.EMAIL_BACKEND.split('.')[-2]} backend, so password-reset "
                "mail is only written to the server's log.",
                hint="Set EMAIL_URL, e.g. smtp://user:password@mail.example.org:587 (docs/deploy.md, Mail).",
                id="tichu.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def trusted_proxies_set_behind_a_proxy(app_configs=None, **kwargs):
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and getattr(settings, "TICHU_TRUSTED_PROXIES", None) is None:
        return [
            Warning(
                "DJANGO_SECURE_PROXY_SSL_HEADER says the service is behind a proxy, but TICHU_TRUSTED_PROXIES is unset: "
                "every visitor counts as the proxy's address for the sign-in limit.",
                hint="Set TICHU_TRUSTED_PROXIES=1 behind one nginx or Caddy that sets X-Forwarded-For "
                "(docs/deploy.md, The client's address).",
                id="tichu.W002",
            )
        ]
    return []


def uncollected_static_files() -> list[str]:
    """The static files the finders know that STATIC_ROOT lacks (all of them if it is missing)."""
    from django.contrib.staticfiles import finders

    root = Path(settings.STATIC_ROOT) if settings.STATIC_ROOT else None
    missing = []
    for finder in finders.get_finders():
        for path, _storage in finder.list(["CVS", ".*", "*~"]):
            if root is None or not (root / path).is_file():
                missing.append(path)
    return missing


@register(Tags.staticfiles, deploy=True)
def static_files_collected(app_configs=None, **kwargs):
    missing = uncollected_static_files()
    if missing:
        return [
            Warning(
                f"{len(missing)} static files are not in STATIC_ROOT ({settings.STATIC_ROOT}), e.g. {missing[0]}: "
                "pages would load without their styles and scripts.",
                hint="Run `manage.py collectstatic --noinput` (after every upgrade), then restart the web service.",
                id="tichu.W003",
            )
        ]
    return []
