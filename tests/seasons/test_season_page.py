"""The season's page (issue 36, item 1): the table, the evenings and the history for a reader; the
TD's forms to create a season (on the club's tournaments page) and to add or remove an evening,
each write with the seq the page was drawn at."""

from __future__ import annotations

import re

import pytest

from games.models import Membership
from games.tournaments.models import Season, SeasonEvent
from tests.conftest import client_for
from tests.seasons.test_seasons import add, played_evening

pytestmark = pytest.mark.django_db


def test_the_td_creates_a_season_then_adds_and_removes_an_evening(club, scorer, client):
    tid = played_evening(client_for(scorer), {1: [[70, 30]], 2: [[45, 55]]})
    client.force_login(scorer)
    listing = client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    assert 'id="new-season"' in listing
    made = client.post(
        f"/clubs/{club.slug}/seasons/new/", {"name": "Season 2027", "scoring": "place", "best": "", "min_evenings": "0"}
    )
    season = Season.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/clubs/{club.slug}/seasons/{season.pk}/"
    assert season.header["best"] is None and season.header["scoring"] == "place"

    page = f"/clubs/{club.slug}/seasons/{season.pk}/"
    client.post(page, {"seq": 0, "action": "add", "tournament": tid, "reason": ""})
    html = client.get(page).content.decode()
    assert SeasonEvent.objects.filter(season=season).count() == 1
    table = re.search(r'<table[^>]*id="season-table".*?</table>', html, re.S).group(0)
    assert table.count("<tr data-player=") == 8  # four pairs, two players each
    assert '<strong class="counts">1. · 4</strong>' in table  # the winning pair's evening, counted
    # a removal without a reason is refused in words, nothing stored
    refused = client.post(page, {"seq": 1, "action": "remove", "tournament": tid, "reason": ""}, follow=True)
    assert 'data-code="reason_required"' in refused.content.decode()
    assert SeasonEvent.objects.filter(season=season).count() == 1
    # a stale page stores nothing
    client.post(page, {"seq": 0, "action": "remove", "tournament": tid, "reason": "short deck"})
    assert SeasonEvent.objects.filter(season=season).count() == 1
    client.post(page, {"seq": 1, "action": "remove", "tournament": tid, "reason": "short deck"})
    html = client.get(page).content.decode()
    history = re.search(r'<ol id="season-history">.*?</ol>', html, re.S).group(0)
    assert "Thursday added" in history and "Thursday removed: <q>short deck</q>" in history
    assert 'id="no-table"' in html


def test_a_reader_sees_the_page_without_the_forms(club, scorer, client, make_user):
    api = client_for(scorer)
    tid = played_evening(api, {1: [[70, 30]], 2: [[45, 55]]})
    sid = api.post("/api/clubs/home/seasons/", {"name": "S"}, format="json").json()["id"]
    assert add(api, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    html = client.get(f"/clubs/{club.slug}/seasons/{sid}/").content.decode()
    assert 'id="season-table"' in html and 'id="add-evening"' not in html and "Remove from the season" not in html
    assert client.post(f"/clubs/{club.slug}/seasons/{sid}/", {"seq": 1, "action": "remove"}).status_code == 404
    assert client.get(f"/clubs/elsewhere/seasons/{sid}/").status_code == 404
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    assert client.post(f"/clubs/{club.slug}/seasons/new/", {"name": "X", "scoring": "place"}).status_code == 404
    assert not Season.objects.filter(name="X").exists()
