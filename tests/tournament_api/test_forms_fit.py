"""Forms that fit the choice, refusals that say what to do (issue 33, finding 5), and numbers that
do not mislead on the pages (finding 7): served without script, as a browser without it sees them."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from games.models import Club
from games.tournaments.models import Tournament
from replay.tournaments import explanation_words
from tests.conftest import client_for
from tests.tournament_api.test_api import append, create, register_pairs

NEW = {
    "name": "Thursday",
    "entrants": "individuals",
    "system": "swiss",
    "scoring": "round_vp",
    "rounds": "3",
    "length": "hands",
    "hands_per_round": "4",
    "target": "1000",
    "tiebreak_1": "",
    "tiebreak_2": "",
    "tiebreak_3": "",
    "bye_result": "win",
    "bye_points": "0",
    "late_entry": "loss",
    "withdrawal": "ranked",
}
CODE_IN_BRACKETS = re.compile(r"\((malformed|pairing_impossible|[a-z]+_[a-z_]+)\)")


@pytest.mark.django_db
def test_individuals_on_swiss_are_told_what_to_choose_at_the_system_field(club, scorer, client):
    """Without script the system stays on Swiss: the refusal was "system for individuals must be one
    of individual, manual, not 'swiss' (malformed)" above the form."""
    client.force_login(scorer)
    page = client.post(f"/clubs/{club.slug}/tournaments/new/", NEW)
    assert page.status_code == 200 and not Tournament.objects.exists()
    html = page.content.decode()
    error = re.search(r'<span class="error" role="alert" id="error-system">(.*?)</span></span>', html, re.S)
    assert error, html
    assert 'data-code="malformed"' in error.group(1)
    assert "choose “Individual” or “Manual” as the system" in error.group(1)
    assert "not 'swiss'" not in html and not CODE_IN_BRACKETS.search(html)
    fixed = client.post(f"/clubs/{club.slug}/tournaments/new/", {**NEW, "system": "individual"})
    assert fixed.status_code == 302 and Tournament.objects.get().header["system"] == "individual"


@pytest.mark.django_db
def test_the_form_carries_the_cores_systems_for_its_script(club, scorer, client):
    client.force_login(scorer)
    html = client.get(f"/clubs/{club.slug}/tournaments/new/").content.decode()
    assert '"individuals": ["individual", "manual"]' in html and "tournaments/new_form.js" in html
    for field in ("grand_tichu", "target", "hands_per_round", "bye_result"):
        assert f'data-field="{field}"' in html


@pytest.mark.django_db
def test_a_refused_pairing_says_what_to_do_without_its_code(club, scorer, client):
    client.force_login(scorer)
    tid = create(client_for(scorer))["id"]
    page = client.get(f"/tournaments/{tid}/pair/", follow=True)
    html = page.content.decode()
    assert 'data-code="pairing_impossible"' in html
    assert "Register more entries (two pairs, or four players), then pair the round again." in html
    assert "(pairing_impossible)" not in html and not CODE_IN_BRACKETS.search(html)


@pytest.mark.django_db
def test_a_refused_action_keeps_its_code_out_of_the_words(club, scorer, client):
    client.force_login(scorer)
    api = client_for(scorer)
    tid = create(api)["id"]
    register_pairs(api, tid)
    seq = Tournament.objects.get(pk=tid).seq
    api_paired = api.get(f"/api/tournaments/{tid}/pairing/").json()
    assert append(api, tid, [api_paired["event"]], seq).status_code == 201
    page = client.post(f"/tournaments/{tid}/act/", {"action": "close", "seq": seq + 1}, follow=True)
    html = page.content.decode()
    said = re.search(r'<span class="refusal" data-code="results_missing">(.*?)</span>', html, re.S)
    assert said, html
    assert unescape(said.group(1)).endswith("Enter or take the missing tables' results, then close the round.")
    assert not CODE_IN_BRACKETS.search(html)


