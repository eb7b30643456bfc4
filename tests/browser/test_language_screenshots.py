"""The pages a club's evening goes through, read in French, German and Ukrainian at 390 px (issue 38
item 4): the tournament's pages (its page, standings, a table's result page, the table-code form),
the entry page, the replay and the league. Each page fits the phone (nothing wider than the
screen) and shows none of the words docs/glossary.md refuses for a concept (the page's text as a
reader meets it, scripts done); the screenshots are saved for a person to read, in
``$TICHU_LANGUAGE_SHOTS`` or a temporary directory."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.test_i18n_pages import signed_in, site  # noqa: F401 (the fixture)
from tests.browser.test_phone_layout import OUTSIDE_JS
from tests.i18n.test_glossary_words import _word, glossary

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def evening_pages(site) -> list[tuple[str, str]]:  # noqa: F811 (site is the fixture's value)
    t = site["tournament"]
    slug = site["club"].slug
    return [
        ("tournament", f"/tournaments/{t['id']}/"),
        ("standings", f"/tournaments/{t['id']}/standings/"),
        ("table-result", f"/games/{t['disputed']}/enter/result/"),
        ("table-code", "/t/"),
        ("entry", f"/games/{site['game'].pk}/enter/"),
        ("replay", f"/games/{site['game'].pk}/replay/?at=40"),
        ("replay-end", f"/games/{site['game'].pk}/replay/"),
        ("league", f"/clubs/{slug}/league/"),
        ("game", f"/games/{site['game'].pk}/"),
        ("new-game", f"/clubs/{slug}/new-game/"),
    ]


@pytest.fixture
def shots(tmp_path_factory) -> Path:
    where = os.environ.get("TICHU_LANGUAGE_SHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("language-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("lang", ("fr", "de", "uk"))
def test_the_evenings_pages_read_right_on_a_phone(browser, live_server, site, shots, lang):  # noqa: F811
    refused = [(c.name, w) for c in glossary() for w in c.never[lang]]
    page = signed_in(browser, live_server, site["admin"], lang, width=390)
    wrong = {}
    for name, path in evening_pages(site):
        page.goto(live_server.url + path)
        page.wait_for_function("() => !document.querySelector('[data-ready=\"0\"]')")
        page.wait_for_function("() => document.getAnimations().length === 0")
        assert page.get_attribute("html", "lang") == lang, path
        result = page.evaluate(OUTSIDE_JS)
        assert result["pageScroll"] <= 0 and result["outside"] == [], (lang, path, result)
        text = page.evaluate("() => document.title + ' ' + document.body.innerText")
        found = [(concept, w) for concept, w in refused if _word(w).search(text)]
        if found:
            wrong[path] = found
        page.screenshot(path=str(shots / f"{name}-{lang}-390.png"), full_page=True)
    assert wrong == {}
    assert sorted(p.name for p in shots.glob(f"*-{lang}-390.png")) == sorted(
        f"{name}-{lang}-390.png" for name, _ in evening_pages(site)
    )
    assert re.search(r"\S", text)
