"""The tournament API end to end: a club's evening of four pairs over the HTTP API, stored with
the game store's guarantees (append-only, expected_seq, Idempotency-Key, per-club roles)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games import tournament as core
from games.models import Club, Game, Membership
from games.tournaments.models import TableGame, Tournament, TournamentEvent
from tests.conftest import client_for

HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 1}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


def create(client, club="home", **extra) -> dict:
    body = {"club": club, "name": "Thursday", "header": HEADER, **extra}
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def append(client, tid: int, events: list[dict], expected_seq: int, **headers):
    return client.post(
        f"/api/tournaments/{tid}/events/", {"expected_seq": expected_seq, "events": events}, format="json", **headers
    )


def register_pairs(client, tid: int) -> None:
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": players} for i, players in enumerate(PAIRS)]
    assert append(client, tid, events, 0).status_code == 201


def pair_next_round(client, tid: int) -> dict:
    proposal = client.get(f"/api/tournaments/{tid}/pairing/").json()
    assert proposal["ok"], proposal
    response = append(client, tid, [proposal["event"]], proposal["seq"])
    assert response.status_code == 201, response.json()
    return proposal["event"]


def play_round(client, tid: int, round_number: int, points_by_table: dict[int, tuple[int, int]]) -> None:
    games = client.post(f"/api/tournaments/{tid}/rounds/{round_number}/games/").json()
    for link in games:
        north_south, east_west = points_by_table[link["table"]]
        hand = {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [north_south, east_west]}
        response = client.post(
            f"/api/games/{link['game']}/events/", {"expected_seq": 0, "events": [hand]}, format="json"
        )
        assert response.status_code == 201, response.json()
        assert response.json()["status"] == "finished"  # one hand a round: the game is over
        seq = client.get(f"/api/tournaments/{tid}/").json()["seq"]
        response = client.post(
            f"/api/tournaments/{tid}/rounds/{round_number}/tables/{link['table']}/result-from-game/", {}, format="json"
        )
        assert response.status_code == 201, response.json()
        assert response.json()["seq"] == seq + 1


@pytest.mark.django_db
def test_an_evening_from_registration_to_standings(club, scorer_client):
    tid = create(scorer_client, club="home")["id"]  # the club by slug
    register_pairs(scorer_client, tid)
    stored = TournamentEvent.objects.filter(tournament_id=tid, type="entry_registered").order_by("seq")
    anna_ben = stored[0].payload
    assert all(isinstance(p, int) for p in anna_ben["players"]), "players are stored as the club's player ids"
    assert anna_ben["name"] == "Anna & Ben"

    first = pair_next_round(scorer_client, tid)
    play_round(scorer_client, tid, 1, {1: (70, 30), 2: (45, 55)})
    links = TableGame.objects.filter(tournament_id=tid, round=1).order_by("table")
    table1 = next(t for t in first["tables"] if t["table"] == 1)
    north_south = [
        p
        for entry in table1["sides"][0]
        for p in Tournament.objects.get(pk=tid)
        .events.get(type="entry_registered", payload__entry=entry)
        .payload["players"]
    ]
    seats = list(links[0].game.seats.order_by("seat").values_list("player_id", flat=True))
    assert [seats[0], seats[2]] == north_south, "side 0 sits North/South"

    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    pair_next_round(scorer_client, tid)
    play_round(scorer_client, tid, 2, {1: (100, 0), 2: (50, 50)})

    standings = scorer_client.get(f"/api/tournaments/{tid}/standings/").json()
    record = scorer_client.get(f"/api/tournaments/{tid}/record/").json()
    assert standings == core.standings_json(core.fold(record)), "the API's standings are the core's fold"
    assert sum(line["played"] for line in standings["standings"]) == 8
    assert sorted(line["vp"] for line in standings["standings"]) != [0, 0, 0, 0]

    # as they stood after round 1's results: the fold of the first N events
    n = 4 + 1 + 2
    at_n = scorer_client.get(f"/api/tournaments/{tid}/standings/?at={n}").json()
    assert at_n == core.standings_json(core.fold({**record, "events": record["events"][:n]}))
    assert at_n != standings


@pytest.mark.django_db
def test_stale_expected_seq_is_409_and_stores_nothing(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    response = append(scorer_client, tid, [{"type": "entry_withdrawn", "entry": "e0"}], 0)
    assert response.status_code == 409
    assert response.json()["current_seq"] == 4
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == 4


@pytest.mark.django_db
def test_a_refused_event_is_422_with_its_code_and_index_and_stores_nothing(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    batch = [{"type": "entry_withdrawn", "entry": "e1"}, {"type": "entry_withdrawn", "entry": "nobody"}]
    response = append(scorer_client, tid, batch, 4)
    assert response.status_code == 422
    assert response.json()["code"] == "unknown_entry"
    assert response.json()["index"] == 1
    assert Tournament.objects.get(pk=tid).seq == 4
    assert not TournamentEvent.objects.filter(tournament_id=tid, type="entry_withdrawn").exists()


@pytest.mark.django_db
def test_results_for_a_table_not_in_the_round_are_refused(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    event = {"type": "result_recorded", "round": 1, "table": 9, "score": [60, 40]}
    response = append(scorer_client, tid, [event], 5)
    assert response.status_code == 422
    assert response.json()["code"] == "table_not_in_round"


@pytest.mark.django_db
def test_idempotency_key_replays_the_first_answer(club, scorer_client):
    tid = create(scorer_client)["id"]
    events = [{"type": "entry_registered", "entry": "x", "players": ["Ines", "Jan"]}]
    first = append(scorer_client, tid, events, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    again = append(scorer_client, tid, events, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == 1


@pytest.mark.django_db
def test_roles(club, scorer_client, make_user, make_club, anon):
    tid = create(scorer_client)["id"]
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    outsider = make_user("outsider")
    events = [{"type": "entry_registered", "entry": "x", "players": ["Ines", "Jan"]}]
    assert append(anon, tid, events, 0).status_code == 401
    assert append(client_for(viewer), tid, events, 0).status_code == 403
    assert append(client_for(outsider), tid, events, 0).status_code == 403
    assert anon.get(f"/api/tournaments/{tid}/standings/").status_code == 200  # a public club
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    assert anon.get(f"/api/tournaments/{tid}/standings/").status_code == 404
    assert client_for(outsider).get(f"/api/tournaments/{tid}/").status_code == 404
    assert client_for(viewer).get(f"/api/tournaments/{tid}/").status_code == 200
    assert client_for(outsider).get("/api/tournaments/").json()["count"] == 0
    assert (
        client_for(outsider)
        .post("/api/tournaments/", {"club": "home", "name": "x", "header": HEADER}, format="json")
        .status_code
        == 404
    )


@pytest.mark.django_db
def test_a_bad_header_is_refused_with_a_code(club, scorer_client):
    response = scorer_client.post(
        "/api/tournaments/", {"club": club.pk, "name": "x", "header": {**HEADER, "scoring": "chess"}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed"
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_tables_play_a_four_seat_game(club, scorer_client):
    response = scorer_client.post(
        "/api/tournaments/", {"club": club.pk, "name": "x", "header": HEADER, "variant": "tientsin"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_game"


@pytest.mark.django_db
def test_the_tables_game_is_refused_in_the_requests_language_reason_included(club, scorer_client):
    """invalid_game quotes the engine's reason: in French, the engine's French words for it (from
    its code and params), not its English message inside a French sentence."""
    from games import engine

    body = {"club": club.pk, "name": "x", "header": HEADER, "variant": "tientsin"}
    english = scorer_client.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    french = scorer_client.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert french["code"] == english["code"] == "invalid_game"
    assert english["message"] == "the tables' game: Tientsin is played by 6 players, the record names 4"
    reason = engine.refusal_words({"code": "malformed", "params": {
        "rule": "players", "variant": "tientsin", "count": 6, "given": 4}}, [], "fr")  # fmt: skip
    assert french["message"] == f"la partie des tables\u00a0: {reason}"
    assert "is played by" not in french["message"] and "joueurs" in reason
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_games_carry_the_presets_rules(club, scorer_client):
    header = {"entrants": "individuals", "system": "individual", "scoring": "dtm", "rounds": 1}
    tid = create(scorer_client, header=header)["id"]
    events = [
        {"type": "entry_registered", "entry": f"i{n}", "players": [name]}
        for n, name in enumerate(["A", "B", "C", "D", "E", "F", "G", "H"])
    ]
    assert append(scorer_client, tid, events, 0).status_code == 201
    pair_next_round(scorer_client, tid)
    games = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    assert len(games) == 2
    options = Game.objects.get(pk=games[0]["game"]).options
    assert options == core.engine_options(core.parse_header(header))
    assert options["hands"] == 4
    # making them again makes nothing new
    again = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    assert [g["game"] for g in again] == [g["game"] for g in games]


@pytest.mark.django_db(transaction=True)
def test_tournament_events_are_append_only_in_the_database(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    table = TournamentEvent._meta.db_table
    for sql in (f"UPDATE {table} SET type = 'x'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == 4
    if connection.vendor == "postgresql":
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {table} CASCADE")


@pytest.mark.django_db
def test_a_table_kept_on_paper_and_a_correction_from_the_directors_page(club, scorer, client):
    client.force_login(scorer)
    scorer_api = client_for(scorer)
    header = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1}
    tid = create(scorer_api, header=header)["id"]
    register_pairs(scorer_api, tid)
    pair_next_round(scorer_api, tid)
    seq = Tournament.objects.get(pk=tid).seq
    # under DTM the page takes each hand's line (and the side of a double victory): no VP to type
    lines = {
        "hand_0_0": 130,
        "hand_0_1": 70,
        "hand_1_0": 0,
        "hand_1_1": 200,
        "dv_1": "1",
        "hand_2_0": 50,
        "hand_2_1": 50,
        "hand_3_0": 80,
        "hand_3_1": 20,
        "dv_3": "",
    }
    paper = {"action": "paper", "seq": seq, "round": 1, "table": 1, **lines}
    page = client.get(f"/tournaments/{tid}/")
    assert b'name="hand_3_1"' in page.content and b'name="vp_0"' not in page.content
    # a line no deal under DTM makes (only a Grand Tichu scores 250:50) stores nothing
    assert client.post(f"/tournaments/{tid}/act/", {**paper, "hand_0_0": 250, "hand_0_1": 50}).status_code == 302
    assert Tournament.objects.get(pk=tid).seq == seq
    assert client.post(f"/tournaments/{tid}/act/", paper).status_code == 302
    event = TournamentEvent.objects.get(tournament_id=tid, seq=seq + 1)
    assert event.type == "result_recorded"
    assert event.payload == {
        "round": 1,
        "table": 1,
        "hands": [
            {"points": [130, 70]},
            {"points": [0, 200], "double_victory": 1},
            {"points": [50, 50]},
            {"points": [80, 20]},
        ],
    }
    vps = sorted(r["vp"] for r in client_for(scorer).get(f"/api/tournaments/{tid}/standings/").json()["standings"])
    assert vps[-2:] == [0 + 3 + 1 + 0, 2 + 0 + 1 + 2]  # counted from the lines
    # a correction without a reason stores nothing; with one, it is a result_corrected
    correction = {**paper, "action": "correct", "seq": seq + 1, "hand_3_0": 70, "hand_3_1": 30}
    client.post(f"/tournaments/{tid}/act/", correction)
    assert Tournament.objects.get(pk=tid).seq == seq + 1
    client.post(f"/tournaments/{tid}/act/", {**correction, "reason": "sheet added up wrong"})
    corrected = TournamentEvent.objects.get(tournament_id=tid, seq=seq + 2)
    assert corrected.type == "result_corrected" and corrected.payload["reason"] == "sheet added up wrong"
    # a stale page (the seq it was drawn at) stores nothing
    client.post(f"/tournaments/{tid}/act/", {**correction, "reason": "again"})
    assert Tournament.objects.get(pk=tid).seq == seq + 2


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_an_event_whose_seq_is_not_the_next(club, scorer_client):
    """Migration 0008: a tournament event's seq is the tournament's newest + 1, checked by a
    trigger on SQLite and PostgreSQL, whoever inserts (the service's batches pass)."""
    from django.db import IntegrityError

    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)  # a batch of four: seq 1..4 in one INSERT
    tournament = Tournament.objects.get(pk=tid)
    for seq in (4, 6, 0):
        with pytest.raises(IntegrityError), transaction.atomic():
            TournamentEvent.objects.create(tournament=tournament, seq=seq, type="round_closed", payload={"round": 1})
    TournamentEvent.objects.create(tournament=tournament, seq=5, type="lots_drawn", payload={"order": []})
    assert TournamentEvent.objects.filter(tournament=tournament).count() == 5
