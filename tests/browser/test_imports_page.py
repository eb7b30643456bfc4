"""The club's imports page (/clubs/<slug>/imports/) in a browser at phone and laptop widths: a
running job's progress, no sideways scroll on a phone, the page reloading itself while it runs;
the hands a file's lax import mended, each with its line and its reason in the page's language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games import engine
from games.models import Club, ImportedFile, ImportJob, Membership
from tests.corpus import needs_corpus
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_club_admin_follows_a_running_import(browser, live_server, width):
    club = Club.objects.create(slug="bsw", name="BSW history", visibility="public")
    admin = get_user_model().objects.create_user("ada", password="pw")
    Membership.objects.create(user=admin, club=club, role="admin")
    job = ImportJob.objects.create(
        club=club, files_total=200, files_done=57, files_skipped=3, files_failed=1, games_stored=57
    )
    client = Client()
    client.force_login(admin)
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/bsw/imports/")
        row = page.locator(f"#imports tr[data-job='{job.pk}']")
        assert "61 / 200 files" in row.inner_text()
        assert page.locator("progress").get_attribute("value") == "61"
        assert page.locator("meta[http-equiv='refresh']").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"imports-{width}.png"), full_page=True)  # to look at
        ImportJob.objects.filter(pk=job.pk).update(files_done=196)
        expect(page.locator("progress")).to_have_attribute("value", "200", timeout=15_000)  # it reloaded itself
    finally:
        context.close()


def _lax_notes() -> list[dict]:
    """The hands_mended of a corpus log with a stranger's line in its second hand's play."""
    from games.engine import read_bsw
    from tests.engine.test_bsw_lax import edit

    shaped = edit("Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n")
    (read,) = read_bsw(shaped, lax=True)
    return [{"game": 1, **note} for note in read.notes]


@needs_corpus
@pytest.mark.parametrize("width", [360, 1280])
def test_a_club_in_lyon_reads_why_a_hand_was_mended_in_french(browser, live_server, width):
    club = Club.objects.create(slug="lyon", name="Tichu Lyon", visibility="public")
    admin = get_user_model().objects.create_user("ada", password="pw")
    Membership.objects.create(user=admin, club=club, role="admin")
    job = ImportJob.objects.create(club=club, files_total=2, files_done=2, games_stored=2, finished_at=timezone.now())
    notes = _lax_notes()
    assert [n["rule"] for n in notes] == ["kept"]
    ImportedFile.objects.create(
        club=club, job=job, sha256="a" * 64, name="2241381.tch", games_stored=1, hands_mended=notes
    )
    # a report stored before the reasons had their rule: its English reason, the rest in French
    old = {"game": 1, "hand": 3, "line": 40, "action": "skipped", "reason": "the log stops in it"}
    ImportedFile.objects.create(club=club, job=job, sha256="b" * 64, name="old.tch", games_stored=1, hands_mended=[old])
    client = Client()
    client.force_login(admin)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="fr")
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/lyon/imports/")
        section = page.locator("#hands-mended")
        expect(section.locator("h2")).to_have_text(engine.report_heading("fr"))
        assert engine.report_heading("fr") != engine.report_heading("en")
        items = section.locator("li").all_inner_texts()
        line = notes[0]["line"]
        assert items[1] == engine.note_line(notes[0], "fr")
        assert items[1].startswith(
            f"partie 1, donne 2, ligne {line}\u00a0: inscrite d'après la feuille de marque\u00a0: "
            "ligne inattendue dans le jeu\u00a0: 'Zuschauer: hallo'\u00a0; "
        )
        assert "unexpected" not in items[1] and "hand_result" not in items[1]
        assert items[0] == "partie 1, donne 3, ligne 40\u00a0: écartée\u00a0: the log stops in it"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"imports-mended-fr-{width}.png"), full_page=True)
    finally:
        context.close()
