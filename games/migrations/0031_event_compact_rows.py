"""A game's event rows in fewer bytes (issue 35 item 6; figures in docs/speed.md, "An archive's
bytes"). Every event stays its own row with its game, seq, type, payload, recorded_by and
recorded_at, and the table keeps its guarantees (append-only triggers of 0002, the seq checks of
0012/0016/0017, the app role's SELECT and INSERT only: games.db_roles, re-granted by `manage.py
migrate`). What changes:

- no surrogate `id`: the primary key is (game_id, seq), the unique constraint it replaces (one
  index instead of two: the `id` index was 2.4 KB a hand and served nothing but the admin's URLs);
- `payload` is compact JSON text (games.streams.models.JSONTextField) instead of jsonb: an event's
  small object took about twice its text's bytes as jsonb (43 against 22 bytes on average);
- the key's index packs its pages full (fillfactor 100: it grows at its right end);
- the columns in the order that leaves no alignment padding: the 8-byte ones first (game_id,
  recorded_at), then seq and recorded_by_id (4 bytes each), then the two texts (1-byte headers
  when short, no alignment).

PostgreSQL cannot reorder columns nor drop one's bytes without a rewrite: the table is built anew
(CREATE, INSERT ... SELECT in (game, seq) order, DROP, RENAME), its constraints, index and
triggers put back, the trigger functions (which outlive the table) unchanged, and the old table's
rights given to the new one (`_same_rights`). The existing
payloads are converted by the server: jsonb's text with the blanks between tokens taken out
(those inside strings kept). SQLite is rebuilt the same way (`json()` makes its text compact; the rename in legacy mode, see
`_sqlite_rename`).
Reverse: the old table, ids drawn anew in (game, seq) order.
"""

from django.db import migrations, models

import games.streams.models
from games.streams import triggers

APPEND_ONLY = triggers.append_only("games_event", prefix="games_event")
SQLITE_SEQ = triggers.seq_is_next("games_event", prefix="games_event", head="game")
#: 0016's statement trigger (its function, games_event_check_seq, is 0017's and stays)
POSTGRES_SEQ_TRIGGER = """
    CREATE TRIGGER games_event_seq_is_next AFTER INSERT ON games_event
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_check_seq()
    """
#: jsonb's text ({"a": 1, "b": [1, 2]}) made compact: every string kept whole, blanks outside them removed
COMPACT = r"""regexp_replace(payload::text, '("(?:[^"\\]|\\.)*")|[ ]+', '\1', 'g')"""
FOREIGN_KEYS = [
    "ALTER TABLE games_event ADD CONSTRAINT games_event_game_id_afa0391c_fk_games_game_id "
    "FOREIGN KEY (game_id) REFERENCES games_game (id) DEFERRABLE INITIALLY DEFERRED",
    "ALTER TABLE games_event ADD CONSTRAINT games_event_recorded_by_id_1805bc8a_fk_auth_user_id "
    "FOREIGN KEY (recorded_by_id) REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED",
]
RECORDED_BY_INDEX = (
    'CREATE INDEX "event_recorded_by_set" ON "games_event" ("recorded_by_id") WHERE "recorded_by_id" IS NOT NULL'
)


def _same_rights(new: str) -> str:
    """`new` gets exactly the rights games_event gives (the app role's SELECT and INSERT:
    games.db_roles), not the owner's default privileges for new tables, which `manage.py migrate`
    would narrow only once every migration has run (a table built by a migration run otherwise
    would keep them)."""
    return f"""
    DO $$
    DECLARE r record;
    BEGIN
        FOR r IN SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a
                  WHERE c.oid = '{new}'::regclass AND a.grantee <> c.relowner
        LOOP
            EXECUTE format('REVOKE ALL ON {new} FROM %s',
                CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r.grantee)) END);
        END LOOP;
        FOR r IN SELECT a.grantee, a.privilege_type FROM pg_class c, aclexplode(c.relacl) a
                  WHERE c.oid = 'games_event'::regclass AND a.grantee <> c.relowner
        LOOP
            EXECUTE format('GRANT %s ON {new} TO %s', r.privilege_type,
                CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r.grantee)) END);
        END LOOP;
    END
    $$
    """


POSTGRES_FORWARDS = [
    "LOCK TABLE games_event IN ACCESS EXCLUSIVE MODE",
    """
    CREATE TABLE games_event_compact (
        game_id bigint NOT NULL,
        recorded_at timestamp with time zone NOT NULL,
        seq integer NOT NULL CONSTRAINT games_event_seq_check CHECK (seq >= 0),
        recorded_by_id integer NULL,
        type varchar(30) NOT NULL,
        payload text NOT NULL
    )
    """,
    f"INSERT INTO games_event_compact (game_id, recorded_at, seq, recorded_by_id, type, payload) "
    f"SELECT game_id, recorded_at, seq, recorded_by_id, type, {COMPACT} FROM games_event ORDER BY game_id, seq",
    _same_rights("games_event_compact"),
    "DROP TABLE games_event",  # its triggers, indexes and id sequence with it
    "ALTER TABLE games_event_compact RENAME TO games_event",
    # fillfactor 100: a game's rows come in seq order and games in id order, so the index grows at
    # its right end, where a split leaves the left page this full (the default, 90, kept a tenth
    # of every page free for inserts that never come); a split inside the index halves a page
    # whatever the fillfactor
    "ALTER TABLE games_event ADD CONSTRAINT games_event_pkey PRIMARY KEY (game_id, seq) WITH (fillfactor = 100)",
    *FOREIGN_KEYS,
    RECORDED_BY_INDEX,
    *APPEND_ONLY.of("postgresql", 0),
    POSTGRES_SEQ_TRIGGER,
]

