"""manage.py import_bsw FOLDER --workers with a real Celery worker on Redis and PostgreSQL
(`make test-celery`): the command queues the chunks, the worker process imports them, the
command follows the job to its end; a second run stores nothing."""

import io

import pytest
from django.core.management import call_command

from games.models import Club, Event, Game, ImportJob
from tests.corpus import CORPUS, needs_corpus

pytestmark = [pytest.mark.celery_worker, needs_corpus]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_imports_the_folder_once(celery_worker_process, monkeypatch):
    monkeypatch.setattr("games.import_tasks.CHUNK_FILES", 2)
    Club.objects.create(slug="bsw", name="BSW history", visibility="public")
    folder = CORPUS / "bsw-tich_me"
    files = len(list(folder.glob("*.tch")))
    call_command(
        "import_bsw",
        str(folder),
        "--club",
        "bsw",
        "--workers",
        "--stall-timeout",
        "60",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    job = ImportJob.objects.get()
    assert (job.files_done, job.files_skipped, job.files_failed) == (files, 0, 0)
    assert job.finished_at is not None
    assert "import_bsw_chunk" in celery_worker_process.log()
    games, events = Game.objects.count(), Event.objects.count()
    assert games == job.games_stored > 0

    call_command(
        "import_bsw",
        str(folder),
        "--club",
        "bsw",
        "--workers",
        "--stall-timeout",
        "60",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    again = ImportJob.objects.order_by("-id").first()
    assert (again.files_done, again.files_skipped) == (0, files)
    assert (Game.objects.count(), Event.objects.count()) == (games, events)
