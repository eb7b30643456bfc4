"""The roster: names unique regardless of case and surrounding spaces, several added at once,
renames and merges that every page and the API follow, each audited."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.clubs import services
from games.clubs.models import AuditEntry
from games.engine import random_game
from games.models import GameSeat, Membership, Player
from games.ratings.models import PlayerRating
from games.services import InvalidInput, WriteForbidden, game_import
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user, make_club):
    club = make_club("home")
    admin, scorer = make_user("ada"), make_user("sam")
    Membership.objects.create(club=club, user=admin, role="admin")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    club.admin, club.scorer = admin, scorer
    return club


def game_with(club, names, seed=1):
    return game_import(club=club, record=random_game(seed, players=names), user=club.admin).body["id"]


def test_the_database_refuses_a_name_differing_only_by_case_or_spaces(club):
    Player.objects.create(club=club, name="Anna")
    for clash in ("anna", "ANNA", " Anna ", "anna  "):
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.objects.create(club=club, name=clash)
    Player.objects.create(club=club, name="Anna B")  # another name is fine


def test_several_names_at_once_trimmed_and_deduplicated(club):
    Player.objects.create(club=club, name="Anna")
    created, existing = services.players_add(
        club=club, actor=club.scorer, names=["  bob ", "", "anna", "Cid", "BOB", "   "]
    )
    assert [p.name for p in created] == ["bob", "Cid"] and existing == ["Anna"]
    assert sorted(club.players.values_list("name", flat=True)) == ["Anna", "Cid", "bob"]
    assert AuditEntry.objects.get(club=club, action="players_added").actor_name == "sam"


def test_players_for_names_finds_creates_and_matches_case_and_spaces_in_a_few_statements(club):
    """The players of a game (or of an imported file) in order: a stored name in another case or
    spacing is its player, a name twice (any spelling) one player, a new name created once, in
    at most four statements whatever the number of names (the bulk import asks per file)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services import players_for_names

    anna = Player.objects.create(club=club, name="Anna")
    names = [" anna", "Bob", "Anna", "BOB ", "Cid", "Dee", "Eve", "Fay"]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        players = players_for_names(club=club, names=names)
    by = {p.name: p for p in Player.objects.filter(club=club)}
    assert sorted(by) == ["Anna", "Bob", "Cid", "Dee", "Eve", "Fay"]
    assert [p.pk for p in players] == [
        anna.pk,
        by["Bob"].pk,
        anna.pk,
        by["Bob"].pk,
        *(by[n].pk for n in "Cid Dee Eve Fay".split()),
    ]
    assert len([q for q in queries if "games_player" in q["sql"]]) <= 4 + 2  # + one lookup per other spelling
    assert [p.pk for p in players_for_names(club=club, names=["Fay", "eve"])] == [by["Fay"].pk, by["Eve"].pk]


def test_api_player_create_and_game_names_follow_the_roster(club):
    Player.objects.create(club=club, name="Anna")
    response = client_for(club.scorer).post("/api/players/", {"club": club.slug, "name": " ANNA "}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "duplicate")
    game = client_for(club.scorer).post(
        "/api/games/", {"club": "home", "variant": "nanking", "players": ["anna ", "Bob", "Cid", "Dee"]}, format="json"
    )
    assert game.status_code == 201
    assert client_for(club.scorer).get(f"/api/games/{game.json()['id']}/").json()["players"][0] == "Anna"
    assert club.players.filter(name__iexact="anna").count() == 1


def test_rename_shows_everywhere_at_once_even_where_cached(club, client):
    game_id = game_with(club, ["Ann", "Bob", "Cid", "Dee"])
    api = client_for(club.admin)
    # read (and so cache) the state and pages under the old name first
    assert api.get(f"/api/games/{game_id}/state/").json()["players"][0] == "Ann"
    client.force_login(club.admin)
    assert "Ann &amp; Cid" in client.get("/clubs/home/").content.decode()
    ann = Player.objects.get(club=club, name="Ann")
    services.player_rename(player=ann, actor=club.admin, name="  Annabel ")
    assert api.get(f"/api/games/{game_id}/state/").json()["players"][0] == "Annabel"
    assert api.get(f"/api/games/{game_id}/record/").json()["players"][0] == "Annabel"
    assert "Annabel &amp; Cid" in client.get("/clubs/home/").content.decode()
    assert "Annabel" in client.get(f"/games/{game_id}/").content.decode()
    assert "Annabel" in client.get(f"/games/{game_id}/replay/").content.decode()
    entry = AuditEntry.objects.get(club=club, action="player_renamed")
    assert (entry.details["old"], entry.details["new"], entry.actor_name) == ("Ann", "Annabel", "ada")


def test_rename_refuses_another_players_name_and_non_admins(club):
    Player.objects.create(club=club, name="Anna")
    bob = Player.objects.create(club=club, name="Bob")
    with pytest.raises(InvalidInput):
        services.player_rename(player=bob, actor=club.admin, name="anna")
    with pytest.raises(WriteForbidden):
        services.player_rename(player=bob, actor=club.scorer, name="Robert")
    assert sorted(club.players.values_list("name", flat=True)) == ["Anna", "Bob"]


