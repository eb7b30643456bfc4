"""Importing other tools' game logs into a club: Brettspielwelt `.tch` logs, through the same
service as the API's record import (games.services.game_import). Used by `manage.py import_bsw`
and `POST /api/games/import-bsw/`."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from games.engine import EngineError, bsw_played_at, check_game, read_bsw, settle_refused_hands
from games.models import Club, Game
from games.services import RuleViolation, ServiceError, WriteResult, game_import, idempotent_write
from games.services.dating import dating

#: `played_at_source` of a log dated by the date its importer gave (the API's `played_at`)
GIVEN_WITH_IMPORT = "given with the import"


def files_under(paths: list[str], suffix: str) -> list[Path]:
    """The files named, and the files ending in ``suffix`` below the folders named, in order.
    A path that does not exist raises FileNotFoundError naming it."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.rglob(f"*{suffix}") if p.is_file())
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"{raw}: no such file or folder")
    return found


def import_bsw_log(
    *,
    club: Club,
    text: str,
    user,
    bsw_scoring: bool = False,
    anonymise: bool = False,
    game_id: str | None = None,
    dry_run: bool = False,
    path: Path | None = None,
    idempotency_key: str | None = None,
    played_at: datetime | None = None,
) -> WriteResult:
    """Convert every game of one log, check each hand against the log's Ergebnis, store the games
    the engine accepts. The result's body is the report: games, hands, hands equal, stored,
    already imported, game ids, differences, errors, ``dates`` (each game's ``played_at`` and how
    it is known, or that it has none and is dated by its import), and ``hands_mended``: each hand the reader
    repaired, kept as its score-sheet line or skipped (a line it could not read, or an event the
    engine refused, costs that hand, never the game), with the log's line and the reason. The
    games are dated by the log's ``YYYYMM`` archive folder (``path``), else by their id
    (games.engine.bsw_played_at), or by ``played_at`` when the caller knows the date (the API's
    ``played_at``: it wins over the id's estimate).

    Atomic: the games of one log are stored in one transaction (a failure midway stores none).
    Idempotent by content (a game the club imported before is not stored again: its id is listed
    and counted in ``already_imported``) and, with ``idempotency_key``, by key (services)."""
    request = {
        "club": club.pk,
        "log": text,
        "bsw_scoring": bsw_scoring,
        "anonymise": anonymise,
        "game_id": game_id,
        "dry_run": dry_run,
        "path": None if path is None else str(path),
        **({} if played_at is None else {"played_at": played_at.isoformat()}),
    }
    return idempotent_write(
        user=user,
        key=idempotency_key,
        operation="import_bsw",
        request=request,
        write=lambda: _import_bsw_games(
            club=club,
            text=text,
            user=user,
            bsw_scoring=bsw_scoring,
            anonymise=anonymise,
            game_id=game_id,
            dry_run=dry_run,
            path=path,
            played_at=played_at,
        ),
    )


def _dating(path: Path | None, game_id: str | None, played_at: datetime | None) -> tuple[str, str] | None:
    """The games' ``(played_at, source)``: the date given with the import, else the log's folder or id."""
    if played_at is not None:
        return played_at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"), GIVEN_WITH_IMPORT
    return bsw_played_at(path=path, game_id=game_id)


