"""A club's seasons in its archive (issue 36, item 1; games.clubs.archive): a season's events name
its evenings by tournament id, which the import renumbers, so the ids inside their payloads are
mapped as a tournament event's players are; the copy's season table is the source's, and a season
the core would refuse is refused with a code, nothing stored."""

from __future__ import annotations

import pytest

from games.models import Club
from games.tournaments import seasons
from games.tournaments.models import Season, SeasonEvent, Tournament
from tests.clubs.archive_helpers import build_club
from tests.clubs.test_archive import _refused, exported, imported, lines, packed

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return build_club(make_user)


def test_a_season_comes_back_with_its_evenings_mapped_and_its_table_equal(club, django_capture_on_commit_callbacks):
    source = Season.objects.get(club=club)
    done = imported(exported(club), django_capture_on_commit_callbacks, slug="tuesday-copy")
    copy = Season.objects.get(club=done.club)
    assert copy.pk == done.ids["season"][source.pk] and copy.seq == source.seq == 3
    assert copy.header == source.header and copy.created_at == source.created_at
    tid = Tournament.objects.get(club=club).pk
    copied_tid = Tournament.objects.get(club=done.club).pk
    assert copied_tid == done.ids["tournament"][tid] != tid
    assert [e.payload["tournament"] for e in SeasonEvent.objects.filter(season=copy).order_by("seq")] == [
        copied_tid
    ] * 3
    # the history as recorded: who, when, why
    fields = ("seq", "type", "recorded_by__username", "recorded_at", "payload__reason")
    assert list(SeasonEvent.objects.filter(season=copy).order_by("seq").values_list(*fields)) == list(
        SeasonEvent.objects.filter(season=source).order_by("seq").values_list(*fields)
    )
    before, after = seasons.season_view(source, None), seasons.season_view(copy, None)
    players = done.ids["player"]
    assert before["table"]["table"], "the season has a table to compare"
    assert after["table"]["evenings"] == [copied_tid] and after["evenings"] == [
        {"tournament": copied_tid, "name": "Thursday"}
    ]
    expected = [
        {
            **row,
            "player": players[row["player"]] if isinstance(row["player"], int) else row["player"],
            "evenings": [{**e, "tournament": copied_tid} for e in row["evenings"]],
        }
        for row in before["table"]["table"]
    ]
    assert after["table"]["table"] == expected
    assert [(h["type"], h.get("reason"), h["recorded_by"]) for h in after["history"]] == [
        (h["type"], h.get("reason"), h["recorded_by"]) for h in before["history"]
    ]


def _changed(rows: list[dict], kind: str, change, nth: int = 0) -> list[dict]:
    out = [dict(r) for r in rows]
    target = [r for r in out if r.get("t") == kind][nth]
    change(target)
    return out


def test_a_season_the_core_would_refuse_is_refused_with_a_code(club):
    rows = lines(exported(club))
    seasons_before, events_before, clubs_before = (
        Season.objects.count(),
        SeasonEvent.objects.count(),
        Club.objects.count(),
    )

    def names_no_evening_of_the_archive(line):
        line["payload"] = {**line["payload"], "tournament": 987654}

    _refused(packed(_changed(rows, "season_event", names_no_evening_of_the_archive)), "unknown_reference", slug="x1")

    def removes_without_a_reason(line):
        line["payload"] = {k: v for k, v in line["payload"].items() if k != "reason"}

    _refused(packed(_changed(rows, "season_event", removes_without_a_reason, nth=1)), "season_refused", slug="x2")

    def adds_twice(line):
        line["type"] = "evening_added"

    _refused(packed(_changed(rows, "season_event", adds_twice, nth=1)), "season_refused", slug="x3")

    def scores_goals(line):
        line["header"] = {**line["header"], "scoring": "goals"}

    _refused(packed(_changed(rows, "season", scores_goals)), "season_refused", slug="x4")

    def header_not_normalised(line):
        line["header"] = {k: v for k, v in line["header"].items() if k != "tie_breaks"}

    _refused(packed(_changed(rows, "season", header_not_normalised)), "season_refused", slug="x5")

    def says_more_events(line):
        line["seq"] = 4

    _refused(packed(_changed(rows, "season", says_more_events)), "malformed", slug="x6")
    # an event's seq out of order: the append-only table's INSERT check
    _refused(packed(_changed(rows, "season_event", lambda line: line.update(seq=3), nth=1)), "inconsistent", slug="x7")
    assert (Season.objects.count(), SeasonEvent.objects.count(), Club.objects.count()) == (
        seasons_before,
        events_before,
        clubs_before,
    )


def test_an_archive_of_before_seasons_were_carried_still_imports(club, django_capture_on_commit_callbacks):
    """An archive without season lines (written before they were carried) is a club without seasons."""
    rows = [r for r in lines(exported(club)) if r.get("t") not in ("season", "season_event")]
    rows[-1] = {
        "t": "end",
        "counts": {k: v for k, v in rows[-1]["counts"].items() if k not in ("season", "season_event")},
    }
    done = imported(packed(rows), django_capture_on_commit_callbacks, slug="old-copy")
    assert not Season.objects.filter(club=done.club).exists()
    assert Tournament.objects.filter(club=done.club).count() == 1
