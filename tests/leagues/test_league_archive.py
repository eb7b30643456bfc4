"""A club's leagues travel in the club archive (docs/club-archive.md): the header's roster
players and a result's game mapped to the copy's ids; a league the core refuses is refused with
`league_refused`, storing nothing."""

from __future__ import annotations

import io

import pytest

from games.clubs.archive import ArchiveError, import_archive
from games.models import Club, Player
from games.tournaments import leagues
from games.tournaments.models import League, LeagueEvent
from tests.api.helpers import grand_double
from tests.api.test_append import create_game
from tests.clubs.test_archive import exported, lines, packed
from tests.leagues.test_leagues import add, new_league

pytestmark = pytest.mark.django_db


def _club_with_a_league(club, scorer_client) -> int:
    ada = Player.objects.create(club=club, name="Ada")
    game = create_game(scorer_client, club)
    events = {"expected_seq": 0, "events": [grand_double(0)] * 3}
    assert scorer_client.post(f"/api/games/{game}/events/", events, format="json").status_code == 201
    header = {
        "entries": [{"entry": "a", "players": [ada.pk, "Guest"]}, {"entry": "b", "players": ["Bo"]}],
        "scoring": "box",
    }
    lid = new_league(scorer_client, header)
    assert add(scorer_client, lid, [{"type": "match_result", "match": "R1-1", "game": game}], 0).status_code == 201
    return lid


def test_a_league_is_carried_with_its_ids_mapped(club, scorer_client):
    lid = _club_with_a_league(club, scorer_client)
    done = import_archive(io.BytesIO(exported(club)), slug="copy")
    league = League.objects.get(club=done.club)
    assert league.pk != lid and league.seq == 1
    copy_ada = Player.objects.get(club=done.club, name="Ada")
    assert league.header["entries"][0]["players"] == [copy_ada.pk, "Guest"]
    event = LeagueEvent.objects.get(league=league)
    assert event.payload["game"] == done.club.games.get().pk != League.objects.get(pk=lid).club.games.get().pk
    assert "hands" not in event.payload  # the link alone: the numbers are the game's
    copy, first = (
        leagues.league_view(x)["league"]["rounds"][0]["matches"][0] for x in (league, League.objects.get(pk=lid))
    )
    assert copy["from_game"] and copy["score"] == first["score"] and copy["hands"] == first["hands"]


def test_a_league_the_core_refuses_is_refused_and_nothing_stored(club, scorer_client):
    _club_with_a_league(club, scorer_client)
    rows = lines(exported(club))
    for row in rows:
        if row.get("t") == "league":
            row["header"] = {**row["header"], "legs": 5}
    clubs = Club.objects.count()
    with pytest.raises(ArchiveError) as err:
        import_archive(io.BytesIO(packed(rows)), slug="copy")
    assert err.value.code == "league_refused" and Club.objects.count() == clubs
    rows = lines(exported(club))
    for row in rows:
        if row.get("t") == "league_event":
            row["payload"] = {**row["payload"], "match": "R9-9"}
    with pytest.raises(ArchiveError) as err:
        import_archive(io.BytesIO(packed(rows)), slug="copy2")
    assert err.value.code == "league_refused" and Club.objects.count() == clubs
