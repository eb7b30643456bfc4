"""Email settings from the environment (read by settings.py).

Default: the console backend (a password-reset mail is printed in the server's log). SMTP when
EMAIL_URL is set (`smtp://user:password@host:587` with STARTTLS, `smtps://...:465` for TLS from
the start, `smtp+plain://host:25` for neither; user and password URL-quoted) or when EMAIL_HOST
is (with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL).
DEFAULT_FROM_EMAIL is the sender either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import unquote, urlsplit

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
_TRUE = {"1", "true", "yes", "on"}


def email_settings(env: Mapping[str, str]) -> dict:
    conf = {"DEFAULT_FROM_EMAIL": env.get("DEFAULT_FROM_EMAIL", "Tichu records <tichu@localhost>")}
    url = env.get("EMAIL_URL", "").strip()
    if url:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "console":
            return {**conf, "EMAIL_BACKEND": CONSOLE}
        if scheme not in {"smtp", "smtps", "smtp+plain"}:
            raise ValueError(f"EMAIL_URL: unknown scheme {parts.scheme!r} (smtp, smtps, smtp+plain or console)")
        default_port = {"smtp": 587, "smtps": 465, "smtp+plain": 25}[scheme]
        return {
            **conf,
            "EMAIL_BACKEND": SMTP,
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or default_port,
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": scheme == "smtp",
            "EMAIL_USE_SSL": scheme == "smtps",
        }
    if env.get("EMAIL_HOST"):
        return {
            **conf,
            "EMAIL_BACKEND": SMTP,
            "EMAIL_HOST": env["EMAIL_HOST"],
            "EMAIL_PORT": int(env.get("EMAIL_PORT", "587")),
            "EMAIL_HOST_USER": env.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": env.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": env.get("EMAIL_USE_TLS", "1").strip().lower() in _TRUE,
            "EMAIL_USE_SSL": env.get("EMAIL_USE_SSL", "0").strip().lower() in _TRUE,
        }
    return {**conf, "EMAIL_BACKEND": env.get("EMAIL_BACKEND", CONSOLE)}
