"""The event table is append-only in the database itself, on SQLite and PostgreSQL.

In the PostgreSQL stages the tests connect as the app role (tests/plugins/db_roles.py), which
may not even try: the statements are refused for want of the privilege before any trigger runs.
tests/api/test_db_roles.py checks that the triggers also refuse them to the owner."""

from __future__ import annotations

import datetime

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from games import selectors
from games.models import Club, Event, Game, Membership
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand
from tests.plugins.db_roles import app_role_mode


@pytest.fixture
def game_with_events(club, scorer):
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand(), hand()], expected_seq=0, user=scorer)
    return game


def refused() -> str:
    """What refuses UPDATE, DELETE and TRUNCATE to this test's connection."""
    return "permission denied" if app_role_mode() else "append-only"


def _raw(sql: str, params=()) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
def test_raw_sql_update_is_refused(game_with_events):
    with pytest.raises(DatabaseError, match=refused()):
        _raw("UPDATE games_event SET type = 'pass' WHERE game_id = %s", [game_with_events.pk])
    assert sorted(Event.objects.values_list("type", flat=True)) == ["hand_result", "hand_result"]


@pytest.mark.django_db
def test_raw_sql_delete_is_refused(game_with_events):
    with pytest.raises(DatabaseError, match=refused()):
        _raw("DELETE FROM games_event WHERE seq = 2")
    assert Event.objects.filter(game=game_with_events).count() == 2


@pytest.mark.django_db
def test_orm_update_and_delete_are_refused(game_with_events):
    with pytest.raises(DatabaseError, match=refused()), transaction.atomic():
        Event.objects.filter(game=game_with_events).update(payload={})
    with pytest.raises(DatabaseError, match=refused()), transaction.atomic():
        Event.objects.filter(game=game_with_events).delete()
    assert Event.objects.filter(game=game_with_events).count() == 2


@pytest.mark.postgres
def test_truncate_is_refused_on_postgres(transactional_db, club, scorer):
    # Committed rows (transactional test): TRUNCATE skips row triggers, the statement trigger holds.
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand(), hand()], expected_seq=0, user=scorer)
    with pytest.raises(DatabaseError, match=refused()):
        _raw("TRUNCATE games_event CASCADE")
    with pytest.raises(DatabaseError, match=refused()):
        _raw("TRUNCATE games_game CASCADE")
    assert Event.objects.count() == 2


@pytest.mark.django_db
def test_inserting_is_still_allowed_and_seq_is_unique_per_game(game_with_events):
    with transaction.atomic():
        Event.objects.create(game=game_with_events, seq=3, type="hand_result", payload={})
        Game.objects.filter(pk=game_with_events.pk).update(seq=3)  # the game counts it (0006)
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game=game_with_events, seq=3, type="hand_result", payload={})
    assert list(Event.objects.filter(game=game_with_events).values_list("seq", flat=True)) == [1, 2, 3]


def test_flush_between_transactional_tests_still_works(transactional_db, club, scorer):
    """tests/plugins/append_only_flush.py lifts the triggers only for pytest-django's flush."""
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    with pytest.raises(DatabaseError, match=refused()):
        _raw("DELETE FROM games_event")
    assert Event.objects.count() == 1


@pytest.mark.django_db
def test_game_lookup_in_sql_loads_what_the_orm_loads(make_club, make_user, scorer):
    """`selectors.game_with_role` reads the game and its club in hand-written SQL: every field
    must come back as the ORM converts it (JSON, UUID, dates on SQLite), with the user's role."""
    viewer, outsider = make_user("vic"), make_user("out")
    club = make_club("private", visibility="members")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    Membership.objects.create(club=club, user=viewer, role="viewer")
    created = game_create(
        club=club, variant="nanking", options={"preset": "abacus", "target_score": 500}, players=PLAYERS, user=scorer
    )
    expected = Game.objects.select_related("club").get(pk=created.body["id"])
    for user, role in ((scorer, "scorer"), (viewer, "viewer"), (outsider, None), (None, None)):
        game = selectors.game_with_role(expected.pk, user)
        for field in Game._meta.concrete_fields:
            assert getattr(game, field.attname) == getattr(expected, field.attname), field.name
        for field in Club._meta.concrete_fields:
            assert getattr(game.club, field.attname) == getattr(expected.club, field.attname), field.name
        assert game.viewer_role == role
        assert selectors.is_visible(game) == (role is not None)
    assert isinstance(game.options, dict) and isinstance(game.club.created_at, datetime.datetime)
    assert selectors.game_with_role(expected.pk + 1000, scorer) is None