POSTGRES_BACKWARDS = [
    "LOCK TABLE games_event IN ACCESS EXCLUSIVE MODE",
    """
    CREATE TABLE games_event_wide (
        id bigint GENERATED BY DEFAULT AS IDENTITY,
        seq integer NOT NULL CONSTRAINT games_event_seq_check CHECK (seq >= 0),
        type varchar(30) NOT NULL,
        payload jsonb NOT NULL,
        recorded_at timestamp with time zone NOT NULL,
        recorded_by_id integer NULL,
        game_id bigint NOT NULL
    )
    """,
    "INSERT INTO games_event_wide (seq, type, payload, recorded_at, recorded_by_id, game_id) "
    "SELECT seq, type, payload::jsonb, recorded_at, recorded_by_id, game_id FROM games_event ORDER BY game_id, seq",
    _same_rights("games_event_wide"),
    "DROP TABLE games_event",
    "ALTER TABLE games_event_wide RENAME TO games_event",
    "ALTER SEQUENCE games_event_wide_id_seq RENAME TO games_event_id_seq",
    "ALTER TABLE games_event ADD CONSTRAINT games_event_pkey PRIMARY KEY (id)",
    "ALTER TABLE games_event ADD CONSTRAINT event_unique_game_seq UNIQUE (game_id, seq)",
    *FOREIGN_KEYS,
    RECORDED_BY_INDEX,
    *APPEND_ONLY.of("postgresql", 0),
    POSTGRES_SEQ_TRIGGER,
]


def _sqlite_rename(table: str) -> list[str]:
    """`table` renamed games_event. In legacy mode: SQLite's newer RENAME checks every trigger of
    the schema, and games_game's (0012) name games_event, dropped just before."""
    return [
        "PRAGMA legacy_alter_table = ON",
        f'ALTER TABLE "{table}" RENAME TO "games_event"',
        "PRAGMA legacy_alter_table = OFF",
    ]


SQLITE_FORWARDS = [
    'CREATE TABLE "games_event_compact" ('
    '"game_id" bigint NOT NULL REFERENCES "games_game" ("id") DEFERRABLE INITIALLY DEFERRED, '
    '"recorded_at" datetime NOT NULL, '
    '"seq" integer unsigned NOT NULL CHECK ("seq" >= 0), '
    '"recorded_by_id" integer NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, '
    '"type" varchar(30) NOT NULL, '
    '"payload" text NOT NULL, '
    'PRIMARY KEY ("game_id", "seq"))',
    'INSERT INTO "games_event_compact" (game_id, recorded_at, seq, recorded_by_id, type, payload) '
    "SELECT game_id, recorded_at, seq, recorded_by_id, type, json(payload) FROM games_event ORDER BY game_id, seq",
    'DROP TABLE "games_event"',
    *_sqlite_rename("games_event_compact"),
    RECORDED_BY_INDEX,
    *APPEND_ONLY.of("sqlite", 0),
    *SQLITE_SEQ.of("sqlite", 0),
]

SQLITE_BACKWARDS = [
    'CREATE TABLE "games_event_wide" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, '
    '"seq" integer unsigned NOT NULL CHECK ("seq" >= 0), "type" varchar(30) NOT NULL, '
    '"payload" text NOT NULL CHECK ((JSON_VALID("payload") OR "payload" IS NULL)), '
    '"recorded_at" datetime NOT NULL, '
    '"recorded_by_id" integer NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, '
    '"game_id" bigint NOT NULL REFERENCES "games_game" ("id") DEFERRABLE INITIALLY DEFERRED, '
    'CONSTRAINT "event_unique_game_seq" UNIQUE ("game_id", "seq"))',
    'INSERT INTO "games_event_wide" (seq, type, payload, recorded_at, recorded_by_id, game_id) '
    "SELECT seq, type, payload, recorded_at, recorded_by_id, game_id FROM games_event ORDER BY game_id, seq",
    'DROP TABLE "games_event"',
    *_sqlite_rename("games_event_wide"),
    RECORDED_BY_INDEX,
    *APPEND_ONLY.of("sqlite", 0),
    *SQLITE_SEQ.of("sqlite", 0),
]

STATEMENTS = {
    "postgresql": (POSTGRES_FORWARDS, POSTGRES_BACKWARDS),
    "sqlite": (SQLITE_FORWARDS, SQLITE_BACKWARDS),
}


def _run(schema_editor, which: int) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise NotImplementedError(f"no event table rebuild for the {vendor} backend")
    for sql in STATEMENTS[vendor][which]:
        schema_editor.execute(sql, params=None)


def forwards(apps, schema_editor):
    _run(schema_editor, 0)


def backwards(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [("games", "0030_game_seq_notifies_its_listeners")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forwards, backwards)],
            state_operations=[
                migrations.RemoveConstraint(model_name="event", name="event_unique_game_seq"),
                migrations.RemoveField(model_name="event", name="id"),
                migrations.AddField(
                    model_name="event",
                    name="pk",
                    field=models.CompositePrimaryKey(
                        "game", "seq", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                migrations.AlterField(
                    model_name="event",
                    name="payload",
                    field=games.streams.models.JSONTextField(default=dict),
                ),
            ],
        )
    ]