def _import_bsw_games(
    *,
    club: Club,
    text: str,
    user,
    bsw_scoring: bool,
    anonymise: bool,
    game_id: str | None,
    dry_run: bool,
    path: Path | None,
    played_at: datetime | None = None,
) -> WriteResult:
    report: dict[str, Any] = {
        "games": 0,
        "hands": 0,
        "equal": 0,
        "stored": 0,
        "already_imported": 0,
        "game_ids": [],
        "differences": [],
        "errors": [],
        "hands_mended": [],
        "dates": [],
    }
    try:
        games = read_bsw(
            text,
            lax=True,
            anonymise=anonymise,
            game_id=game_id,
            bsw_scoring=bsw_scoring,
            played_at=_dating(path, game_id, played_at),
        )
    except ValueError as exc:
        report["errors"].append(f"not a BSW log: {exc}")
        return WriteResult(body=report, created=False)
    for number, read in enumerate(games, start=1):
        record = read.record
        mended = list(read.notes)
        try:
            mended += settle_refused_hands(record, read.event_lines)
        except EngineError as exc:  # malformed: the converter's fault, reported as the game's error
            report["errors"].append(f"game {number}: {exc.code}: {exc.message}")
            continue
        report["hands_mended"] += [{"game": number, **note} for note in sorted(mended, key=lambda n: n["hand"])]
        report["dates"].append({"game": number, **dating(record.get("meta"))})
        check = check_game(record)
        report["games"] += 1
        report["hands"] += check.hands
        report["equal"] += check.equal
        report["differences"] += [{"game": number, **d.as_dict()} for d in check.differences]
        if check.error is not None:
            report["errors"].append(
                f"game {number}: event {check.error.index} refused: {check.error.code}: {check.error.message}"
            )
            continue
        if dry_run:
            continue
        try:
            result = game_import(club=club, record=record, user=user)
        except ServiceError as exc:
            report["errors"].append(f"game {number}: not stored: {exc}")
            continue
        report["stored" if result.created else "already_imported"] += 1
        report["game_ids"].append(result.body.get("id"))
    return WriteResult(body=report, created=report["stored"] > 0)


def store_bsw_log(
    *,
    club: Club,
    text: str,
    bsw_scoring: bool = False,
    anonymise: bool = False,
    game_id: str | None = None,
    path: Path | None = None,
) -> tuple[dict[str, Any], list[Game]]:
    """The bulk twin of `import_bsw_log` for `import_bsw --workers` (games.import_tasks), to be run
    inside the file's transaction: the same games stored (the same lax reading: a hand the engine
    refuses costs that hand, `hands_mended`), with one fold per game instead of four
    (games.bulk_store) and no comparison with the log's Ergebnis (the per-file report with its
    differences is the command's without --workers). Returns the report (games, hands,
    stored, already_imported, game_ids, errors, hands_mended) and the games it created."""
    from games.bulk_store import fold_checked, store_records

    report: dict[str, Any] = {
        "games": 0,
        "hands": 0,
        "stored": 0,
        "already_imported": 0,
        "game_ids": [],
        "errors": [],
        "hands_mended": [],
        "dates": [],
    }
    try:
        games = read_bsw(
            text,
            lax=True,
            anonymise=anonymise,
            game_id=game_id,
            bsw_scoring=bsw_scoring,
            played_at=bsw_played_at(path=path, game_id=game_id),
        )
    except ValueError as exc:
        report["errors"].append(f"not a BSW log: {exc}")
        return report, []
    checked = []
    for number, read in enumerate(games, start=1):
        record = read.record
        mended = list(read.notes)
        try:
            try:
                checked.append(fold_checked(record))
            except RuleViolation:  # a hand the engine refuses: settled as import_bsw_log settles it
                mended += settle_refused_hands(record, read.event_lines)
                checked.append(fold_checked(record))
        except EngineError as exc:
            report["errors"].append(f"game {number}: {exc.code}: {exc.message}")
            continue
        except RuleViolation as exc:
            report["errors"].append(f"game {number}: event {exc.index} refused: {exc.code}: {exc.message}")
            continue
        except ServiceError as exc:
            report["errors"].append(f"game {number}: not stored: {exc}")
            continue
        report["games"] += 1
        report["hands"] += len((record.get("meta") or {}).get("bsw_results") or [])
        report["hands_mended"] += [{"game": number, **note} for note in sorted(mended, key=lambda n: n["hand"])]
        report["dates"].append({"game": number, **dating(record.get("meta"))})
    if report["errors"] or not checked:
        return report, []
    created = []
    for game, new in store_records(club=club, checked=checked):
        report["stored" if new else "already_imported"] += 1
        report["game_ids"].append(game.pk)
        if new:
            created.append(game)
    return report, created
