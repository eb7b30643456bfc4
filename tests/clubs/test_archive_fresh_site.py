"""A club's archive imported into an empty database (a new SQLite site, migrated from nothing, in
another process, whatever database the test suite runs on) holds every row of the club as the
exporting site had it, and its ratings, recomputed there from the games, are the club's."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.clubs.archive import KIND, KINDS, write_archive
from games.models import Player
from games.ratings.models import PlayerRating, RatingChange
from tests.clubs.archive_helpers import build_club, mapped_inner_ids

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]

#: run in the new site: its ratings, keyed by what does not depend on ids
RATINGS_SCRIPT = """
import json
from games.models import Club, Game
from games.ratings.models import PlayerRating, RatingChange
club = Club.objects.get()
order = {g: i for i, g in enumerate(Game.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))}
changes = [[r.variant, r.ordinal, r.player.name, order[r.game_id], r.rating_before, r.rating_after, r.rd_after,
            r.expected, r.score, r.games, r.elo_before, r.elo_after]
           for r in RatingChange.objects.filter(club=club).select_related("player").order_by("variant", "ordinal", "player__name")]
ratings = [[r.variant, r.player.name, r.rating, r.rd, r.games, r.provisional, r.mu, r.var, r.last_t, r.elo, r.copies,
            r.shown, r.last_game_at.isoformat()]
           for r in PlayerRating.objects.filter(club=club).select_related("player").order_by("variant", "player__name")]
print(json.dumps({"changes": changes, "ratings": ratings}))
"""


def _ratings_here(club) -> dict:
    from games.models import Game

    order = {g: i for i, g in enumerate(Game.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))}
    changes = [
        [
            r.variant,
            r.ordinal,
            r.player.name,
            order[r.game_id],
            r.rating_before,
            r.rating_after,
            r.rd_after,
            r.expected,
            r.score,
            r.games,
            r.elo_before,
            r.elo_after,
        ]
        for r in RatingChange.objects.filter(club=club)
        .select_related("player")
        .order_by("variant", "ordinal", "player__name")
    ]
    ratings = [
        [
            r.variant,
            r.player.name,
            r.rating,
            r.rd,
            r.games,
            r.provisional,
            r.mu,
            r.var,
            r.last_t,
            r.elo,
            r.copies,
            r.shown,
            r.last_game_at.isoformat(),
        ]
        for r in PlayerRating.objects.filter(club=club).select_related("player").order_by("variant", "player__name")
    ]
    return json.loads(json.dumps({"changes": changes, "ratings": ratings}))


def _manage(env: dict, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _lines(data: bytes) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def _mapping(source: list[dict], copy: list[dict]) -> dict[str, dict]:
    """Archive id of the source -> archive id of the copy, per kind: the n-th row of a kind (each
    kind is written in key order, and the import inserts in archive order)."""
    ids: dict[str, dict] = {k.name: {} for k in KINDS}
    by_kind: dict[str, list] = {}
    for line in copy:
        by_kind.setdefault(line.get("t"), []).append(line)
    seen: dict[str, int] = {}
    for line in source:
        kind = line.get("t")
        if kind in ids and "id" in line:
            ids[kind][line["id"]] = by_kind[kind][seen.setdefault(kind, 0)]["id"]
            seen[kind] += 1
    return ids


def _translated(line: dict, ids: dict) -> dict:
    """A source line with every reference said in the copy's ids."""
    kind = KIND.get(line.get("t"))
    if kind is None:
        return line
    out = dict(line)
    if "id" in out:
        out["id"] = ids[kind.name][out["id"]]
    for name, target in kind.refs.items():
        if target != "user" and out.get(name) is not None:
            out[name] = ids[target][out[name]]
    out.update(mapped_inner_ids(kind.name, out, ids))
    return out


def test_an_archive_imported_into_an_empty_database_is_the_club_row_for_row(
    make_user, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        club = build_club(make_user)
    out = io.BytesIO()
    write_archive(club, out, emails=True)
    archive = tmp_path / "tuesday.jsonl.gz"
    archive.write_bytes(out.getvalue())

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_", "CACHE_URL"))}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'new-site.sqlite3'}"
    _manage(env, "migrate", "--no-input")
    said = _manage(env, "import_club", str(archive))
    assert "imported club tuesday" in said and "ann, bob" in said  # the new site had no accounts
    _manage(env, "export_club", "tuesday", str(tmp_path / "again.jsonl.gz"), "--emails")

    source, copy = _lines(archive.read_bytes()), _lines((tmp_path / "again.jsonl.gz").read_bytes())
    assert copy[0]["format"] == source[0]["format"] and copy[-1] == source[-1]  # the same rows of each kind
    ids = _mapping(source, copy)
    for was, now in zip(source[1:], copy[1:], strict=True):
        assert now == _translated(was, ids), was.get("t")
    assert {line["t"] for line in copy[1:-1]} == {"user", *KIND}

    theirs = json.loads(_manage(env, "shell", "-c", RATINGS_SCRIPT).strip().splitlines()[-1])
    ours = _ratings_here(club)
    assert theirs == ours and len(ours["changes"]) >= 16 and ours["ratings"]
    assert Player.objects.filter(club=club).count() > 0 and PlayerRating.objects.filter(club=club).exists()
