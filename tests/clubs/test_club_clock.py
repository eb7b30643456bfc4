"""Every club-scoped page reads at the club's clock (Club.time_zone; replay/templatetags/
club_clock.py, wrapped around every page's content by base.html): a 19:00 UTC instant of a winter
evening is 20:00 on a Berlin club's tournament page, table page (the entry page a table code
opens), imports page and members page, and 19:00 on a UTC club's; the page names its clock once,
where it shows a time of day."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from django.test import Client
from django.utils import timezone as django_timezone

from games.clubs.models import Invitation
from games.models import Club, Event, ImportJob, Membership
from games.tournaments.models import Tournament
from tests.tournament_api.test_api import HEADER, create, pair_next_round, register_pairs
from tests.tournament_api.test_table_codes import post_hand, with_code

INSTANT = datetime(2026, 1, 15, 19, 0, tzinfo=timezone.utc)  # winter: Berlin is UTC+01:00
CLOCKS = [("Europe/Berlin", "2026-01-15T20:00:00+01:00", "20:00"), ("UTC", "2026-01-15T19:00:00+00:00", "19:00")]


def two_hand_round(client) -> tuple[int, str, int]:
    """A tournament of four pairs, two hands a round (one hand leaves the game open, so the code
    opens its entry page), round 1 paired and its games made: (id, table 1's code, its game)."""
    tid = create(client, header={**HEADER, "hands_per_round": 2})["id"]
    register_pairs(client, tid)
    pair_next_round(client, tid)
    games = {g["table"]: g["game"] for g in client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()}
    codes = {r["table"]: r["printed"] for r in client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    return tid, codes[1], games[1]


def page(client: Client, url: str, follow: bool = False) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de", follow=follow)
    assert response.status_code == 200, url
    return response.content.decode()


def assert_at_clock(html: str, zone: str, iso: str, wall: str) -> None:
    assert f'datetime="{iso}"' in html
    assert re.search(rf'<time [^>]*datetime="{re.escape(iso)}"[^>]*>[^<]*\b{wall}</time>', html)  # 15.01.2026 20:00
    assert html.count('id="clock-note"') == 1  # named once
    assert f"Zeitzone {zone}." in html


@pytest.mark.django_db
@pytest.mark.parametrize(("zone", "iso", "wall"), CLOCKS)
def test_tournament_and_table_pages_at_the_clubs_clock(club, scorer, scorer_client, monkeypatch, zone, iso, wall):
    Club.objects.filter(pk=club.pk).update(time_zone=zone)
    tid, code, game = two_hand_round(scorer_client)
    Tournament.objects.filter(pk=tid).update(created_at=INSTANT)
    with monkeypatch.context() as m:  # events are append-only: the hand is recorded at 19:00 UTC
        m.setattr(django_timezone, "now", lambda: INSTANT)
        assert post_hand(with_code(code), game).status_code == 201
    assert Event.objects.get(game_id=game, seq=1).recorded_at == INSTANT

    td = Client()
    td.force_login(scorer)
    assert_at_clock(page(td, f"/tournaments/{tid}/"), zone, iso, wall)  # "begonnen am 15.01.2026 20:00"
    # the club's list of tournaments: its date at the club's clock too
    assert '<time datetime="2026-01-15">' in page(td, f"/clubs/{club.slug}/tournaments/")
    # the table's page: the code opens its game's entry page, the history's times at the club's clock
    table = page(Client(), f"/t/{code}/", follow=True)
    assert_at_clock(table, zone, iso, wall)
    # the history alone, as the page's script fetches it: the same clock, no second line naming it
    panels = td.get(f"/games/{game}/enter/panels/", HTTP_ACCEPT_LANGUAGE="de").json()["history"]
    assert f'datetime="{iso}"' in panels and 'id="clock-note"' not in panels


@pytest.mark.django_db
@pytest.mark.parametrize(("zone", "iso", "wall"), CLOCKS)
def test_imports_and_members_pages_at_the_clubs_clock(make_club, make_user, zone, iso, wall):
    admin = make_user("ada")
    club = make_club("clock")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    Club.objects.filter(pk=club.pk).update(time_zone=zone)
    job = ImportJob.objects.create(club=club, files_total=2, files_done=2, games_stored=2, finished_at=INSTANT)
    ImportJob.objects.filter(pk=job.pk).update(started_at=INSTANT)
    c = Client()
    c.force_login(admin)
    assert_at_clock(page(c, "/clubs/clock/imports/"), zone, iso, wall)
    # an invitation's expiry, on the members page and on the invitation's own page
    expires = INSTANT.replace(year=2027)  # a winter evening still to come
    invitation = Invitation.objects.create(club=club, created_by=admin, expires_at=expires)
    later = (iso.replace("2026", "2027"), wall)
    assert_at_clock(page(c, "/clubs/clock/members/"), zone, *later)
    assert_at_clock(page(Client(), f"/invitations/{invitation.token}/"), zone, *later)


@pytest.mark.django_db
def test_a_page_without_times_or_without_a_club_names_no_club_clock(make_club):
    make_club("quiet")
    Club.objects.filter(slug="quiet").update(time_zone="Europe/Berlin")
    listing = page(Client(), "/clubs/")
    assert "Europe/Berlin" not in listing  # the clubs' list: no club's clock
    assert 'id="clock-note"' not in page(Client(), "/clubs/quiet/players/")  # no time shown there
