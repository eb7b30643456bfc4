"""The page scripts' catalogue (/jsi18n/, tichu_site/jsi18n.py): each language's words, built once
per process, kept by the browser (max-age, then a 304 on its ETag), never one language's words
for another's request; and every page that has a script of ours loads it before the script."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tichu_site import jsi18n

REPO = Path(__file__).resolve().parents[2]
#: One script string per language, as djangojs.po translates it (JSON in the script: \u escapes).
CLEAR = {lang: json.dumps(word) for lang, word in {"fr": "Effacer", "de": "Leeren", "uk": "Очистити"}.items()}


@pytest.fixture(autouse=True)
def cold():
    jsi18n.forget()
    yield
    jsi18n.forget()


def get(client: Client, lang: str, **headers):
    return client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=lang, **headers)


@pytest.mark.parametrize("lang", ["en", *CLEAR])
def test_each_language_gets_its_own_words(lang):
    response = get(Client(), lang)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert [other for other, word in CLEAR.items() if word in body] == ([lang] if lang in CLEAR else [])
    assert response["ETag"].startswith(f'"{lang}-')


def test_the_browser_keeps_the_language_it_asked_for_and_asks_again_only_with_its_etag():
    first = Client().get("/jsi18n/?l=de")
    assert {"public", "max-age=%d" % jsi18n.MAX_AGE} <= {v.strip() for v in first["Cache-Control"].split(",")}
    again = Client().get("/jsi18n/?l=de", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]


def test_the_address_names_the_language_whatever_the_browser_and_cookie_say():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert CLEAR["uk"] in get(client, "de", QUERY_STRING="l=uk").content.decode()
    assert CLEAR["de"] in get(client, "de", QUERY_STRING="l=xx").content.decode()  # not a language of the site


def test_without_a_language_in_the_address_the_browser_revalidates_each_time():
    first = get(Client(), "de")
    assert "no-cache" in first["Cache-Control"]
    assert {"accept-language", "cookie"} <= {v.strip().lower() for v in first["Vary"].split(",")}
    assert get(Client(), "de", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_an_etag_of_one_language_does_not_answer_another():
    german = get(Client(), "de")
    ukrainian = get(Client(), "uk", HTTP_IF_NONE_MATCH=german["ETag"])
    assert ukrainian.status_code == 200 and CLEAR["uk"] in ukrainian.content.decode()
    assert ukrainian["ETag"] != german["ETag"]


def test_the_switchers_cookie_chooses_the_language_over_the_browsers():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "uk"
    assert CLEAR["uk"] in get(client, "de").content.decode()


def test_the_body_is_built_once_per_language(monkeypatch):
    calls = []
    real = jsi18n.JavaScriptCatalog.as_view

    def counting(*args, **kwargs):
        view = real(*args, **kwargs)
        return lambda request: calls.append(1) or view(request)

    monkeypatch.setattr(jsi18n.JavaScriptCatalog, "as_view", counting)
    client = Client()
    bodies = {get(client, "fr").content for _ in range(3)}
    assert len(bodies) == 1 and len(calls) == 1
    get(client, "de")
    assert len(calls) == 2


def test_it_is_the_same_script_as_djangos_own_view():
    from django.test import RequestFactory
    from django.utils import translation

    with translation.override("fr"):
        plain = jsi18n.JavaScriptCatalog.as_view()(RequestFactory().get("/jsi18n/")).content
    assert get(Client(), "fr").content == plain


def test_every_template_with_one_of_our_scripts_loads_the_catalogue_first():
    """A page script that says words (gettext) runs on a page that loaded /jsi18n/ before it."""
    speaking = {p.relative_to(REPO / "replay" / "static").as_posix() for p in (REPO / "replay" / "static").rglob("*.js")
                if re.search(r"\bn?gettext\(", p.read_text(encoding="utf-8"))}  # fmt: skip
    missing = []
    for template in (REPO / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        for m in re.finditer(r"<script[^>]*src=\"\{% static '([^']+)' %\}\"", text):
            entry = m.group(1)
            if entry in speaking or _imports_speaking(entry, speaking):
                tag = text.find("{% url 'javascript-catalog' %}?l={{ LANGUAGE_CODE }}")
                if tag < 0 or tag > m.start():
                    missing.append((template.relative_to(REPO).as_posix(), entry))
    assert missing == []


def _imports_speaking(entry: str, speaking: set[str], seen: set[str] | None = None) -> bool:
    """Whether a module imports (directly or further down) a module that says words."""
    seen = seen if seen is not None else set()
    if entry in seen:
        return False
    seen.add(entry)
    path = REPO / "replay" / "static" / entry
    for rel in re.findall(r'from "(\.{1,2}/[^"]+)"', path.read_text(encoding="utf-8")):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(entry), rel))
        if target in speaking or _imports_speaking(target, speaking, seen):
            return True
    return False
