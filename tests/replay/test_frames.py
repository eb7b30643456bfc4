"""replay.frames: the frames are the engine's state_json, compacted without loss; the marks and
annotations are read off the engine's output."""

from __future__ import annotations

import json

import pytest

from games import engine
from replay import frames, present

from .conftest import bot_record

ANNOTATIONS = ("n", "e", "text", "trick_no", "bombs", "gifts")


def engine_frames(record):
    state = engine.new_game(record["variant"], record.get("options"), players=record["players"])
    yield engine.state_json(state)
    for event in record["events"]:
        state.apply(event)
        yield engine.state_json(state)


def strip(frame: dict) -> dict:
    out = {k: v for k, v in frame.items() if k not in ANNOTATIONS}
    out["score_sheet"] = [
        {k: v for k, v in line.items() if k not in ("totals", "from", "at")} for line in frame["score_sheet"]
    ]
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_every_frame_expands_to_the_engine_state(seed):
    record = bot_record(seed)
    data = frames.build(record)
    assert data.length == len(record["events"]) and data.error is None
    # the compacted deltas, expanded in order as the browser does, give state_json at every index
    payload = json.loads(data.payload_script_text())
    frame: dict = {}
    for n, (delta, expected) in enumerate(zip(payload["frames"], engine_frames(record), strict=True)):
        frames.apply_delta(frame, delta)
        assert strip(frame) == {k: v for k, v in expected.items() if k not in frames.CONSTANT_KEYS}, n
    # random access too
    for n in (0, 1, 57, 500, data.length - 1, data.length):
        assert strip(data.frame_at(n)) == strip(_expand(payload, n))


def _expand(payload, n):
    frame: dict = {}
    for delta in payload["frames"][: n + 1]:
        frames.apply_delta(frame, delta)
    return frame


def test_marks_are_hand_and_trick_starts_of_the_engine():
    record = bot_record(1)
    data = frames.build(record)
    states = list(engine_frames(record))
    hands = [n for n in range(1, len(states)) if states[n]["hand_number"] != states[n - 1]["hand_number"]]
    assert data.marks["hands"] == [0] + hands
    assert all(record["events"][n - 1]["type"] == "shuffle" for n in hands)
    for n in data.marks["tricks"]:
        log = states[n]["trick_log"]
        assert len(log) == 1 and not log[0].get("pass")
    leads = [
        n
        for n in range(1, len(states))
        if len(states[n]["trick_log"]) == 1 and record["events"][n - 1]["type"] == "play"
    ]
    assert data.marks["tricks"] == leads


def test_score_sheet_running_totals_and_positions():
    record = bot_record(1)
    data = frames.build(record)
    score = engine.score_json(engine.fold(record))
    sheet = data.final["score_sheet"]
    assert [line["points"] for line in sheet] == [h["points"] for h in score["hands"]]
    running = [0, 0]
    for line in sheet:
        running = [a + b for a, b in zip(running, line["points"])]
        assert line["totals"] == running
        # `at` is the hand's last event, `from` its shuffle
        assert data.frame_at(line["at"])["score_sheet"][-1]["points"] == line["points"]
        assert len(data.frame_at(line["at"] - 1)["score_sheet"]) == len(data.frame_at(line["at"])["score_sheet"]) - 1
        assert record["events"][line["from"] - 1]["type"] == "shuffle"
    assert running == score["totals"]


def test_bombs_gifts_and_texts_come_from_events_and_engine_labels():
    record = bot_record(1)
    data = frames.build(record)
    bombs_seen = gifts_seen = 0
    for n in range(1, data.length + 1):
        event = record["events"][n - 1]
        frame = data.frame_at(n) if event["type"] in ("play", "dragon_gift") else None
        if frame is None:
            continue
        if event["type"] == "dragon_gift":
            gifts_seen += 1
            assert frame["gifts"][-1] == {"from": event["seat"], "to": event["to"]}
            assert "gives the Dragon trick to " + record["players"][event["to"]] in frame["text"]
        elif (
            frame["trick"]
            and frame["trick"][-1]["combination"] == "bomb"
            and frame["trick"][-1]["seat"] == event["seat"]
        ):
            bombs_seen += 1
            assert frame["bombs"][-1]["cards"] == frame["trick"][-1]["cards"]
            assert "bombs with" in frame["text"]
    assert gifts_seen and bombs_seen


