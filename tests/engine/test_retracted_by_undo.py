"""`engine.retracted_by_undo`, the record format's `undo` on event types alone (the entry page's
history and the replay's folded-away corrections read it), agrees with the fold: folding a record
with its undos gives the state of folding only the events still in force."""

from __future__ import annotations

import random

import pytest

from games import engine

HAND, UNDO = {"type": "hand_result"}, {"type": "undo"}


def test_an_undo_retracts_the_latest_event_still_in_force():
    assert engine.retracted_by_undo([HAND, HAND, HAND, UNDO, UNDO]) == {
        3: 4,
        2: 5,
    }  # an undo after an undo: the one before
    assert engine.retracted_by_undo([HAND, UNDO, HAND, UNDO]) == {1: 2, 3: 4}
    assert engine.retracted_by_undo([HAND, UNDO, UNDO]) == {1: 2}  # nothing left to retract
    assert engine.retracted_by_undo([HAND, HAND, UNDO], start=0) == {1: 2}


def _with_undos(events: list[dict], rng: random.Random) -> list[dict]:
    """``events`` with corrections: here and there one or two events undone and entered again."""
    out: list[dict] = []
    for event in events:
        out.append(event)
        if rng.random() < 0.15:
            if rng.random() < 0.3 and len(out) >= 2 and out[-2]["type"] != "undo":
                out += [UNDO, UNDO, out[-2], event]
            else:
                out += [UNDO, event]
    return out


def _record(variant: str, seed: int) -> dict:
    if variant == "tien-zi-que":
        return engine.random_tzq_record(seed)
    return engine.random_game(seed, variant=variant, players=["A", "B", "C"] if variant == "threechu" else None)


@pytest.mark.parametrize("variant", ["nanking", "threechu", "tien-zi-que"])
@pytest.mark.parametrize("seed", range(3))
def test_the_events_in_force_fold_to_the_state_of_the_whole_record(variant, seed):
    record = _record(variant, seed)
    events = _with_undos(record["events"][:150], random.Random(seed))
    retracted = engine.retracted_by_undo(events)
    assert retracted, "the record has corrections"
    kept = [e for n, e in enumerate(events, start=1) if e["type"] != "undo" and n not in retracted]
    whole = engine.state_json(engine.fold({**record, "events": events}))
    in_force = engine.state_json(engine.fold({**record, "events": kept}))
    for counted in ("events", "events_applied"):  # how many events were folded differs, nothing else
        whole.pop(counted, None)
        in_force.pop(counted, None)
    assert whole == in_force
