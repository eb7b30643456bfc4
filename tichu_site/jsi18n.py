"""The page scripts' catalogue (/jsi18n/, locale/<lang>/LC_MESSAGES/djangojs.po), cheap enough to
load on every page that has a script (issue #21).

Django's JavaScriptCatalog builds its answer afresh on each request: it merges the catalogues and
the language's formats and renders a ~20 KiB script. Here each process builds it once per language
and keeps it, and the browser keeps it too:

- the pages ask for their own language in the address (``/jsi18n/?l=de``, the template's
  LANGUAGE_CODE), so an address always means one language's words and a browser's cache can
  never hand one language's words to a page in another (a cache that ignores ``Vary``, as
  Chromium's in-memory cache of scripts does, included);
- ``Cache-Control: max-age`` (MAX_AGE) on such an address: within it the browser does not ask at
  all (a new word may thus show in English for up to MAX_AGE after a deploy, never a wrong one);
- an ETag that is a hash of the body itself, so a deploy with new words (new .mo files, new
  formats) gets a new tag without anyone bumping a version; a browser that has the body gets a
  304 without one;
- without ``?l=`` the request's language (LocaleMiddleware: the switcher's cookie, else
  Accept-Language) is used, with ``Vary: Accept-Language, Cookie`` and ``no-cache`` (a 304 each
  time the ETag still matches).

bench/jsi18n.py measures a first and a repeated request against Django's plain view."""

from __future__ import annotations

import hashlib
import threading

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition
from django.views.i18n import JavaScriptCatalog

#: Seconds a browser keeps the catalogue without asking (then it revalidates with its ETag).
MAX_AGE = 600

_built: dict[str, tuple[bytes, str]] = {}
_lock = threading.Lock()


def asked(request: HttpRequest) -> str | None:
    """The language the address names (``?l=``), if it is one of the site's."""
    lang = request.GET.get("l")
    return lang if lang in dict(settings.LANGUAGES) else None


def built(request: HttpRequest) -> tuple[bytes, str]:
    """The catalogue script in the asked (else the request's) language and its ETag, built once
    per process."""
    lang = asked(request) or translation.get_language()
    found = _built.get(lang)
    if found is None:
        with translation.override(lang):
            body = JavaScriptCatalog.as_view()(request).content
        found = (body, '"%s-%s"' % (lang, hashlib.sha256(body).hexdigest()[:20]))
        with _lock:
            _built[lang] = found
    return found


def forget() -> None:
    """Drops the built catalogues (tests that change the catalogues, the benchmark's cold runs)."""
    with _lock:
        _built.clear()


@condition(etag_func=lambda request: built(request)[1])
def _catalogue(request: HttpRequest) -> HttpResponse:
    return HttpResponse(built(request)[0], content_type="text/javascript; charset=utf-8")


def javascript_catalogue(request: HttpRequest) -> HttpResponse:
    response = _catalogue(request)  # 200 with the body, or 304 when the browser's ETag matches
    if asked(request):
        patch_cache_control(response, public=True, max_age=MAX_AGE)
    else:
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
