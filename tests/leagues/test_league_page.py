"""The league's page (issue 36, item 2): the table with its promotion and relegation places in
words, the fixtures round by round with results and dates, the corrections' reasons; listed on the
club's tournaments page; hidden with a members-only club."""

from __future__ import annotations

import re

import pytest

from tests.conftest import client_for
from tests.leagues.test_leagues import HEADER, add, new_league, result

pytestmark = pytest.mark.django_db

#: group North of docs/tournament.md's worked example, leg 1 and the start of leg 2
EVENTS = [
    result("R1-1", [1030, 570]),
    result("R1-2", [1005, 895]),
    result("R2-1", [1100, 600]),
    result("R2-2", [700, 1010]),
    result("R3-1", [1050, 750]),
    result("R3-2", [1020, 980]),
    {"type": "match_scheduled", "match": "R4-1", "date": "2027-03-02", "reason": "cup match"},
    result("R4-2", [1000, 800]),
    {"type": "match_corrected", "match": "R4-2", "score": [1040, 560], "reason": "a hand added twice"},
]


def test_the_league_page_shows_the_table_fixtures_and_corrections(club, scorer, client):
    api = client_for(scorer)
    lid = new_league(api)
    assert add(api, lid, EVENTS, 0).status_code == 201
    listing = client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    assert f'href="/clubs/{club.slug}/leagues/{lid}/"' in listing
    html = client.get(f"/clubs/{club.slug}/leagues/{lid}/").content.decode()
    table = re.search(r'<table[^>]*id="league-table".*?</table>', html, re.S).group(0)
    rows = re.findall(r'<tr data-entry="(\w+)"(?: class="zone-(\w+)")?>', table)
    # Foxes 9; Hares 6 and Owls 6, the Hares above on head to head (R3-1); Bears 0
    api_rows = api.get(f"/api/leagues/{lid}/").json()["league"]["table"]
    assert [e for e, _ in rows] == [r["entry"] for r in api_rows] == ["foxes", "hares", "owls", "bears"]
    assert rows[0][1] == "promotion" and rows[-1] == ("bears", "relegation")
    assert rows[1][1] == "" and rows[2][1] == ""
    assert "Anna, Ben" in table
    assert "7 of 12 matches played." in html
    r4 = re.search(r'<section class="league-round" id="round-4">.*?</section>', html, re.S).group(0)
    assert "Round 4 (leg 2)" in r4 and "2027-03-02" in r4 and "Bears – Hares" in r4
    assert re.search(
        r"Foxes – Owls: <strong class=\"score\">1040 : 560</strong> <span class=\"vp\">\(3 : 0\)</span>", r4
    )
    assert "corrected" in r4
    assert "<q>a hand added twice</q>" in html


def test_a_members_only_clubs_league_page_is_hidden(make_club, make_user, client):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    lid = new_league(client_for(owner), club="private")
    assert client.get(f"/clubs/private/leagues/{lid}/").status_code == 404
    client.force_login(owner)
    assert client.get(f"/clubs/private/leagues/{lid}/").status_code == 200
    assert client.get(f"/clubs/home/leagues/{lid}/").status_code == 404  # another club's address


def test_an_odd_fields_rounds_say_who_sits_out(club, scorer, client):
    header = {**HEADER, "entries": HEADER["entries"][:3], "legs": 1, "promotion": 0, "relegation": 0}
    lid = new_league(client_for(scorer), header)
    html = client.get(f"/clubs/{club.slug}/leagues/{lid}/").content.decode()
    assert html.count("Sits out:") == 3 and "0 of 3 matches played." in html


