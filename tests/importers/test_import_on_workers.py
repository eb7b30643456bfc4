"""manage.py import_bsw FOLDER --workers: the folder in Celery tasks (eager here, in-process),
resumable and idempotent by each file's content hash."""

from __future__ import annotations

import io
import shutil

import pytest
from django.core.management import CommandError, call_command

from games.models import Club, Event, Game, ImportedFile, ImportJob
from tests.corpus import CORPUS, needs_corpus

pytestmark = needs_corpus


@pytest.fixture
def club(db):
    return Club.objects.create(slug="bsw", name="BSW history", visibility="public")


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_workers_import_the_folder_and_a_second_run_stores_nothing_twice(club, monkeypatch):
    monkeypatch.setattr("games.import_tasks.CHUNK_FILES", 2)  # several chunks, several tasks
    folder = CORPUS / "bsw-tich_me"
    plain = run("import_bsw", str(folder), "--club", "bsw", "--dry-run", "--json")
    files = sorted(folder.glob("*.tch"))
    run("import_bsw", str(folder), "--club", "bsw", "--workers")
    job = ImportJob.objects.get()
    assert (job.files_total, job.files_done, job.files_skipped, job.files_failed) == (len(files), len(files), 0, 0)
    assert job.finished_at is not None
    games, events = Game.objects.count(), Event.objects.count()
    assert games == job.games_stored == sum(f.games_stored for f in ImportedFile.objects.all())
    assert games == sum(entry["games"] for entry in __import__("json").loads(plain)) > 0

    out = run("import_bsw", str(folder), "--club", "bsw", "--workers")
    again = ImportJob.objects.order_by("-id").first()
    assert (again.files_done, again.files_skipped, again.games_stored) == (0, len(files), 0)
    assert "0 files imported" in out
    assert (Game.objects.count(), Event.objects.count()) == (games, events)


def test_a_copy_under_another_name_is_skipped_by_its_content(club, tmp_path):
    source = sorted((CORPUS / "bsw-tich_me").glob("*.tch"))[0]
    shutil.copy(source, tmp_path / "first.tch")
    shutil.copy(source, tmp_path / "copy.tch")
    run("import_bsw", str(tmp_path), "--club", "bsw", "--workers")
    job = ImportJob.objects.get()
    assert (job.files_done, job.files_skipped) == (1, 1)
    assert ImportedFile.objects.count() == 1


def test_a_file_with_no_game_fails_alone_stores_nothing_and_the_command_says_so(club, tmp_path):
    good = sorted((CORPUS / "bsw-tich_me").glob("*.tch"))[0]
    shutil.copy(good, tmp_path / "good.tch")
    (tmp_path / "bad.tch").write_text("not a log at all\n", encoding="latin-1")
    with pytest.raises(CommandError, match="1 files failed"):
        run("import_bsw", str(tmp_path), "--club", "bsw", "--workers")
    job = ImportJob.objects.get()
    assert (job.files_done, job.files_failed) == (1, 1)
    assert list(ImportedFile.objects.values_list("name", flat=True)) == ["good.tch"]


def test_the_command_gives_up_when_no_worker_makes_progress(club, monkeypatch):
    monkeypatch.setattr("games.import_tasks.import_bsw_chunk.delay", lambda *a, **k: None)  # no worker takes it
    with pytest.raises(CommandError, match="no progress"):
        run("import_bsw", str(CORPUS / "bsw-tich_me"), "--club", "bsw", "--workers", "--stall-timeout", "0.6")
    assert Game.objects.count() == 0


def test_the_imports_page_shows_a_running_job_to_club_admins_only(club, client, django_user_model):
    from games.models import Membership

    admin = django_user_model.objects.create_user("ada", password="pw")
    viewer = django_user_model.objects.create_user("vic", password="pw")
    Membership.objects.create(user=admin, club=club, role="admin")
    Membership.objects.create(user=viewer, club=club, role="viewer")
    ImportJob.objects.create(club=club, files_total=10, files_done=3, files_skipped=1, games_stored=3)
    client.force_login(viewer)
    assert client.get("/clubs/bsw/imports/").status_code == 404
    client.force_login(admin)
    page = client.get("/clubs/bsw/imports/").content.decode()
    assert "4 / 10 files" in page and 'http-equiv="refresh"' in page
    ImportJob.objects.update(files_done=9, finished_at="2026-01-01T00:00:00Z")
    assert 'http-equiv="refresh"' not in client.get("/clubs/bsw/imports/").content.decode()


def test_a_files_mended_hands_are_kept_with_their_rule_for_the_imports_page(club, tmp_path):
    text = (CORPUS / "bsw-tich_me" / "2241381.tch").read_text(encoding="utf-8")
    shaped = text.replace("Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n", 1)
    (tmp_path / "2241381.tch").write_text(shaped, encoding="latin-1")
    run("import_bsw", str(tmp_path), "--club", "bsw", "--workers")
    (row,) = ImportedFile.objects.all()
    (note,) = row.hands_mended
    assert (note["game"], note["hand"], note["action"], note["rule"]) == (1, 2, "kept as its score-sheet line", "kept")
    assert note["params"]["cause"] == {"rule": "play_line", "params": {"text": "'Zuschauer: hallo'"}}
    assert shaped.split("\n")[note["line"] - 1] == "Zuschauer: hallo"
