"""A club's season, bracket and league are one shape (games.tournaments.club_streams): created, locked
for their writer, appended to and read the same way, so each says the same thing, in its own words,
to a writer of another club, an outsider of a members-only club, a stale `expected_seq`, a batch
too long, a bad name, a retried request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import storable
from games.db_roles import stream_event_tables
from games.streams.errors import InvalidInput
from games.tournaments import brackets, leagues, seasons
from games.tournaments.club_streams import MAX_BATCH, ClubStreamHead, ClubStreamKind
from tests.conftest import client_for
from tests.leagues.test_leagues import HEADER as LEAGUE_HEADER
from tests.tournament_api.test_api import create as create_tournament

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Kind:
    noun: str
    plural: str
    kind: ClubStreamKind
    header: dict
    event: Callable[[Any], dict]  # a valid first event, given a scorer's API client of club "home"


KINDS = [
    Kind(
        "season",
        "seasons",
        seasons.SEASONS,
        {},
        lambda client: {"type": "evening_added", "tournament": create_tournament(client)["id"]},
    ),
    Kind(
        "bracket",
        "brackets",
        brackets.BRACKETS,
        {},
        lambda client: {
            "type": "bracket_seeded",
            "by": "hand",
            "entries": [{"entry": f"E{i}", "players": [f"p{i}a", f"p{i}b"]} for i in (1, 2)],
        },
    ),
    Kind(
        "league",
        "leagues",
        leagues.LEAGUES,
        LEAGUE_HEADER,
        lambda client: {"type": "match_result", "match": "R1-1", "score": [600, 400]},
    ),
]
each_kind = pytest.mark.parametrize("k", KINDS, ids=[k.noun for k in KINDS])


def new(client, k: Kind, club: str = "home", **headers):
    return client.post(
        f"/api/clubs/{club}/{k.plural}/", {"name": "Club 2027", "header": k.header}, format="json", **headers
    )


def append(client, k: Kind, pk: int, events: list[dict], expected_seq: int, **headers):
    return client.post(
        f"/api/{k.plural}/{pk}/events/", {"expected_seq": expected_seq, "events": events}, format="json", **headers
    )


def stored(k: Kind, pk: int) -> tuple[int, int]:
    return k.kind.model.objects.get(pk=pk).seq, k.kind.event_model.objects.filter(**{k.noun: pk}).count()


def test_the_three_kinds_are_one_model_shape_and_their_events_append_only_tables():
    for k in KINDS:
        assert issubclass(k.kind.model, ClubStreamHead) and k.kind.noun == k.noun
        head_fields = {f.name for f in k.kind.model._meta.concrete_fields}
        assert head_fields == {"id", "stream_id", "seq", "club", "name", "header", "created_by", "created_at"}
        assert k.kind.model._meta.get_field("club").remote_field.related_name == k.plural
        assert k.kind.event_model._meta.db_table in stream_event_tables()


@each_kind
def test_a_scorer_of_another_club_may_read_but_not_write(k, club, scorer_client, make_club, make_user):
    pk = new(scorer_client, k).json()["id"]
    other = make_user("other")
    make_club("away", scorer=other)
    assert client_for(other).get(f"/api/{k.plural}/{pk}/").status_code == 200  # a public club's
    refused = append(client_for(other), k, pk, [k.event(scorer_client)], 0)
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert refused.json()["message"] == f"running a {k.noun} needs the scorer or admin role in club 'home'"
    assert new(client_for(other), k).status_code == 403  # nor create one in the club
    assert stored(k, pk) == (0, 0)


@each_kind
def test_a_members_only_clubs_stream_is_not_found_by_an_outsider(k, make_club, make_user, anon):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    pk = new(client_for(owner), k, club="private").json()["id"]
    outsider = make_user("outsider")
    for client in (anon, client_for(outsider)):
        assert client.get(f"/api/{k.plural}/{pk}/").status_code == 404
        refused = append(client_for(outsider), k, pk, [{"type": "anything"}], 0)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found"
        assert refused.json()["message"] == f"no such {k.noun}"
    assert stored(k, pk) == (0, 0)


@each_kind
def test_a_stale_expected_seq_is_a_conflict_in_the_kinds_words(k, club, scorer_client):
    pk = new(scorer_client, k).json()["id"]
    first = append(scorer_client, k, pk, [k.event(scorer_client)], 0)
    assert first.status_code == 201 and first.json() == {"id": pk, "seq": 1, "appended": 1, "first_seq": 1}
    stale = append(scorer_client, k, pk, [k.event(scorer_client)], 0)
    assert stale.status_code == 409 and stale.json()["code"] == "seq_conflict"
    assert (stale.json()["expected_seq"], stale.json()["current_seq"]) == (0, 1)
    assert stale.json()["message"] == f"expected_seq is 0 but the {k.noun} is at seq 1"
    assert stored(k, pk) == (1, 1)


@each_kind
def test_a_batch_over_the_limit_stores_nothing(k, club, scorer, scorer_client):
    pk = new(scorer_client, k).json()["id"]
    assert append(scorer_client, k, pk, [{"type": "x"}] * (MAX_BATCH + 1), 0).status_code == 400  # the API's check
    with pytest.raises(InvalidInput) as refused:  # and the service's own
        k.kind.append(pk=pk, events=[{"type": "x"}] * (MAX_BATCH + 1), expected_seq=0, user=scorer)
    assert refused.value.code == "batch_too_large"
    assert stored(k, pk) == (0, 0)


@each_kind
def test_a_retried_create_and_append_replay_their_first_answer(k, club, scorer_client):
    first = new(scorer_client, k, HTTP_IDEMPOTENCY_KEY="c-1")
    again = new(scorer_client, k, HTTP_IDEMPOTENCY_KEY="c-1")
    assert first.status_code == 201 and again.json() == first.json()
    assert k.kind.model.objects.count() == 1
    pk = first.json()["id"]
    event = k.event(scorer_client)
    appended = append(scorer_client, k, pk, [event], 0, HTTP_IDEMPOTENCY_KEY="a-1")
    assert append(scorer_client, k, pk, [event], 0, HTTP_IDEMPOTENCY_KEY="a-1").json() == appended.json()
    assert stored(k, pk) == (1, 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.one_of(st.text(max_size=110), st.integers(), st.none()), which=st.sampled_from(KINDS))
def test_a_name_is_kept_exactly_when_it_is_a_non_empty_string_of_at_most_100_characters(club, scorer, name, which):
    """The one rule of every kind's name, through the service: kept stripped, or refused (400) in
    the kind's words with nothing stored."""
    shaped = isinstance(name, str) and bool(name.strip()) and len(name) <= 100
    before = which.kind.model.objects.count()
    try:
        body = which.kind.create(club=club, name=name, header=which.header, user=scorer).body
    except InvalidInput as refused:
        if shaped:  # then only what the database cannot store (NUL, a lone surrogate) is refused
            assert storable.problem_sentence(name) is not None, refused.message
        else:
            assert refused.message == f"a {which.noun}'s name is a non-empty string of at most 100 characters"
        assert which.kind.model.objects.count() == before
    else:
        assert shaped and isinstance(name, str)
        assert which.kind.model.objects.get(pk=body["id"]).name == name.strip()
