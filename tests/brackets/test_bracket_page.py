"""The bracket's page (issue 36, item 3): the rounds, matches and winners for a reader; the TD's
forms to create a bracket (on the club's tournaments page), seed it, record a match's result and
correct it with a reason, each write with the seq the page was drawn at."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from games.models import Membership, Player
from games.tournaments.models import Bracket, BracketEvent
from tests.brackets.test_brackets import entries, new_bracket, seed
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def match_html(html: str, match: str) -> str:
    return re.search(rf'<li class="bracket-match[^"]*" id="match-{match}".*?</li>', html, re.S).group(0)


def test_the_td_creates_seeds_records_and_corrects(club, scorer, client):
    ada = Player.objects.create(club=club, name="Ada")
    client.force_login(scorer)
    listing = client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    assert 'id="new-bracket"' in listing
    made = client.post(
        f"/clubs/{club.slug}/brackets/new/", {"name": "Cup", "best_of": "3", "hands": "", "consolation": "1"}
    )
    bracket = Bracket.objects.get()
    page = f"/clubs/{club.slug}/brackets/{bracket.pk}/"
    assert made.status_code == 302 and made["Location"] == page
    assert bracket.header["best_of"] == 3 and bracket.header["consolation"] is True
    assert f'href="{page}"' in client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    html = client.get(page).content.decode()
    assert 'id="seed-form"' in html and 'id="not-seeded"' in html

    lines = "Team Ada: ada, Guest\nBlue: Cy, Di\nRed: Ed, Flo\nGreen: Gil, Hal"
    client.post(page, {"seq": 0, "by": "hand", "entries": lines, "tournament": "", "top": ""})
    stored = BracketEvent.objects.get(bracket=bracket)
    assert stored.payload["entries"][0] == {"entry": "1", "players": [ada.pk, "Guest"], "name": "Team Ada"}
    html = client.get(page).content.decode()
    assert 'id="seed-form"' not in html
    first = match_html(html, "W1-1")
    assert "Team Ada" in first and "Green" in first and "Record the result" in first
    # a stale page stores nothing; an undecided match is refused in words
    client.post(page, {"seq": 0, "match": "W1-1", "games": "600-400, 700-300"})
    assert BracketEvent.objects.filter(bracket=bracket).count() == 1
    refused = client.post(page, {"seq": 1, "match": "W1-1", "games": "600-400"}, follow=True).content.decode()
    assert 'data-code="result_invalid"' in refused
    client.post(page, {"seq": 1, "match": "W1-1", "games": "600-400, 300-700, 1000-0"})
    client.post(page, {"seq": 2, "match": "W1-2", "games": "100-900, 200-800"})
    html = client.get(page).content.decode()
    final = match_html(html, "W2-1")
    assert "Team Ada" in final and "Red" in final
    assert 'id="bracket-consolation"' in html, "the first round's losers play on"
    # a correction needs a reason
    no_reason = client.post(page, {"seq": 3, "match": "W1-2", "games": "900-100, 800-200", "correct": "1"}, follow=True)
    assert 'data-code="reason_required"' in no_reason.content.decode()
    client.post(
        page, {"seq": 3, "match": "W1-2", "games": "900-100, 800-200", "correct": "1", "reason": "sheet swapped"}
    )
    html = client.get(page).content.decode()
    assert "Blue" in match_html(html, "W2-1") and "<q>sheet swapped</q>" in match_html(html, "W1-2")
    client.post(page, {"seq": 4, "match": "W2-1", "games": "", "walkover": "1", "reason": "Blue went home"})
    html = client.get(page).content.decode()
    assert re.search(r'id="bracket-winner">Winner: Team Ada', html)
    printed = client.get(page + "?print=1").content.decode()
    assert "Record the result" not in printed and 'id="print-link"' not in printed and "Team Ada" in printed
    # the same bracket as a PDF: rules, the winner, each match's sides with seeds and games won
    assert f'href="{page}bracket.pdf"' in html
    pdf = client.get(page + "bracket.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Each match is the best of 3 games." in text and "Winner: Team Ada" in text
    assert "W1-1 (1) Team Ada" in text and "(4) Green" in text and "2 : 1" in text
    assert "W1-2 (2) Blue" in text and "(3) Red" in text and "2 : 0" in text  # as corrected
    assert "Consolation bracket" in text


def test_seeding_from_a_tournament_on_the_page(club, scorer, client):
    from tests.seasons.test_seasons import played_evening

    tid = played_evening(client_for(scorer), {1: [[70, 30]], 2: [[45, 55]]})
    bid = new_bracket(client_for(scorer))
    client.force_login(scorer)
    page = f"/clubs/{club.slug}/brackets/{bid}/"
    assert f'<option value="{tid}">' in client.get(page).content.decode()
    client.post(page, {"seq": 0, "by": "previous_stage", "entries": "", "tournament": tid, "top": "2"})
    seeded = BracketEvent.objects.get(bracket_id=bid)
    assert len(seeded.payload["entries"]) == 2 and seeded.payload["by"] == "previous_stage"


def test_a_reader_sees_the_page_without_the_forms(club, scorer, client, make_user, make_club):
    api = client_for(scorer)
    bid = new_bracket(api)
    assert seed(api, bid, {"expected_seq": 0, "by": "hand", "entries": entries(4)}).status_code == 201
    html = client.get(f"/clubs/{club.slug}/brackets/{bid}/").content.decode()
    assert 'id="match-W1-1"' in html and "Record the result" not in html
    assert (
        client.post(f"/clubs/{club.slug}/brackets/{bid}/", {"seq": 1, "match": "W1-1", "games": "1-0"}).status_code
        == 404
    )
    assert client.get(f"/clubs/elsewhere/brackets/{bid}/").status_code == 404
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    assert client.post(f"/clubs/{club.slug}/brackets/new/", {"name": "X", "best_of": "1"}).status_code == 404
    assert not Bracket.objects.filter(name="X").exists()
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    hidden = new_bracket(client_for(owner), club="private")
    assert client.get(f"/clubs/private/brackets/{hidden}/").status_code == 404
    assert client.get(f"/clubs/private/brackets/{hidden}/bracket.pdf").status_code == 404
