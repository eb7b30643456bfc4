"""The bulk path of `import_bsw --workers` (games.bulk_store, games.import_tasks): it stores what the
game-by-game import stores, its rows pass the append-only store's triggers, and a job's games are
rated by one recompute through the held rating-outbox rows (none lost when the job's message is)."""

from __future__ import annotations

import io
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.utils import timezone

from games import selectors
from games.bulk_store import fold_checked, store_records
from games.engine import read_bsw
from games.models import Club, Event, Game
from games.ratings import outbox, services
from games.ratings.models import GameOutcome, RatingChange, RatingOutbox
from tests.corpus import CORPUS, needs_corpus

pytestmark = [needs_corpus, pytest.mark.django_db]

FOLDER = CORPUS / "bsw-tich_me"


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def club(slug: str) -> Club:
    return Club.objects.create(slug=slug, name=slug, visibility="public")


def stored(c: Club) -> dict[str, tuple]:
    """Each game of the club by its content hash: its record as exported, status, seq, seat
    players, and its date when the log gives one (else the time of the import)."""
    return {
        g.import_hash: (
            selectors.game_record(g),
            g.status,
            g.seq,
            selectors.game_player_names(g),
            g.played_at if (g.header.get("meta") or {}).get("played_at") else None,
        )
        for g in Game.objects.filter(club=c)
    }


def test_the_bulk_path_stores_what_the_game_by_game_import_stores(monkeypatch):
    monkeypatch.setattr("games.import_tasks.CHUNK_FILES", 3)
    bulk, serial = club("bulk"), club("serial")
    run("import_bsw", str(FOLDER), "--club", "bulk", "--workers")
    run("import_bsw", str(FOLDER), "--club", "serial")
    ours, theirs = stored(bulk), stored(serial)
    assert len(ours) == Game.objects.filter(club=bulk).count() >= 4
    assert ours == theirs
    assert Game.objects.filter(club=bulk, status=Game.Status.FINISHED).exists()


def test_a_job_is_rated_by_one_recompute_and_leaves_the_outbox_empty(monkeypatch):
    monkeypatch.setattr("games.import_tasks.CHUNK_FILES", 2)
    published = []
    monkeypatch.setattr(outbox, "publish", lambda game_id: published.append(game_id) or True)
    c = club("rated")
    run("import_bsw", str(FOLDER), "--club", "rated", "--workers")
    finished = Game.objects.filter(club=c, status=Game.Status.FINISHED).count()
    assert finished > 0
    assert published == []  # no task per game
    assert RatingOutbox.objects.count() == 0
    assert GameOutcome.objects.filter(game__club=c).count() == finished
    assert RatingChange.objects.filter(club=c).exists()
    table = services.pool_signature(c.pk, "nanking")
    services.recompute_club(c.pk, refold=True)  # every outcome folded again from the stored events
    assert services.pool_signature(c.pk, "nanking") == table


def test_the_outcomes_written_with_the_files_are_those_a_fold_of_the_stored_events_gives(monkeypatch):
    """Each file's transaction writes the rating outcomes of its finished games from the states it
    folded (games.hooks.finished_games_stored_held): the same rows as the ratings' own fold of
    the stored events (ensure_outcome with refold), field by field."""
    monkeypatch.setattr("games.ratings.tasks.rate_import_job.delay", lambda *a, **k: None)  # no recompute
    c = club("outcomes")
    run("import_bsw", str(FOLDER), "--club", "outcomes", "--workers")
    finished = list(Game.objects.filter(club=c, status=Game.Status.FINISHED))
    fields = [f.name for f in GameOutcome._meta.concrete_fields if f.name != "id"]
    written = {o["game"]: o for o in GameOutcome.objects.filter(game__club=c).values(*fields)}
    assert sorted(written) == sorted(g.pk for g in finished) and finished
    for game in finished:
        services.ensure_outcome(game, refold=True)
    assert {o["game"]: o for o in GameOutcome.objects.filter(game__club=c).values(*fields)} == written
    assert any(o["hands"] for o in written.values())


def test_held_rows_wait_for_the_job_and_go_to_the_sweep_when_its_message_is_lost(monkeypatch):
    monkeypatch.setattr("games.ratings.tasks.rate_import_job.delay", lambda *a, **k: None)  # the message is lost
    c = club("lost")
    run("import_bsw", str(FOLDER), "--club", "lost", "--workers")
    finished = Game.objects.filter(club=c, status=Game.Status.FINISHED).count()
    assert RatingOutbox.objects.count() == finished > 0
    assert not RatingChange.objects.filter(club=c).exists()
    assert outbox.sweep(grace_s=0)["queued"] == 0  # held: the job's recompute is due, not a task per game
    RatingOutbox.objects.update(queued_at=timezone.now() - timedelta(days=1))  # the hold has ended
    assert outbox.sweep(grace_s=0)["queued"] == finished  # eager here: each game rated by its task
    assert RatingOutbox.objects.count() == 0
    table = services.pool_signature(c.pk, "nanking")
    services.recompute_club(c.pk, refold=True)
    assert services.pool_signature(c.pk, "nanking") == table and table


def test_bulk_rows_pass_the_seq_triggers(monkeypatch, tmp_path):
    """The bulk writes go through the seq triggers of the append-only store: on SQLite a game
    whose events would start at seq 2 is refused by `games_event_seq_is_next`; on PostgreSQL (one
    statement that takes the events from the record's JSON and moves the game) a game moved to
    one event short of its newest is refused by `games_game_seq_follows_events`. Nothing is stored."""
    import games.bulk_store as bulk_store
    from games import sql

    c = club("trigger")
    path = sorted(FOLDER.glob("*.tch"))[0]
    records = [r.record for r in read_bsw(path.read_text(encoding="latin-1"), lax=True)]
    checked = [fold_checked(r) for r in records[:1]]
    rows = bulk_store._event_rows
    monkeypatch.setattr(
        bulk_store,
        "_event_rows",
        lambda games, chk: ((g, seq + 1, kind, payload) for g, seq, kind, payload in rows(games, chk)),
    )
    imported = sql.insert_imported_events

    def short_head(games, at):
        for game, _ in games:
            game.seq -= 1
        imported(games, at)

    monkeypatch.setattr(sql, "insert_imported_events", short_head)
    with pytest.raises(DatabaseError, match="seq must be the next one|must be the seq of the newest event"):
        with transaction.atomic():
            store_records(club=c, checked=checked)
    assert (Game.objects.filter(club=c).count(), Event.objects.filter(game__club=c).count()) == (0, 0)


def test_a_second_bulk_store_of_the_same_games_stores_nothing(tmp_path):
    c = club("twice")
    path: Path = sorted(FOLDER.glob("*.tch"))[0]
    shutil.copy(path, tmp_path / "a.tch")
    records = [r.record for r in read_bsw(path.read_text(encoding="latin-1"), lax=True)]
    with transaction.atomic():
        first = store_records(club=c, checked=[fold_checked(r) for r in records])
    with transaction.atomic():
        second = store_records(club=c, checked=[fold_checked(r) for r in records])
    assert all(created for _, created in first)
    assert [(g.pk, created) for g, created in second] == [(g.pk, False) for g, _ in first]
