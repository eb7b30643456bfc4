"""A round's clock (issue 33, item 4): `round_clock_started` in the core, its checks, its fold, the
command line. The core reads no clock: the instant is the event's."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tournament import MAX_CLOCK_MINUTES, TournamentError, check_incoming, fold, rounds_json

from .play import tournament, with_events

ROOT = Path(__file__).resolve().parents[2]


def clock(round_=1, minutes=60, started_at="2026-03-14T19:30:00Z"):
    return {"type": "round_clock_started", "round": round_, "minutes": minutes, "started_at": started_at}


def open_round():
    """Four pairs, round 1 paired and not played (its pairing is the events' last)."""
    record = tournament(4, 3, played=1)
    events = record["events"]
    cut = next(i for i, e in enumerate(events) if e["type"] == "result_recorded")
    return {**record, "events": events[:cut]}


def test_the_clock_is_the_rounds_and_ends_minutes_after_its_start():
    state = fold(with_events(open_round(), clock(minutes=75, started_at="2026-03-14T20:30:00+01:00")))
    rnd = state.rounds[0]
    assert rnd.clock.minutes == 75
    assert rnd.clock.end == datetime(2026, 3, 14, 20, 45, tzinfo=timezone.utc)
    assert rounds_json(state)["rounds"][0]["clock"] == {
        "minutes": 75,
        "started_at": "2026-03-14T20:30:00+01:00",
        "ends_at": "2026-03-14T20:45:00Z",
    }
    assert rnd.clock.seconds_left(datetime(2026, 3, 14, 20, 44, 30, tzinfo=timezone.utc)) == 30
    assert rnd.clock.seconds_left(datetime(2026, 3, 14, 21, 0, tzinfo=timezone.utc)) == 0


def test_no_clock_until_the_td_starts_one_and_the_latest_start_counts():
    record = open_round()
    assert rounds_json(fold(record))["rounds"][0]["clock"] is None
    restarted = with_events(record, clock(minutes=60), clock(minutes=50, started_at="2026-03-14T19:35:00Z"))
    assert fold(restarted).rounds[0].clock.as_json()["ends_at"] == "2026-03-14T20:25:00Z"


@pytest.mark.parametrize(
    "event, code, rule",
    [
        (clock(round_=2), "round_not_found", None),
        (clock(minutes=0), "malformed", "integer"),
        (clock(minutes=MAX_CLOCK_MINUTES + 1), "malformed", "integer"),
        (clock(minutes=30.5), "malformed", "integer"),
        (clock(started_at="2026-03-14T19:30:00"), "malformed", "started_at"),  # no offset
        (clock(started_at="2026-03-14"), "malformed", "started_at"),
        (clock(started_at="half past seven"), "malformed", "started_at"),
        (clock(started_at=None), "malformed", "started_at"),
    ],
)
def test_a_bad_clock_is_refused_and_changes_nothing(event, code, rule):
    state = fold(open_round())
    before = rounds_json(state)
    with pytest.raises(TournamentError) as err:
        state.apply(event)
    assert err.value.code == code and err.value.params.get("rule") == rule
    assert rounds_json(state) == before


def test_a_closed_rounds_clock_is_refused():
    record = tournament(4, 3, played=1)  # round 1 closed
    with pytest.raises(TournamentError) as err:
        fold(with_events(record, clock()))
    assert (err.value.code, err.value.params["rule"]) == ("round_closed", "closed")


def test_the_fields_and_bounds_of_an_incoming_clock():
    check_incoming(clock())
    with pytest.raises(TournamentError) as err:
        check_incoming({**clock(), "ends_at": "2026-03-14T20:30:00Z"})
    assert err.value.params["rule"] == "unknown_fields"
    with pytest.raises(TournamentError) as err:
        check_incoming(clock(minutes=10**9))
    assert err.value.params["rule"] == "number_out_of_range"
    with pytest.raises(TournamentError) as err:
        check_incoming(clock(started_at="2" * 300))
    assert err.value.params["rule"] == "text_too_long"


@given(
    st.datetimes(
        min_value=datetime(2000, 1, 1),
        max_value=datetime(2100, 1, 1),
        timezones=st.sampled_from(
            [timezone.utc, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5, minutes=-30))]
        ),
    ),
    st.integers(1, MAX_CLOCK_MINUTES),
)
def test_the_end_is_the_start_plus_the_minutes_in_any_offset(start, minutes):
    started_at = start.replace(microsecond=0).isoformat()
    state = fold(with_events(open_round(), clock(minutes=minutes, started_at=started_at)))
    ends = rounds_json(state)["rounds"][0]["clock"]["ends_at"]
    assert ends.endswith("Z")
    assert datetime.fromisoformat(ends) - start.replace(microsecond=0) == timedelta(minutes=minutes)


def run(*args):
    result = subprocess.run([sys.executable, "-m", "games.tournament", *args], cwd=ROOT, capture_output=True, text=True)
    return result.returncode, json.loads(result.stdout)


def test_the_command_line_starts_the_current_rounds_clock(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(open_round()))
    code, out = run("clock", str(path), "--minutes", "45", "--started-at", "2026-03-14T19:30:00Z")
    assert code == 0 and out["event"] == clock(minutes=45)
    assert fold(json.loads(path.read_text())).rounds[0].clock.minutes == 45
    before = datetime.now(timezone.utc).replace(microsecond=0)
    code, out = run("clock", str(path), "--minutes", "30")  # now: the command line reads the time
    started = datetime.fromisoformat(out["event"]["started_at"])
    assert code == 0 and before <= started <= datetime.now(timezone.utc)
    code, out = run("clock", str(path), "--minutes", "30", "--round", "2")
    assert code == 1 and out["error"]["code"] == "round_not_found"
    code, out = run("clock", str(path), "--minutes", "30", "--started-at", "tonight")
    assert code == 2 and out["error"]["params"]["rule"] == "started_at"
    assert len(json.loads(path.read_text())["events"]) == len(open_round()["events"]) + 2  # refusals wrote nothing