def test_the_td_creates_a_league_and_enters_and_corrects_a_result(club, scorer, client, make_user):
    from games.models import Membership
    from games.tournaments.models import League, LeagueEvent

    client.force_login(scorer)
    listing = client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    assert 'id="new-league"' in listing
    form = {
        "name": "League 2027",
        "teams": "Owls: Anna, Ben\nFoxes: Cleo, Dan\n\nBears: Eva, Finn\n",
        "legs": "2",
        "scoring": "box",
        "three_points": "on",
        "promotion": "1",
        "relegation": "0",
    }
    made = client.post(f"/clubs/{club.slug}/leagues/new/", form)
    league = League.objects.get()
    page = f"/clubs/{club.slug}/leagues/{league.pk}/"
    assert made.status_code == 302 and made["Location"] == page
    assert [e["name"] for e in league.header["entries"]] == ["Owls", "Foxes", "Bears"]
    assert league.header["entries"][0]["players"] == ["Anna", "Ben"] and league.header["legs"] == 2
    assert league.header["match_points"] == {"win": 3, "draw": 1, "loss": 0}
    bad = client.post(f"/clubs/{club.slug}/leagues/new/", {**form, "teams": "Owls Anna Ben"}, follow=True)
    assert League.objects.count() == 1 and "Not stored" in bad.content.decode()

    html = client.get(page).content.decode()
    assert html.count("Enter the result") == 6  # three teams, two legs
    match = re.search(r'<li data-match="(R\d+-\d+)">', html).group(1)
    client.post(page, {"seq": 0, "match": match, "action": "result", "home": 1005, "away": 895, "date": "2027-01-12"})
    assert LeagueEvent.objects.filter(league=league).count() == 1
    stored = LeagueEvent.objects.get(league=league)
    assert stored.payload == {"match": match, "score": [1005, 895], "date": "2027-01-12"}
    # the same match again (another tab, the old seq): refused in words, nothing stored
    again = client.post(page, {"seq": 0, "match": match, "action": "result", "home": 1, "away": 2}, follow=True)
    assert "data-code=" in again.content.decode() and LeagueEvent.objects.count() == 1
    # a correction needs its reason
    no_reason = {"seq": 1, "match": match, "action": "correct", "home": 895, "away": 1005}
    refused = client.post(page, no_reason, follow=True).content.decode()
    assert 'data-code="reason_required"' in refused and LeagueEvent.objects.count() == 1
    client.post(page, {**no_reason, "reason": "sheet read backwards"})
    assert LeagueEvent.objects.count() == 2
    html = client.get(page).content.decode()
    assert "<q>sheet read backwards</q>" in html and "Correct the result" in html
    # the teams' own date for a match not played yet
    later = re.findall(r'<li data-match="(R\d+-\d+)">', html)[-1]
    client.post(page, {"seq": 2, "match": later, "action": "schedule", "date": "2027-04-01", "reason": "cup week"})
    assert LeagueEvent.objects.count() == 3
    assert LeagueEvent.objects.last().payload == {"match": later, "date": "2027-04-01", "reason": "cup week"}
    assert "2027-04-01" in client.get(page).content.decode()
    # a viewer of the club reads the page but has no form, and may not post
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    assert "Enter the result" not in client.get(page).content.decode()
    assert client.post(page, {**no_reason, "seq": 3, "reason": "x"}).status_code == 404
    assert LeagueEvent.objects.count() == 3


def test_the_td_takes_a_matchs_result_from_the_tables_game(club, scorer, client):
    """The page's "from the table's game" form: the club's finished games to choose from (not one
    in play, not one another match has), the link stored alone, the match then read from the game."""
    from games.tournaments.models import LeagueEvent
    from tests.api.helpers import grand_double
    from tests.api.test_append import create_game

    api = client_for(scorer)
    lid = new_league(api)
    done, playing = create_game(api, club), create_game(api, club)
    events = {"expected_seq": 0, "events": [grand_double(0)] * 3}
    assert api.post(f"/api/games/{done}/events/", events, format="json").status_code == 201
    client.force_login(scorer)
    page = f"/clubs/{club.slug}/leagues/{lid}/"
    html = client.get(page).content.decode()
    choices = set(re.findall(r'<option value="(\d+)">', html))
    assert str(done) in choices and str(playing) not in choices
    client.post(page, {"seq": 0, "match": "R1-1", "action": "from_game", "game": done})
    assert LeagueEvent.objects.get(league_id=lid).payload == {"match": "R1-1", "game": done}
    html = client.get(page).content.decode()
    assert "1200 : 0" in html and "from its game" in html
    assert str(done) not in set(re.findall(r'<option value="(\d+)">', html))  # one match a game
    # a game still in play is refused in words, nothing stored
    refused = client.post(page, {"seq": 1, "match": "R1-2", "action": "from_game", "game": playing}, follow=True)
    assert 'data-code="game_not_over"' in refused.content.decode() and LeagueEvent.objects.count() == 1
