"""An event coming in carries only its type's fields (games.tournament.fields), and a result's
game is a game of the tournament's club: refused whole with a code, nothing stored, the message
in the request's language. A stored history with extra fields still folds."""

from __future__ import annotations

import pytest

from games import tournament as core
from games.tournament.fields import MAX_EXPLANATION_CHARS, MAX_TEXT_CHARS
from games.tournaments.models import Tournament, TournamentEvent
from tests.tournament_api.test_api import HEADER, append, create, register_pairs

NASTY = [("x" * 100_000), 1e308]


def deep(n: int):
    value: object = 0
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.django_db
@pytest.mark.parametrize("extra", [*NASTY, deep(60)], ids=["long-string", "huge-number", "deep-json"])
def test_an_unknown_field_is_refused_and_nothing_stored(club, scorer_client, extra):
    tid = create(scorer_client)["id"]
    event = {"type": "entry_registered", "entry": "e1", "players": ["Anna", "Ben"], "junk": extra}
    response = append(
        scorer_client, tid, [{"type": "entry_registered", "entry": "e0", "players": ["Cleo", "Dan"]}, event], 0
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed"
    assert body["params"]["rule"] == "unknown_fields" and body["params"]["fields"] == ["junk"]
    assert body["params"]["index"] == 1
    assert "junk" in body["message"] and "entry_registered" in body["message"]
    assert not TournamentEvent.objects.exists() and Tournament.objects.get(pk=tid).seq == 0


@pytest.mark.django_db
def test_every_event_type_has_a_field_table():
    assert set(core.EVENT_FIELDS) == set(core.EVENT_TYPES)


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["entry", "name"])
def test_a_text_past_the_bound_is_refused(club, scorer_client, field):
    tid = create(scorer_client)["id"]
    event = {"type": "entry_registered", "entry": "e1", "players": ["Anna", "Ben"], field: "y" * (MAX_TEXT_CHARS + 1)}
    response = append(scorer_client, tid, [event], 0)
    assert response.status_code == 400
    assert response.json()["params"]["rule"] == "text_too_long"
    assert response.json()["params"]["field"] == field
    assert not TournamentEvent.objects.exists()
    fits = {**event, field: "y" * MAX_TEXT_CHARS}
    assert append(scorer_client, tid, [fits], 0).status_code == 201


@pytest.mark.django_db
def test_an_oversized_explanation_is_refused(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    proposal = scorer_client.get(f"/api/tournaments/{tid}/pairing/").json()
    event = {**proposal["event"], "explanation": {"note": "z" * MAX_EXPLANATION_CHARS}}
    response = append(scorer_client, tid, [event], proposal["seq"])
    assert response.status_code == 400
    assert response.json()["params"]["rule"] == "explanation_too_large"
    assert append(scorer_client, tid, [proposal["event"]], proposal["seq"]).status_code == 201


@pytest.mark.django_db
def test_the_refusal_is_in_the_requests_language(club, scorer_client):
    tid = create(scorer_client)["id"]
    event = [{"type": "entry_withdrawn", "entry": "e1", "junk": 1}]
    english = append(scorer_client, tid, event, 0, HTTP_ACCEPT_LANGUAGE="en").json()
    french = append(scorer_client, tid, event, 0, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert english["code"] == french["code"] == "malformed" and english["params"] == french["params"]
    assert english["message"] == "event 0 (entry_withdrawn): unknown field(s) junk; it may have entry, reason"
    assert french["message"] != english["message"] and "junk" in french["message"]
    assert "unknown field" not in french["message"] and "champ" in french["message"]


def test_a_stored_history_with_extra_fields_still_folds():
    """The check is for events coming in: what is stored already folds as it is."""
    record = {
        "header": HEADER,
        "events": [
            {"type": "entry_registered", "entry": "e0", "players": ["A", "B"], "old_field": "x" * 1000},
            {"type": "entry_registered", "entry": "e1", "players": ["C", "D"], "note": deep(60)},
        ],
    }
    state = core.fold(record)
    assert set(state.entries) == {"e0", "e1"}
    with pytest.raises(core.TournamentError) as refused:
        core.check_incoming(record["events"][0])
    assert refused.value.code == "malformed" and refused.value.params["fields"] == ["old_field"]


def paired_round(client) -> tuple[int, int, dict]:
    tid = create(client)["id"]
    register_pairs(client, tid)
    proposal = client.get(f"/api/tournaments/{tid}/pairing/").json()
    assert append(client, tid, [proposal["event"]], proposal["seq"]).status_code == 201
    return tid, proposal["seq"] + 1, proposal["event"]


@pytest.mark.django_db
@pytest.mark.parametrize("game", [2**63, 10**6, "812", "other-club"], ids=["past-range", "none-such", "text", "other"])
def test_a_result_names_a_game_of_the_tournaments_club(club, scorer_client, game):
    from games.models import Club, Game

    tid, seq, _pairing = paired_round(scorer_client)
    if game == "other-club":
        other = Club.objects.create(slug="away", name="Away")
        game = Game.objects.create(club=other, variant="nanking").pk
    result = {"type": "result_recorded", "round": 1, "table": 1, "game": game, "score": [100, 0]}
    for lang in ("en", "fr"):
        response = append(scorer_client, tid, [result], seq, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 400
        assert response.json()["code"] == "unknown_game" and response.json()["params"] == {"index": 0}
    assert response.json()["message"].startswith("pas de partie")
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == seq
    own = Game.objects.create(club=club, variant="nanking").pk
    assert append(scorer_client, tid, [{**result, "game": own}], seq).status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "but the tournament is at seq 4"),
        ("fr", "mais le tournoi est au seq 4"),
        ("de", "aber das Turnier steht bei seq 4"),
        ("uk", "але турнір на seq 4"),
    ],
)
def test_a_seq_conflict_names_the_tournament(club, scorer_client, lang, words):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    response = append(scorer_client, tid, [{"type": "entry_withdrawn", "entry": "e0"}], 1, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "seq_conflict" and (body["expected_seq"], body["current_seq"]) == (1, 4)
    assert body["message"].endswith(words) and "game" not in body["message"]
