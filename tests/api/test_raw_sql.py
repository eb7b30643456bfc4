"""games.sql, the site's raw SQL: each statement reads or writes exactly what the ORM would. Run on
SQLite and again on PostgreSQL (`make test-postgres`), where the append is one statement (a
data-modifying CTE, or chunked INSERTs for an import) and the rating recompute's helpers (COPY,
the JSON-array read) are used; those are PostgreSQL-only and marked so."""

from __future__ import annotations

import datetime

import pytest
from django.db import DatabaseError, transaction
from django.db.models import F
from django.utils import timezone

from games import engine, sql
from games.models import Event, Game, Membership, Player
from games.ratings.models import GameOutcome, RatingChange
from games.ratings.services import CHANGE_COLUMNS, OUTCOME_FIELDS
from games.services import game_create, game_import

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_game_with_role_equals_the_orm_for_every_reader_and_with_the_lock(make_club, make_user, scorer):
    viewer, outsider = make_user("vic"), make_user("out")
    club = make_club("private", visibility="members")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    Membership.objects.create(club=club, user=viewer, role="viewer")
    created = game_create(
        club=club, variant="grand-seigneur", options={"preset": "abacus"}, players=PLAYERS + ["Eve"], user=scorer
    )
    expected = Game.objects.select_related("club").get(pk=created.body["id"])
    for user in (scorer, viewer, outsider, None):
        orm_role = (
            Membership.objects.filter(club=expected.club, user=user).values_list("role", flat=True).first()
            if user is not None
            else None
        )
        for for_update in (False, True):
            with transaction.atomic():
                game, role = sql.game_with_role(expected.pk, getattr(user, "pk", None), for_update=for_update)
            assert fields(game) == fields(expected) and fields(game.club) == fields(expected.club)
            assert role == orm_role
    assert not Game.objects.filter(pk=expected.pk + 1000).exists()
    for missing in (expected.pk + 1000, -1, 2**70):  # no row; a number out of the column's range
        assert sql.game_with_role(missing, scorer.pk) is None


def test_game_with_role_tells_whether_the_game_has_an_online_table(club, scorer):
    """The append's lock also asks whether the game is an online table's (`has_one`), in the same
    query: the same answer as the ORM's `exists()` for an online table's game and another, with
    the lock and without, and the same game and role as without the question."""
    from games.online.models import OnlineTable
    from tests.online.play import join_all, open_four

    table = open_four(club, scorer)
    join_all(table)
    other = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    for game_id in (table.game_id, other):
        for for_update in (False, True):
            with transaction.atomic():
                game, role = sql.game_with_role(game_id, scorer.pk, for_update=for_update, has_one=OnlineTable)
                plain, plain_role = sql.game_with_role(game_id, scorer.pk, for_update=for_update)
            assert game.has_one is OnlineTable.objects.filter(game_id=game_id).exists()
            assert fields(game) == fields(plain) and role == plain_role == "scorer"
    assert sql.game_with_role(other + 1000, scorer.pk, for_update=True, has_one=OnlineTable) is None