def test_a_refused_event_is_shown_up_to_it():
    record = dict(bot_record(1))
    events = list(record["events"][:70])
    events.append({"type": "pass", "seat": (events[-1].get("seat", 0) + 2) % 4})  # out of turn
    record["events"] = events
    data = frames.build(record)
    assert data.error is not None and data.error["index"] == 70
    assert data.length == 70


def test_hidden_frames_show_no_card_in_hand():
    record = bot_record(1)
    data = frames.build(record, engine.Sight(seats=frozenset(), secret_from=0, variant="nanking"))
    frame: dict = {}
    for delta in data.deltas:
        frames.apply_delta(frame, delta)
        assert all(set(h) <= {frames.HIDDEN} for h in frame["hands"])
    assert "draws a card" in data.frame_at(5)["text"]


def test_nav_targets():
    marks = {"hands": [0, 1, 100], "tricks": [10, 20, 30]}
    t = present.nav_targets(marks, 20, 200)
    assert t == {
        "first": 0,
        "prev_hand": 1,
        "prev_trick": 10,
        "prev": 19,
        "next": 21,
        "next_trick": 30,
        "next_hand": 100,
        "last": 200,
    }
    assert present.nav_targets(marks, 200, 200)["next_trick"] == 200
    assert present.nav_targets(marks, 0, 200)["prev_trick"] == 0


def test_card_faces_are_distinct_and_named():
    table = frames.card_table()
    assert len(table) == 56
    assert len({(f["rank"], f["suit"], f["cls"]) for f in table.values()}) == 56
    assert {f["cls"] for f in table.values()} == {
        "su-j",
        "su-s",
        "su-p",
        "su-r",
        "sp-mahjong",
        "sp-dog",
        "sp-phoenix",
        "sp-dragon",
    }
    assert table["Ts"]["name"] == "10 of Swords" and table["Aj"]["name"] == "Ace of Jade"
    assert len({frames.card_face("2" + s)["suit"] for s in "jspr"}) == 4


def record_with_corrections(seed: int = 1) -> tuple[dict, list[int]]:
    """A bot game with two corrections: at 60 an event is entered, undone and entered again; at 100
    two events are undone in a row (the undo of the undo's predecessor). Returns it and the positions
    a viewer should have folded away."""
    base = bot_record(seed)
    ev = base["events"]
    events = (
        ev[:60]
        + [ev[60], {"type": "undo"}]
        + ev[60:100]
        + [ev[100], ev[101], {"type": "undo"}, {"type": "undo"}]
        + ev[100:]
    )
    # positions (1-based): 61 entered then undone by 62; ev[100]=103, ev[101]=104, undone by 105 (104) and 106 (103)
    return dict(base, events=events), [61, 62, 103, 104, 105, 106]


def test_corrections_are_marked_undone_and_stepped_over():
    record, expected = record_with_corrections()
    data = frames.build(record)
    assert data.error is None
    assert data.marks["undone"] == expected
    # stepping over a correction goes from the state before the mistake to the state after the fix
    assert strip(data.frame_at(60)) == strip(data.frame_at(62))
    assert strip(data.frame_at(102)) == strip(data.frame_at(106))
    nav = present.nav_targets(data.marks, 60, data.length)
    assert nav["next"] == 63 and present.nav_targets(data.marks, 63, data.length)["prev"] == 60
    assert present.nav_targets(data.marks, 102, data.length)["next"] == 107
    assert present.nav_targets(data.marks, 107, data.length)["prev"] == 102
    # shown on request: every event is a step again
    assert present.nav_targets(data.marks, 60, data.length, show_undone=True)["next"] == 61
    # a jump never lands on a folded position
    for n in range(0, data.length + 1, 7):
        t = present.nav_targets(data.marks, n, data.length)
        assert not {t[k] for k in t} & (set(expected) - {data.length})
    log = present.hand_log(data, 60)
    assert [i["at"] for i in log["items"] if i["undone"]] == [k for k in expected if log["start"] <= k <= log["end"]]


def test_a_game_without_undo_has_nothing_folded():
    data = frames.build(bot_record(2))
    assert data.marks["undone"] == []
    assert present.nav_targets(data.marks, 10, data.length)["next"] == 11
