"""The TD's short round on the round page (issue 31, item 2): the form appends `round_shortened`
through the tournaments' services (the same checks as the API, refusals in words, nothing half
stored), and the table's paper result with that many hands is then accepted (and before it, refused)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Club, Membership
from games.tournaments import selectors, services
from games.tournaments.models import Tournament

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 2, "hands_per_round": 4}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


@pytest.fixture
def td(make_user, make_club):
    user = make_user("td")
    Membership.objects.create(club=make_club("home"), user=user, role=Membership.Role.SCORER)
    return user


def dtm_round(user) -> int:
    """Four pairs under DTM, round 1 paired (two tables, no games: scores kept on paper)."""
    club = Club.objects.get(slug="home")
    tid = services.tournament_create(club=club, name="Short", header=HEADER, user=user).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    pairing = {
        "type": "round_paired",
        "round": 1,
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        "byes": [],
    }
    services.append_events(tournament_id=tid, events=[*events, pairing], expected_seq=0, user=user)
    return tid


def post(client: Client, tid: int, **fields):
    seq = Tournament.objects.get(pk=tid).seq
    return client.post(f"/tournaments/{tid}/act/", {"seq": seq, **fields}, follow=True, **EN)


def paper(client: Client, tid: int, table: int, lines: list[tuple[int, int]]):
    fields = {"action": "paper", "round": 1, "table": table}
    for i, (ns, ew) in enumerate(lines):
        fields[f"hand_{i}_0"], fields[f"hand_{i}_1"] = ns, ew
    return post(client, tid, **fields)


def director(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_service_takes_a_short_round_then_a_result_with_that_many_hands(td):
    tid = dtm_round(td)
    short = {"type": "round_shortened", "round": 1, "table": 1, "hands": 2, "reason": "time ran out"}
    services.append_events(tournament_id=tid, events=[short], expected_seq=5, user=td)
    two = {"type": "result_recorded", "round": 1, "table": 1, "hands": [{"points": [60, 40]}, {"points": [30, 70]}]}
    services.append_events(tournament_id=tid, events=[two], expected_seq=6, user=td)
    table = selectors.state_at(Tournament.objects.get(pk=tid)).rounds[0].tables[1]
    assert table.short == (2, "time ran out")
    assert list(table.result["score"]) == [90, 110]


@pytest.mark.django_db
def test_the_round_page_records_a_short_round_and_then_the_shorter_paper_result(td):
    tid = dtm_round(td)
    client = director(td)
    page = client.get(f"/tournaments/{tid}/", **EN).content.decode()
    assert 'id="short-round-form"' in page
    assert page.count('name="hand_') == 2 * 4 * 2, "before it, each table's paper form asks for 4 hands"
    seq = Tournament.objects.get(pk=tid).seq
    refused = paper(client, tid, 1, [(60, 40), (30, 70)])
    assert "give both sides&#x27; points on every hand" in refused.content.decode()
    assert Tournament.objects.get(pk=tid).seq == seq, "two hands of four: nothing stored"

    answer = post(client, tid, action="short", table=1, hands=2, reason="time ran out").content.decode()
    assert "Table 1 played a short round: 2 hands." in answer
    assert 'data-short="2"' in answer and "Short round: 2 hands (time ran out)." in answer
    form = answer.split('data-table="1"')[1].split("</article>")[0]
    assert form.count('name="hand_') == 2 * 2, "the short table's paper form asks for its 2 hands"

    recorded = paper(client, tid, 1, [(60, 40), (30, 70)]).content.decode()
    assert "Table 1 recorded from paper." in recorded
    table = selectors.state_at(Tournament.objects.get(pk=tid)).rounds[0].tables[1]
    assert list(table.result["score"]) == [90, 110] and len(table.result["hands"]) == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"table": 1, "hands": 4, "reason": "late"}, "a short round has fewer hands than the round&#x27;s 4"),
        ({"table": 1, "hands": 2, "reason": "  "}, "a short round needs a reason"),
        ({"table": "", "hands": 2, "reason": "late"}, "choose the table and the number of hands"),
        ({"table": 2, "hands": 2, "reason": "late"}, "has a result: record the short round before it"),
    ],
)
def test_a_refused_short_round_stores_nothing_and_says_why_in_words(td, fields, words):
    tid = dtm_round(td)
    client = director(td)
    paper(client, tid, 2, [(60, 40), (30, 70), (50, 50), (100, 0)])
    seq = Tournament.objects.get(pk=tid).seq
    answer = post(client, tid, action="short", **fields).content.decode()
    assert words in answer, answer[answer.find('id="messages"') :][:600]
    assert Tournament.objects.get(pk=tid).seq == seq
    assert "(result_invalid)" not in answer and "(result_exists)" not in answer


@pytest.mark.django_db
def test_a_tournament_to_a_target_offers_no_short_round(td):
    club = Club.objects.get(slug="home")
    header = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "target": 1000}
    tid = services.tournament_create(club=club, name="Long", header=header, user=td).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    pairing = {
        "type": "round_paired",
        "round": 1,
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}],
        "byes": ["e2", "e3"],
    }
    services.append_events(tournament_id=tid, events=[*events, pairing], expected_seq=0, user=td)
    assert 'id="short-round-form"' not in director(td).get(f"/tournaments/{tid}/", **EN).content.decode()


@pytest.mark.django_db
def test_a_short_round_at_a_table_playing_its_game_takes_the_hands_played(club, scorer_client):
    """A table whose game is played in the app and whose time ran out: once the TD records the
    short round, the game's hands played are the table's result (one source: the game's own
    lines, the game not over), sent and confirmed at the table as any game's result."""
    from tests.tournament_api.test_api import HEADER, append, create, pair_next_round, register_pairs
    from tests.tournament_api.test_table_codes import HAND, with_code

    tid = create(scorer_client, header={**HEADER, "hands_per_round": 3})["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    games = {g["table"]: g["game"] for g in scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()}
    codes = {c["table"]: c for c in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    game, code = games[1], with_code(codes[1]["printed"])
    for seq in (0, 1):  # two hands of three: the game goes on
        answer = code.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": [HAND]}, format="json")
        assert answer.status_code == 201 and answer.json()["status"] == "active"
    table_url = f"/api/games/{game}/tournament-table/"
    pins = codes[1]["pins"]
    assert code.post(table_url, {"action": "record", "pin": pins["ns"]}, format="json").json()["code"] == (
        "game_not_finished"
    )
    seq = Tournament.objects.get(pk=tid).seq
    short = {"type": "round_shortened", "round": 1, "table": 1, "hands": 2, "reason": "time ran out"}
    assert append(scorer_client, tid, [short], seq).status_code == 201
    assert code.get(table_url).json()["game_finished"] is True
    assert code.post(table_url, {"action": "record", "pin": pins["ns"]}, format="json").status_code == 201
    assert code.post(table_url, {"action": "confirm", "pin": pins["ew"]}, format="json").status_code == 201
    table = selectors.state_at(Tournament.objects.get(pk=tid)).rounds[0].tables[1]
    assert list(table.result["score"]) == [140, 60] and table.result.get("from_game")
    assert table.confirmation == "confirmed"
    standings = {
        r["entry"]: r["points"] for r in scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    }
    assert sorted(standings.values())[-1] == 140
