"""One snapshot/replay path: the replay's frames of a stored game are built from the states of
the one cache of folded states (games.snapshots), and at every event they equal the state the API
and the ratings read there (`snapshots.state_at`), for a game of each variant, whole and masked."""

from __future__ import annotations

import pytest

from games import engine, snapshots
from replay import data as replay_data_module
from replay import frames

from .conftest import import_game

pytestmark = pytest.mark.django_db

# short finished games of each variant (the "hands"/"rounds" options end them early)
TABLES = [
    ("nanking", ["Ann", "Bob", "Cid", "Dee"], {"hands": 3}),
    ("threechu", ["Ann", "Bob", "Cid"], {"hands": 3}),
    ("tientsin", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], {"hands": 2}),
    ("grand-seigneur", ["Ann", "Bob", "Cid", "Dee", "Eve"], {"hands": 3}),
    ("tien-zi-que", ["Ann", "Bob"], {"rounds": 2}),
]
#: what the replay adds to each score sheet line (docs: replay/frames.py)
SHEET_ANNOTATIONS = ("totals", "at", "from")


def engine_part(frame: dict) -> dict:
    """A frame without the replay's display annotations: what it read off the engine's state_json."""
    out = {k: v for k, v in frame.items() if k not in ("n", "e", "text", "trick_no", "bombs", "gifts")}
    out["score_sheet"] = [
        {k: v for k, v in line.items() if k not in SHEET_ANNOTATIONS} for line in frame.get("score_sheet") or []
    ]
    return out


def snapshot_part(game, n: int, sight: engine.Sight) -> dict:
    state = engine.redact_state(engine.state_json(snapshots.state_at(game, n)), sight, n)
    return engine_part({k: v for k, v in state.items() if k not in frames.CONSTANT_KEYS})


@pytest.mark.parametrize("variant, players, options", TABLES, ids=[t[0] for t in TABLES])
def test_every_frame_of_the_replay_equals_the_state_of_the_snapshot_path(public_club, variant, players, options):
    record = engine.random_game(4, variant=variant, players=players, options=options)
    assert engine.fold(record).over and len(record["events"]) > 50
    game = import_game(public_club, record)
    snapshots.forget_local()
    replay_data_module.clear_local()
    data = replay_data_module.replay_data(game, engine.EVERYTHING)
    assert data.length == game.seq == len(record["events"]) and data.error is None
    assert data.players == engine.seat_names(variant, players)
    for n in range(game.seq + 1):
        assert engine_part(data.frame_at(n)) == snapshot_part(game, n, engine.EVERYTHING), n


@pytest.mark.parametrize("variant, players, options", TABLES, ids=[t[0] for t in TABLES])
def test_a_masked_replay_equals_the_masked_states_of_the_snapshot_path(public_club, variant, players, options):
    """The hands a player may not see are hidden the same way on both: the seat-0 player's view of
    the record as it stood in the middle of its second hand."""
    record = engine.random_game(4, variant=variant, players=players, options=options)
    starts = [i for i, e in enumerate(record["events"]) if e["type"] in engine.HAND_START_EVENTS]
    cut = (starts[1] + starts[2]) // 2 if len(starts) > 2 else len(record["events"]) // 2
    game = import_game(public_club, {**record, "events": record["events"][:cut]})
    sight = engine.sight_for(variant, record["events"][:cut], engine.fold(record, cut), seats=(0,), reveal="after_hand")
    assert not sight.everything, "the cut must fall inside a hand, where something is secret"
    data = replay_data_module.replay_data(game, sight)
    assert data.hidden and data.length == cut
    masked = 0
    for n in range(cut + 1):
        frame = engine_part(data.frame_at(n))
        assert frame == snapshot_part(game, n, sight), n
        masked += engine.HIDDEN in repr(frame.get("hands"))
    assert masked, "some frame hides another player's cards"


def test_the_replay_folds_through_the_snapshot_cache(public_club):
    """Building the frames warms the cache the API reads: afterwards the state at a hand start and
    at the tip are cached states, not folds of their own."""
    record = engine.random_game(4, options={"hands": 3})
    game = import_game(public_club, record)
    snapshots.forget_local()
    replay_data_module.clear_local()
    second_hand = [i for i, e in enumerate(record["events"]) if e["type"] in engine.HAND_START_EVENTS][1]
    assert snapshots.cached_state(game, second_hand, shared=False) is None
    replay_data_module.replay_data(game, engine.EVERYTHING)
    assert snapshots.cached_state(game, second_hand, shared=False) is not None
    tip = snapshots.cached_state(game, game.seq, shared=False)
    assert tip is not None and engine.state_json(tip) == engine.state_json(engine.fold(record))


def test_rebuilding_the_frames_caches_no_hand_start_again(public_club, monkeypatch):
    """A game being entered has its frames rebuilt from its first state after every append: the
    hand starts this process already holds are not written to the cache again (a pickle each)."""
    record = engine.random_game(4, options={"hands": 3})
    game = import_game(public_club, record)
    snapshots.forget_local()
    replay_data_module.clear_local()
    written: list[int] = []
    real = snapshots.cache_state
    monkeypatch.setattr(
        snapshots, "cache_state", lambda g, n, state, **kw: (written.append(n), real(g, n, state, **kw))
    )
    replay_data_module.replay_data(game, engine.EVERYTHING)
    starts = [i for i, e in enumerate(record["events"]) if e["type"] in engine.HAND_START_EVENTS and i > 0]
    assert set(starts) <= set(written)
    written.clear()
    replay_data_module.clear_local()
    replay_data_module.replay_data(game, engine.EVERYTHING)
    assert not set(starts) & set(written)
