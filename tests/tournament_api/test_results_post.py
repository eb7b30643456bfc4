"""Results to post (issue 33, item 8): per tournament a results page and a one-file summary (HTML
and PDF) with the final standings, each entry's rounds (table, partners, opponents, score, VP) and
the links to the replays, in each of the four languages."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from pypdf import PdfReader

from games.tournaments.models import TableGame, Tournament
from tests.tournament_api.test_api import append
from tests.tournament_api.test_table_codes import finish_table, published_round

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def finished_evening(client) -> int:
    """Four pairs, one round played from the tables' games, closed, and the tournament finished."""
    tid, tables = published_round(client)
    for table in tables:
        finish_table(client, tables[table]["game"])
        assert (
            client.post(
                f"/api/tournaments/{tid}/rounds/1/tables/{table}/result-from-game/", {}, format="json"
            ).status_code
            == 201
        )
    seq = Tournament.objects.get(pk=tid).seq
    assert (
        append(client, tid, [{"type": "round_closed", "round": 1}, {"type": "tournament_finished"}], seq).status_code
        == 201
    )
    return tid


@pytest.mark.django_db
def test_the_results_page_lists_the_standings_and_each_entrys_rounds_with_their_replays(club, scorer_client):
    tid = finished_evening(scorer_client)
    page = Client().get(f"/tournaments/{tid}/results/", **EN).content.decode()
    assert "final results" in page
    standings = page.split('id="results-standings"')[1].split("</section>")[0]
    assert standings.count("<tr data-entry=") == 4
    entries = page.split('id="results-entries"')[1].split("</section>")[0]
    assert entries.count('<article class="results-entry"') == 4
    games = {link.table: link.game_id for link in TableGame.objects.filter(tournament_id=tid)}
    for game in games.values():  # each table's replay, twice (both its entries), as an absolute address
        assert entries.count(f'href="http://testserver/games/{game}/replay/"') == 2
    first = entries.split('<li data-round="1"')[1].split("</li>")[0]
    assert re.search(r"table \d", first) and "against " in first and re.search(r"-?\d+:-?\d+", first)
    for lang in ("en", "fr", "de", "uk"):  # a file in each language is offered
        assert f'href="/tournaments/{tid}/results.html?lang={lang}"' in page
        assert f'href="/tournaments/{tid}/results.pdf?lang={lang}"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lang, words", [("en", "Standings"), ("fr", "Classement"), ("de", "Tabelle"), ("uk", "Турнірна таблиця")]
)
def test_the_one_file_summary_in_each_language(club, scorer_client, lang, words):
    tid = finished_evening(scorer_client)
    response = Client().get(f"/tournaments/{tid}/results.html?lang={lang}", **EN)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{tid}-results-{lang}.html"'
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html and f">{words}<" in html
    assert "<script" not in html and '<link rel="stylesheet"' not in html, "one file: its style inside it"
    assert html.count("http://testserver/games/") == 4
    pdf = Client().get(f"/tournaments/{tid}/results.pdf?lang={lang}", **EN)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.content))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Anna" in text and words in text
    links = [a["/A"]["/URI"] for p in reader.pages for a in (p.get("/Annots") or []) if "/A" in a.get_object()]
    games = TableGame.objects.filter(tournament_id=tid).values_list("game_id", flat=True)
    assert set(links) == {f"http://testserver/games/{g}/replay/" for g in games}, "a link to each table's replay"


@pytest.mark.django_db
def test_an_unknown_language_or_kind_is_not_found_and_a_members_club_stays_closed(club, scorer_client):
    tid = finished_evening(scorer_client)
    assert Client().get(f"/tournaments/{tid}/results.html?lang=xx").status_code == 404
    assert Client().get(f"/tournaments/{tid}/results.doc").status_code == 404
    club.visibility = "members"
    club.save()
    assert Client().get(f"/tournaments/{tid}/results/").status_code == 404
    assert Client().get(f"/tournaments/{tid}/results.pdf").status_code == 404
