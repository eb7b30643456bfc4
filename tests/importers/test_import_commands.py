"""manage.py import_bsw / import_tracker: real logs and score sheets into a club, checked hand by hand."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine import check_game, fold, score_json
from games.models import Club, Game
from tests.corpus import CORPUS, needs_corpus

pytestmark = needs_corpus


@pytest.fixture
def club(db):
    return Club.objects.create(slug="bsw", name="BSW history", visibility="public")


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_import_bsw_stores_every_game_and_reproduces_every_complete_hand(club):
    report = json.loads(run("import_bsw", str(CORPUS / "bsw-tich_me"), "--club", "bsw", "--json"))
    assert [Path(e["file"]).name for e in report] == ["2241381.tch", "2241402.tch", "300357.tch", "demo_game.tch"]
    assert sum(e["games"] for e in report) == 4 and sum(e["stored"] for e in report) == 4
    assert sum(e["hands"] for e in report) == 47
    assert sum(e["equal"] for e in report) == 46  # every hand with an Ergebnis
    (truncated,) = [d for e in report for d in e["differences"]]
    assert truncated["hand"] == 10 and "stops" in truncated["reason"]
    assert Game.objects.filter(club=club).count() == 4
    stored = Game.objects.get(club=club, header__meta__game_id="2241381")
    assert stored.status == Game.Status.FINISHED


def test_import_bsw_dry_run_stores_nothing_and_a_missing_club_is_an_error(club):
    text = run("import_bsw", str(CORPUS / "bsw-tich_me" / "2241381.tch"), "--club", "bsw", "--dry-run")
    assert "8 hands, 8 equal" in text
    assert Game.objects.count() == 0
    with pytest.raises(CommandError):
        run("import_bsw", str(CORPUS / "bsw-tich_me"), "--club", "nobody")


def test_import_tracker_reproduces_the_apps_totals_for_all_150_games(club):
    text = run("import_tracker", str(CORPUS / "tichu-tracker" / "allgames.converted.json"), "--club", "bsw")
    assert "150 games, 150 with the app's totals, 150 stored" in text
    assert Game.objects.filter(club=club).count() == 150


def _quirk_record(options: dict) -> dict:
    """A score-sheet hand where both partners (seats 1 and 3) call Grand Tichu and seat 3 goes out
    first: the book gives 15 - 85 (+200 - 200), BSW wrote 15 - 285 (tichu-peers.md 3.1)."""
    return {
        "variant": "nanking",
        "options": options,
        "players": ["A", "B", "C", "D"],
        "events": [
            {"type": "hand_result", "calls": {"1": "grand_tichu", "3": "grand_tichu"}, "out": [3], "points": [15, 85]}
        ],
        "meta": {"bsw_results": [[15, 285]]},
    }


def test_the_known_bsw_difference_is_named_and_the_house_rule_reproduces_it():
    by_the_book = check_game(_quirk_record({}))
    (diff,) = by_the_book.differences
    assert diff.computed == [15, 85] and diff.expected == [15, 285]
    assert "known BSW difference" in diff.reason
    bsw = check_game(_quirk_record({"bsw_grand_tichu_quirk": True}))
    assert bsw.equal == 1 and not bsw.differences
    assert score_json(fold(_quirk_record({"bsw_grand_tichu_quirk": True})))["totals"] == [15, 285]


def test_import_records_stores_good_records_and_names_the_refused_event(club, tmp_path):
    from games.engine import random_game

    good = random_game(2)
    bad = random_game(3)
    bad["events"][5] = {**bad["events"][5], "card": bad["events"][4]["card"]}  # a card already drawn
    (tmp_path / "one.json").write_text(json.dumps(good))
    (tmp_path / "two.json").write_text(json.dumps([bad, good]))
    (tmp_path / "junk.json").write_text("{not json")
    text = run("import_records", str(tmp_path), "--club", "bsw")
    # `good` is in two files: stored once, then found already imported (the same content)
    assert "3 files: 1 games stored, 2 refused, 1 already imported" in text
    assert "two.json record 1: event 5 refused" in text
    assert Game.objects.filter(club=club).count() == 1
    assert all(g.status == Game.Status.FINISHED for g in Game.objects.filter(club=club))


def test_import_tracker_can_finish_the_stopped_lunch_games_so_the_league_rates_them(club):
    from games.ratings.models import PlayerRating, RatingChange

    path = str(CORPUS / "tichu-tracker" / "allgames.converted.json")
    text = run("import_tracker", path, "--club", "bsw", "--stopped-games-end")
    assert "150 games, 150 with the app's totals, 150 stored, 133 ended where they stopped" in text
    games = Game.objects.filter(club=club)
    assert games.filter(status=Game.Status.FINISHED).count() == 147  # 3 games have no hand
    assert games.filter(header__meta__stopped_early=True).count() == 133
    run("recompute_ratings", "--club", "bsw", "--no-progress")
    assert RatingChange.objects.filter(game__club=club).values("game").distinct().count() == 147
    assert PlayerRating.objects.filter(player__club=club).count() == 7


def test_import_tracker_by_default_leaves_stopped_games_unfinished(club):
    run("import_tracker", str(CORPUS / "tichu-tracker" / "allgames.converted.json"), "--club", "bsw")
    assert Game.objects.filter(club=club, status=Game.Status.FINISHED).count() == 14


def test_import_bsw_a_hand_it_cannot_read_or_the_engine_refuses_costs_only_that_hand(club, tmp_path):
    text = (CORPUS / "bsw-tich_me" / "2241381.tch").read_text(encoding="latin-1")
    shaped = (
        text.replace("(1)lionheart99917 GK GB R10", "(1) GK GB R10", 1)  # repaired
        .replace("Wunsch:2\n", "Wunsch:10\n", 1)  # hand 1: the engine refuses seat 1's pass
        .replace("Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n", 1)
    )  # hand 2
    (tmp_path / "2241381.tch").write_text(shaped, encoding="latin-1")
    report = json.loads(run("import_bsw", str(tmp_path), "--club", "bsw", "--json"))
    (entry,) = report
    assert entry["stored"] == 1 and entry["errors"] == [] and entry["equal"] == 8
    mended = [(m["hand"], m["line"], m["action"]) for m in entry["hands_mended"]]
    assert mended == [
        (1, 3, "repaired"),
        (1, 20, "kept as its score-sheet line"),
        (2, shaped.split("\n").index("Zuschauer: hallo") + 1, "kept as its score-sheet line"),
    ]
    text_report = run("import_bsw", str(tmp_path), "--club", "bsw", "--dry-run")
    assert "hand 2 (line" in text_report and "Zuschauer" in text_report
    game = Game.objects.get(club=club)
    assert game.status == Game.Status.FINISHED and game.players.count() == 4


def test_import_tracker_names_a_file_that_is_not_a_tracker_export_and_stores_nothing(club, tmp_path):
    path = tmp_path / "players-without-ids.json"
    path.write_text('{"games": [], "players": [{"name": "Anna"}]}', encoding="utf-8")
    with pytest.raises(CommandError, match="not a Tichu-Tracker export: player 1"):
        call_command("import_tracker", str(path), "--club", club.slug)
    assert not Game.objects.exists()