@pytest.mark.postgres
def test_game_with_role_reads_the_events_after_a_seq_as_event_rows_does(club, scorer):
    """The append's lock also reads the events its process has not seen (`events_after`): the same
    rows as `event_rows`, from any seq, none past the last; on SQLite the question is not asked."""
    record = engine.random_game(5)
    game_id = game_import(club=club, record=record, user=scorer).body["id"]
    seq = Game.objects.get(pk=game_id).seq
    for after in (0, 1, seq // 2, seq - 1, seq):
        with transaction.atomic():
            game, role = sql.game_with_role(game_id, scorer.pk, for_update=True, events_after=after)
        assert game.events_after == sql.event_rows(game_id, after, seq) and role == "scorer"
        assert [(s, k) for s, k, _ in game.events_after] == [
            (e.seq, e.type) for e in Event.objects.filter(game_id=game_id, seq__gt=after).order_by("seq")
        ]
    game, _role = sql.game_with_role(game_id, scorer.pk)
    assert game.events_after is None


def test_token_with_user_equals_drfs_lookup(make_user):
    """Every API request's token lookup: the token and its user, every field, as DRF's
    `select_related("user").get(key=...)` reads them; None for a key no token has (DRF then
    refuses it in its own words: tests/api/test_permissions.py)."""
    from rest_framework.authtoken.models import Token

    tokens = [Token.objects.get(user=make_user(name)) for name in ("tia", "tom")]  # make_user makes one
    for token in tokens:
        expected = Token.objects.select_related("user").get(key=token.key)
        found = sql.token_with_user(Token, token.key)
        assert found is not None
        assert fields(found) == fields(expected) and fields(found.user) == fields(expected.user)
    for missing in ("", "x" * 40, tokens[0].key[:-1], tokens[0].key + "a", "'; --"):
        assert sql.token_with_user(Token, missing) is None


def test_players_named_equals_the_orm_for_every_spelling(club, make_club):
    """The club's players by name as the unique constraint compares names: the same rows (every
    field) as the ORM's LOWER(TRIM()) lookup (games.selectors.player_named) name by name, none of
    another club's, none for a name no player has."""
    from games import selectors

    other = make_club("other-club")
    for c, name in [(club, "Anna"), (club, "Bob"), (club, "Ärger"), (other, "Anna"), (club, "  Cid")]:
        Player.objects.create(club=c, name=name)
    asked = ["anna", " BOB ", "ärger", "Dee", "cid", "Anna"]
    rows = sql.players_named(club.pk, asked)
    expected = {p.pk: fields(p) for n in asked if (p := selectors.player_named(club, n)) is not None}
    # SQLite's LOWER() folds ASCII only: "ärger" is not "Ärger" there, for the ORM as for the SQL
    found = 4 if transaction.get_connection().vendor == "postgresql" else 3
    assert {p.pk: fields(p) for p in rows} == expected and len(expected) == found
    assert sql.players_named(club.pk, []) == []


@pytest.mark.postgres
def test_players_named_is_planned_at_every_call(club):
    """Never a prepared statement (whose generic plan, settled on while a bulk import's club had
    few players, scanned all of them for every lookup as the table grew), while the site's other
    statements are prepared after a few runs (so this test would see one)."""
    Player.objects.create(club=club, name="Anna")
    connection = transaction.get_connection()
    for _ in range(8):
        assert [p.name for p in sql.players_named(club.pk, ["anna"])] == ["Anna"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT %s::int + 1", [1])
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("::int + 1" in text for text in prepared)
    assert not any("games_player" in text for text in prepared)


@pytest.fixture
def stored_game(club, scorer):
    record = engine.random_game(6, options={"hands": 2})
    return Game.objects.get(pk=game_import(club=club, record=record, user=scorer).body["id"]), record


def test_event_rows_equal_the_orm_for_every_range(stored_game):
    game, record = stored_game
    n = game.seq
    assert n == len(record["events"])
    for after, upto in ((0, n), (0, 0), (0, 1), (n // 3, n // 2), (n - 1, n), (n, n), (5, n + 10)):
        orm = list(
            Event.objects.filter(game=game, seq__gt=after, seq__lte=upto)
            .order_by("seq")
            .values_list("seq", "type", "payload")
        )
        assert sql.event_rows(game.pk, after, upto) == orm, (after, upto)
    assert [{"type": t, **p} for _, t, p in sql.event_rows(game.pk, 0, n)] == record["events"]


def _orm_append(game: Game, start: int, events: list[dict], recorded_by, recorded_at) -> None:
    # recorded_at is auto_now_add: the ORM stamps it with timezone.now(), patched by the caller
    Event.objects.bulk_create(
        [
            Event(
                game=game,
                seq=start + i + 1,
                type=e["type"],
                payload={k: v for k, v in e.items() if k != "type"},
                recorded_by_id=recorded_by,
                recorded_at=recorded_at,
            )
            for i, e in enumerate(events)
        ]
    )
    game.save(update_fields=["seq", "status", "finished_at"])


def _stored(game: Game) -> list[tuple]:
    return list(
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "type", "payload", "recorded_by_id", "recorded_at")
    )


@pytest.mark.parametrize("length", [1, 37, sql.INSERT_ROWS + 120], ids=["one", "an-append", "an-import"])
def test_append_events_stores_what_the_orm_stores(club, scorer, length, monkeypatch):
    """The same events and head written by the SQL and by bulk_create + save(): the same rows
    (JSON payloads with non-ASCII text, the recording user, the time to the microsecond) and the
    same head. Longer than INSERT_ROWS: PostgreSQL's chunked path for an import."""
    events = [
        {
            "type": "hand_result",
            "points": [i, -i],
            "note": "Ärger \u2013 \u00e9t\u00e9 \U0001f600",
            "nested": {"a": [1, None]},
        }
        for i in range(length)
    ]
    at = timezone.now().replace(microsecond=123456)
    monkeypatch.setattr(timezone, "now", lambda: at)  # the ORM's auto_now_add stamps this time too
    finished = at - datetime.timedelta(days=1)
    games = []
    for write in (sql.append_events, _orm_append):
        game = Game.objects.get(
            pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
        )
        game.seq, game.status, game.finished_at = length, Game.Status.FINISHED, finished
        with transaction.atomic():
            write(game, 0, events, scorer.pk, at)
        games.append(game)
    by_sql, by_orm = (Game.objects.get(pk=g.pk) for g in games)
    assert _stored(by_sql) == _stored(by_orm)
    assert _stored(by_sql)[-1][4] == at and len(_stored(by_sql)) == length
    assert (
        (by_sql.seq, by_sql.status, by_sql.finished_at)
        == (by_orm.seq, by_orm.status, by_orm.finished_at)
        == (length, Game.Status.FINISHED, finished)
    )


def test_append_events_after_stored_events_and_without_a_user(stored_game):
    game, record = stored_game
    start = game.seq
    game.seq, game.status, game.finished_at = start + 2, Game.Status.ACTIVE, None
    with transaction.atomic():
        sql.append_events(game, start, [{"type": "undo"}, {"type": "undo"}], None, timezone.now())
    rows = _stored(game)
    assert [r[:4] for r in rows[start:]] == [(start + 1, "undo", {}, None), (start + 2, "undo", {}, None)]
    assert Game.objects.filter(pk=game.pk).values_list("seq", "status", "finished_at").get() == (
        start + 2,
        Game.Status.ACTIVE,
        None,
    )


@pytest.mark.postgres
def test_the_append_writes_its_game_row_once(stored_game):
    """One row version of the game per append (migration 0017): the statement's own UPDATE moves
    the seq and queues the COMMIT check; the event trigger writes no second version (0016 did:
    `SET seq = seq` for every game with new rows). An insert that leaves its game behind still
    gets the trigger's write, and its COMMIT check (tests/api/test_db_roles.py)."""
    game, _ = stored_game
    start = game.seq
    game.seq = start + 1
    updates = "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'games_game'"
    with transaction.atomic(), transaction.get_connection().cursor() as cursor:
        cursor.execute(updates)  # this transaction's count so far (the test's own, the fixture's)
        before = cursor.fetchone()[0]
        sql.append_events(game, start, [{"type": "undo"}], None, timezone.now())
        cursor.execute(updates)
        assert cursor.fetchone()[0] - before == 1
    assert Game.objects.filter(pk=game.pk).values_list("seq", flat=True).get() == start + 1


# --- the rating recompute's PostgreSQL helpers ----------------------------------------------------


@pytest.fixture
def outcomes(club, scorer):
    """Outcomes of a pool as the ratings store them, with the cases the read must leave out: an
    unfinished game, a stale fold (seq behind the game's), a refused game, one without hands, and
    another variant's."""
    base = timezone.now() - datetime.timedelta(days=10)
    players = [Player.objects.create(club=club, name=f"P{i}") for i in range(4)]
    made = []
    for i, (status, stale, reason, hands, variant) in enumerate(
        [
            ("finished", False, "", 3, "nanking"),
            ("finished", False, "", 2, "nanking"),
            ("active", False, "", 2, "nanking"),
            ("finished", True, "", 2, "nanking"),
            ("finished", False, "not enough players", 2, "nanking"),
            ("finished", False, "", 0, "nanking"),
            ("finished", False, "", 2, "tientsin"),
            ("finished", False, "", 4, "nanking"),
        ]
    ):
        game = Game.objects.get(
            pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
        )
        Game.objects.filter(pk=game.pk).update(status=status)  # seq stays 0 (it counts the events)
        GameOutcome.objects.create(
            game=game,
            club=club,
            variant=variant,
            finished_at=base + datetime.timedelta(hours=i % 3, minutes=i),
            sides=[[players[0].pk, players[2].pk], [players[1].pk, players[3].pk]],
            totals=[1000 - i, 400 + i],
            winner=i % 2,
            hands=hands,
            hand_points=[[100, 0]] * hands,
            calls={str(players[0].pk): [1, 1, 0, 0]},
            doubles={"0": i},
            reason=reason,
            seq=1 if stale else 0,
        )
        made.append(game)
    return club, players, made


@pytest.mark.postgres
def test_rated_outcome_rows_equal_the_orm_read(outcomes):
    club, _, _ = outcomes
    orm = list(
        GameOutcome.objects.filter(
            club_id=club.pk,
            variant="nanking",
            reason="",
            hands__gt=0,
            game__status=Game.Status.FINISHED,
            seq=F("game__seq"),
        )
        .order_by("finished_at", "game_id")
        .values(*OUTCOME_FIELDS)
    )
    assert len(orm) == 3
    assert sql.rated_outcome_rows(GameOutcome, club.pk, "nanking") == orm


@pytest.mark.postgres
def test_copy_rows_stores_what_bulk_create_stores(outcomes):
    club, players, games = outcomes
    at = timezone.now().replace(microsecond=654321)

    def values(game):
        return [
            (
                game.pk,
                p.pk,
                club.pk,
                "nanking",
                at,
                k,
                k % 2,
                1500.5,
                1510.25,
                80.0,
                79.5,
                0.5,
                1.0,
                k + 1,
                None if k == 3 else 700.0,
                300.0,
                1,
                0,
                0,
                0,
                k,
                1500.0,
                1512.0,
            )
            for k, p in enumerate(players)
        ]

    with transaction.atomic():
        sql.copy_rows(RatingChange, CHANGE_COLUMNS, values(games[0]))
    RatingChange.objects.bulk_create([RatingChange(**dict(zip(CHANGE_COLUMNS, v))) for v in values(games[1])])
    read = lambda game: list(
        RatingChange.objects.filter(game=game)
        .order_by("player_id")  # noqa: E731
        .values_list(*[c for c in CHANGE_COLUMNS if c != "game_id"])
    )
    assert read(games[0]) == read(games[1]) and len(read(games[0])) == 4


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # SET LOCAL lasts to the end of the outer transaction
def test_commit_without_wal_wait_lasts_one_transaction():
    from django.db import connection

    def setting():
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    before = setting()
    with transaction.atomic():
        sql.commit_without_wal_wait()
        assert setting() == "off"
    assert setting() == before != "off"


# --- the bulk import's event rows (games.bulk_store) ---------------------------------------------


def _orm_event_rows(rows, recorded_by, recorded_at) -> None:
    Event.objects.bulk_create(
        [
            Event(game_id=g, seq=s, type=t, payload=p, recorded_by_id=recorded_by, recorded_at=recorded_at)
            for g, s, t, p in rows
        ]
    )


def _rows_of(games: list[Game], length: int) -> list[tuple]:
    """Rows of several games interleaved game by game, each in seq order from 1, with JSON that
    text encodings could get wrong (non-ASCII, escapes, nesting, null, floats, an empty object)."""
    return [
        (
            g.pk,
            seq,
            "hand_result" if seq % 3 else "undo",
            {}
            if seq % 3 == 0
            else {
                "points": [seq, -seq],
                "note": 'Ärger \u2013 "q" \\ \t \U0001f600',
                "nested": {"a": [1, None, 2.5, 10**20, -0.0, 1e-7]},
            },
        )
        for g in games
        for seq in range(1, length + 1)
    ]


def _game_rows(games: list[Game]) -> list[list[tuple]]:
    return [_stored(g) for g in games]


def _imported_events(rows, recorded_by, recorded_at) -> None:
    """`sql.insert_imported_events` (PostgreSQL) given the rows as records: each game's events,
    as the bulk import passes them, and its head."""
    events: dict[int, list[dict]] = {}
    for game_id, _, kind, payload in rows:
        events.setdefault(game_id, []).append({"type": kind, **payload})
    games = []
    for game_id, evs in events.items():
        game = Game.objects.get(pk=game_id)
        game.seq, game.status, game.finished_at = len(evs), Game.Status.ACTIVE, None
        games.append((game, evs))
    assert recorded_by is None  # the import records no user
    sql.insert_imported_events(games, recorded_at)


@pytest.mark.parametrize("length", [1, 41])
def test_bulk_event_rows_store_what_bulk_create_stores(club, scorer, length, monkeypatch):
    """Each bulk writer of games.sql (the INSERT; on PostgreSQL the import's statement that takes
    the payloads from one JSON text) stores the rows bulk_create stores: payloads, the
    recording user (none or one: the import's statement records none), the time to the microsecond."""
    at = timezone.now().replace(microsecond=654321)
    monkeypatch.setattr(timezone, "now", lambda: at)  # the ORM's auto_now_add stamps this time too
    writers = [sql.insert_event_rows, _orm_event_rows]
    if transaction.get_connection().vendor == "postgresql":
        writers.append(_imported_events)
    stored = {}
    for write in writers:
        for recorded_by in (None, scorer.pk) if write is not _imported_events else (None,):
            games = [
                Game.objects.get(
                    pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
                )
                for _ in range(2)
            ]
            with transaction.atomic():
                write(iter(_rows_of(games, length)), recorded_by, at)  # an iterator, as bulk_store passes
                # the head, as bulk_store moves it (PostgreSQL's deferred trigger checks it at commit)
                Game.objects.filter(pk__in=[g.pk for g in games]).update(seq=length)
            stored[write.__name__, recorded_by] = _game_rows(games)
    expected = {by: stored["_orm_event_rows", by] for by in (None, scorer.pk)}
    assert len(expected[None][0]) == length and expected[None][0][-1][3:] == (None, at)
    assert expected[scorer.pk][1][0][3] == scorer.pk
    assert len(stored) == len(writers) * 2 - (len(writers) == 3)
    for (name, by), rows in stored.items():
        assert rows == expected[by], name


@pytest.mark.postgres
def test_the_import_statement_moves_the_heads_and_passes_the_game_triggers(club, scorer):
    """`insert_imported_events` moves each game's seq, status and finished_at with its events;
    a head that does not reach the newest event is refused (games_game_seq_follows_events: the
    statement goes through the triggers of both tables), and nothing of the statement stays."""
    games = [
        Game.objects.get(
            pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
        )
        for _ in range(2)
    ]
    at = timezone.now()
    texts = [[{"type": "undo"}] * n for n in (3, 2)]
    games[0].seq, games[0].status, games[0].finished_at = 3, Game.Status.FINISHED, at
    games[1].seq, games[1].status, games[1].finished_at = 1, Game.Status.ACTIVE, None  # one short
    with pytest.raises(DatabaseError, match="must be the seq of the newest event"):
        with transaction.atomic():
            sql.insert_imported_events(list(zip(games, texts)), at)
    assert not Event.objects.filter(game__in=games).exists()
    games[1].seq = 2
    with transaction.atomic():
        sql.insert_imported_events(list(zip(games, texts)), at)
    heads = {g.pk: (g.seq, g.status, g.finished_at) for g in Game.objects.filter(pk__in=[g.pk for g in games])}
    assert heads == {games[0].pk: (3, "finished", at), games[1].pk: (2, "active", None)}
    assert [len(_stored(g)) for g in games] == [3, 2]


def test_bulk_event_rows_pass_the_seq_trigger(club, scorer):
    """A row that skips a seq is refused by `games_event_seq_is_next` (a DatabaseError, as Django
    raises for every statement): the caller's transaction rolls back with none of the rows."""
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    rows = [(game.pk, 1, "undo", {}), (game.pk, 3, "undo", {})]
    with pytest.raises(DatabaseError, match="seq must be the next one"):
        with transaction.atomic():
            sql.insert_event_rows(rows, None, timezone.now())
    assert not Event.objects.filter(game=game).exists()