def test_merge_moves_the_games_recomputes_the_league_and_says_so(club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the rating tasks run on commit
        first = game_with(club, ["Ann", "Bob", "Cid", "Dee"], seed=1)
        second = game_with(club, ["Anne", "Bob", "Cid", "Dee"], seed=2)
    ann, anne = Player.objects.get(club=club, name="Ann"), Player.objects.get(club=club, name="Anne")
    assert PlayerRating.objects.filter(player=anne).exists()  # rated under the second name
    with django_capture_on_commit_callbacks(execute=True):
        services.player_merge(source=anne, target=ann, actor=club.admin)
    assert not Player.objects.filter(pk=anne.pk).exists()
    assert set(GameSeat.objects.filter(player=ann).values_list("game_id", flat=True)) == {first, second}
    # the league now rates Ann for both games, and nobody under the old name
    rating = PlayerRating.objects.get(player=ann)
    assert rating.games == 2
    entry = AuditEntry.objects.get(club=club, action="players_merged")
    assert entry.details["games"] == [second] and entry.details["source_name"] == "Anne"
    assert client_for(club.admin).get(f"/api/games/{second}/").json()["players"][0] == "Ann"


def test_two_players_of_one_game_cannot_be_merged(club):
    game_with(club, ["Ann", "Bob", "Cid", "Dee"])
    ann, bob = Player.objects.get(club=club, name="Ann"), Player.objects.get(club=club, name="Bob")
    with pytest.raises(InvalidInput) as err:
        services.player_merge(source=bob, target=ann, actor=club.admin)
    assert err.value.code == "merge_conflict"
    assert Player.objects.filter(pk=bob.pk).exists()


def test_admin_links(club, make_user):
    viewer = make_user("vic")
    Membership.objects.create(club=club, user=viewer, role="viewer")
    ann, bob = Player.objects.create(club=club, name="Ann"), Player.objects.create(club=club, name="Bob")
    with pytest.raises(
        WriteForbidden
    ):  # a member does not link, even themselves: they ask (tests/clubs/test_claims.py)
        services.player_link(player=ann, actor=viewer, user_id=viewer.pk)
    services.player_link(player=ann, actor=club.admin, user_id=viewer.pk)
    with pytest.raises(WriteForbidden):
        services.player_link(player=bob, actor=viewer, user_id=club.scorer.pk)
    with pytest.raises(InvalidInput):  # one player per member
        services.player_link(player=bob, actor=club.admin, user_id=viewer.pk)
    services.player_link(player=bob, actor=club.admin, user_id=club.scorer.pk)
    outsider = make_user("out")
    with pytest.raises(InvalidInput):
        services.player_link(player=ann, actor=club.admin, user_id=outsider.pk)
    assert {p.name: p.user.username for p in club.players.select_related("user")} == {"Ann": "vic", "Bob": "sam"}


def test_rename_and_merge_through_the_api_admins_only(club, django_capture_on_commit_callbacks):
    game_with(club, ["Ann", "Bob", "Cid", "Dee"], seed=1)
    game_with(club, ["Anne", "Bob", "Cid", "Dee"], seed=2)
    bob, anne, ann = (Player.objects.get(club=club, name=n) for n in ("Bob", "Anne", "Ann"))
    scorer, admin = client_for(club.scorer), client_for(club.admin)
    assert scorer.patch(f"/api/players/{bob.pk}/", {"name": "Robert"}, format="json").status_code == 403
    response = admin.patch(f"/api/players/{bob.pk}/", {"name": " ann "}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "duplicate")
    response = admin.patch(f"/api/players/{bob.pk}/", {"name": " Robert "}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "Robert"
    assert scorer.post(f"/api/players/{anne.pk}/merge/", {"into": ann.pk}, format="json").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(f"/api/players/{anne.pk}/merge/", {"into": ann.pk}, format="json")
    assert response.status_code == 200 and response.json()["id"] == ann.pk
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann", "Cid", "Dee", "Robert"]
    assert [e.action for e in AuditEntry.objects.filter(club=club).order_by("id")][-2:] == [
        "player_renamed",
        "players_merged",
    ]


def test_a_merge_stands_when_the_recompute_cannot_be_queued(
    club, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    from games.ratings import tasks

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.recompute_ratings, "delay", broker_down)
    game_with(club, ["Ann", "Bob", "Cid", "Dee"], seed=1)
    game_with(club, ["Anne", "Bob", "Cid", "Dee"], seed=2)
    anne, ann = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Ann")
    with django_capture_on_commit_callbacks(execute=True):
        services.player_merge(source=anne, target=ann, actor=club.admin)
    assert not Player.objects.filter(pk=anne.pk).exists()
    assert f"recompute_ratings --club {club.pk} --refold" in caplog.text


def test_linking_a_user_id_past_the_databases_range_is_not_a_member_not_a_server_error(club):
    """The roster page's `user` is the form's number, any length: past the id column's range it
    names no member (the driver would refuse it in the membership lookup: OverflowError on SQLite)."""
    ann = Player.objects.create(club=club, name="Ann")
    for user_id in (2**63, 10**23):
        with pytest.raises(InvalidInput) as refused:
            services.player_link(player=ann, actor=club.admin, user_id=user_id)
        assert refused.value.code == "not_a_member"
    ann.refresh_from_db()
    assert ann.user_id is None