@pytest.mark.django_db
def test_withdrawing_asks_to_confirm(club, scorer, client):
    client.force_login(scorer)
    api = client_for(scorer)
    tid = create(api)["id"]
    register_pairs(api, tid)
    html = client.get(f"/tournaments/{tid}/").content.decode()
    entry = re.search(r'<li data-entry="e0">.*?</li>', html, re.S).group(0)
    confirm = re.search(r'<details class="confirm" data-confirm="withdraw">(.*?)</details>', entry, re.S)
    assert confirm, entry
    assert entry.count('value="withdraw"') == 1 and 'value="withdraw"' in confirm.group(1), (
        "the only withdraw button is inside the confirmation"
    )
    assert "Withdraw Anna &amp; Ben?" in confirm.group(1) and "Yes, withdraw Anna &amp; Ben" in confirm.group(1)


@translation.override("en")  # a page asked in another language before leaves it active in this thread
def test_the_pairing_is_said_in_a_players_words_first():
    design = {"system": "individual", "design": {"players": 8, "group": "Z7", "fixed_point": True, "round": 1, "of": 7}}
    assert explanation_words.plain(design) == (
        "Over 7 rounds everyone partners everyone else exactly once and meets everyone else twice as an opponent."
    )
    five = {"system": "individual", "design": {"players": 5, "group": "Z5", "fixed_point": False, "round": 1, "of": 5}}
    assert "sits out once" in explanation_words.plain(five)
    assert "whist" not in explanation_words.plain(design) and "Z7" not in explanation_words.plain(design)
    assert "whist design" in explanation_words.method(design), "the algebra stays, behind details"
    for system in ("swiss", "round_robin", "duplicate", "manual"):
        assert explanation_words.plain({"system": system})


@pytest.mark.django_db
def test_the_pairing_page_puts_the_algebra_behind_details(club, scorer, client):
    client.force_login(scorer)
    api = client_for(scorer)
    header = {"entrants": "individuals", "system": "individual", "scoring": "round_vp", "rounds": 3}
    tid = create(api, header=header)["id"]
    events = [
        {"type": "entry_registered", "entry": f"p{i}", "players": [name]}
        for i, name in enumerate(["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna"])
    ]
    assert append(api, tid, events, 0).status_code == 201
    html = client.get(f"/tournaments/{tid}/pair/").content.decode()
    plain = html.index('id="explanation-plain"')
    details = html.index('<details id="explanation-details">')
    assert plain < details < html.index("whist design")
    assert "everyone partners everyone else exactly once" in html[plain:details]


@pytest.mark.django_db
def test_no_rank_before_the_first_result_and_one_heading_per_table(club, scorer, client):
    client.force_login(scorer)
    api = client_for(scorer)
    tid = create(api)["id"]
    register_pairs(api, tid)
    for path in (f"/tournaments/{tid}/", f"/tournaments/{tid}/standings/"):
        html = client.get(path).content.decode()
        table = re.search(r'<table class="list standings".*?</table>', html, re.S).group(0)
        ranks = re.findall(r'<tr data-entry="[^"]+" class="[^"]*">\s*<td class="num">([^<]*)</td>', table)
        assert ranks == ["–"] * 4, ranks
        assert 'id="no-ranks"' in html
        assert "<caption>" not in table and 'aria-labelledby="standings-heading"' in table
        heading = re.search(r'<h[12] id="standings-heading">(.*?)</h[12]>', html, re.S).group(1)
        assert "Standings" in heading and html.count(">Standings<") == 1, "one heading names the standings"


@pytest.mark.django_db
def test_the_new_club_form_asks_for_the_time_zone(scorer, client):
    client.force_login(scorer)
    html = client.get("/new-club/").content.decode()
    assert 'name="time_zone"' in html and 'list="time-zones"' in html and '<option value="Europe/Berlin">' in html
    bad = client.post("/new-club/", {"name": "Tuesday", "visibility": "public", "time_zone": "Mars/Olympus"})
    assert bad.status_code == 200 and "is not a time zone this site knows" in bad.content.decode()
    assert not Club.objects.filter(name="Tuesday").exists()
    client.post(
        "/new-club/",
        {"name": "Tuesday", "visibility": "public", "time_zone": "Europe/Vienna", "reveal_hands": "after_hand"},
    )
    assert Club.objects.get(name="Tuesday").time_zone == "Europe/Vienna"
