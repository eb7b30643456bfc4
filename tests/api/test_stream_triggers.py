"""The stream store's database guarantees (games.streams.triggers), the same on both streams, the
games' and the tournaments': a stored event is never changed nor deleted, an INSERT's seq is the
next one of its head; and the SQL each migration installs is the text it installed when written."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from games.models import Event, Game
from games.streams import triggers
from games.tournaments.models import Bracket, BracketEvent, Tournament, TournamentEvent

#: sha256 of each migration's statements (json, keys sorted) as written before the stream store
#: held them: a change of the helper's text would change what an old migration means
PINNED = {
    "games.migrations.0002_event_append_only": "5a429d1997aa15c393d27e2f760ddd589622aba58dd30f8694d91b951b0aa14a",
    "games.migrations.0012_event_seq_checks": "8802aeefeb8d45a0f5c0ca82dbc1d97220105a8f02f559792bd9c1c6f1b2e074",
    "games.tournaments.migrations.0002_event_append_only": "0435da08ab003d15fd268f3ee42e9cc10b5435336bdd851dac1ee623e4c89a02",
    "games.tournaments.migrations.0008_event_seq_is_next": "ec47eadd6616f1ed316527390ee6145fd2af57048879b73afe972eb33d45e0a3",
}


@pytest.mark.parametrize("migration", sorted(PINNED))
def test_each_migration_installs_the_sql_it_was_written_with(migration):
    statements = importlib.import_module(migration).STATEMENTS
    by_vendor = statements.by_vendor if isinstance(statements, triggers.Statements) else statements
    text = json.dumps({k: [list(s) for s in v] for k, v in by_vendor.items()}, sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest() == PINNED[migration]


def test_a_vendor_without_sql_is_said_by_name():
    with pytest.raises(NotImplementedError, match="no seq trigger for the oracle backend"):
        triggers.seq_is_next("t_event", prefix="t_event", head="t").of("oracle", 0)


def _game(club, scorer) -> Game:
    return Game.objects.create(club=club, variant="nanking", options=None, header={}, created_by=scorer)


def _tournament(club, scorer) -> Tournament:
    return Tournament.objects.create(club=club, name="Cup", header={}, created_by=scorer)


def _bracket(club, scorer) -> Bracket:
    return Bracket.objects.create(club=club, name="Cup", header={}, created_by=scorer)


# each stream: (its head, an event row of it at `seq`)
STREAMS = {
    "bracket": (_bracket, lambda head, seq: BracketEvent(bracket=head, seq=seq, type="match_result", payload={})),
    "game": (_game, lambda head, seq: Event(game=head, seq=seq, type="hand_result", payload={})),
    "tournament": (
        _tournament,
        lambda head, seq: TournamentEvent(tournament=head, seq=seq, type="entry_registered", payload={}),
    ),
}


def _moved(head, seq: int) -> None:
    """The head counts its events, as the append moves it (a game's is checked at COMMIT on
    PostgreSQL, which a test's end checks too)."""
    type(head).objects.filter(pk=head.pk).update(seq=seq)


def _refused(write) -> None:
    with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
        write()


@pytest.mark.django_db
@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_every_stream_refuses_a_seq_that_is_not_the_next_one(stream, club, scorer):
    make_head, event = STREAMS[stream]
    head = make_head(club, scorer)
    _refused(lambda: event(head, 2).save())  # the first event is seq 1
    event(head, 1).save()
    for seq in (3, 0, 1_000):
        _refused(lambda seq=seq: event(head, seq).save())
    type(event(head, 2)).objects.bulk_create([event(head, 2), event(head, 3)])  # a batch: row by row
    _moved(head, 3)
    assert list(type(event(head, 1)).objects.filter(**{stream: head}).values_list("seq", flat=True)) == [1, 2, 3]


@pytest.mark.django_db
@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_every_streams_events_are_append_only(stream, club, scorer):
    make_head, event = STREAMS[stream]
    head = make_head(club, scorer)
    event(head, 1).save()
    _moved(head, 1)
    rows = type(event(head, 1)).objects.filter(**{stream: head})
    _refused(lambda: rows.update(type="changed"))
    _refused(lambda: rows.delete())
    assert list(rows.values_list("type", flat=True)) == [event(head, 1).type]


def _ddl_connection():
    """Who may drop and create triggers: the owner in the app-role mode (make test-postgres, whose
    test connection owns nothing), else the test's own connection (its transaction rolls back)."""
    from tests.plugins.db_roles import app_role_mode, owner_connection

    return owner_connection() if app_role_mode() else contextlib.nullcontext(connection)


@pytest.mark.django_db
def test_restore_missing_puts_back_what_a_table_rebuild_dropped_and_nothing_twice(club, scorer):
    append_only = importlib.import_module("games.tournaments.migrations.0002_event_append_only")
    seq = importlib.import_module("games.tournaments.migrations.0008_event_seq_is_next").STATEMENTS
    table = append_only.TABLE
    with _ddl_connection() as ddl:
        assert triggers.has_triggers(ddl, table)
        triggers.restore_missing(ddl, table, append_only.STATEMENTS, seq)  # present: nothing installed twice
        triggers.uninstall(ddl, append_only.STATEMENTS)
        triggers.uninstall(ddl, seq)
        assert not triggers.has_triggers(ddl, table)  # as after a SQLite table rebuild
        triggers.restore_missing(ddl, table, append_only.STATEMENTS, seq)
        assert triggers.has_triggers(ddl, table)
    tournament = _tournament(club, scorer)
    _refused(lambda: TournamentEvent.objects.create(tournament=tournament, seq=2, type="x"))
    TournamentEvent.objects.create(tournament=tournament, seq=1, type="x")
    _refused(lambda: TournamentEvent.objects.filter(tournament=tournament).update(type="y"))
