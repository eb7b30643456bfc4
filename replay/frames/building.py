"""Frame building: one frame per position of a game, read off the engine states given in order.
Nothing here applies an event: a stored game's states come from the one cache of folded states
(``games.snapshots.states``, by ``replay.data``), a record's from the engine's ``fold_steps``."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable
from typing import Any

from games import engine

from .annotations import annotate, public
from .compaction import SKIP_IN_DELTA, delta_of, frame_of
from .masking import shown_event, shown_state
from .replay_data import ReplayData


def build(record: Any, sight: engine.Sight = engine.EVERYTHING, lang: str = "en") -> ReplayData:
    """The frames of a record that is not stored (the tests, the bench, a record read from a file):
    folded by the engine's ``fold_steps``. A stored game's frames come from its cached states
    (``replay.data``: ``games.snapshots.states``)."""
    rec = engine.parse_record(record)
    state = engine.new_game(rec["variant"], rec["options"], players=list(rec["players"]))
    steps = itertools.chain([(0, None, state)], engine.fold_steps(state, rec["events"]))
    return from_states(
        steps, sight, given_options=record.get("options") if isinstance(record, dict) else None, lang=lang
    )


def from_states(
    steps: Iterable[tuple[int, dict | None, Any]],
    sight: engine.Sight = engine.EVERYTHING,
    *,
    given_options: dict | None = None,
    lang: str = "en",
) -> ReplayData:
    """Build the frames, marks and final frame of a game from its states in order: ``steps``
    yields ``(n, the event that led there, the engine state after n events)`` from ``n = 0``
    (``games.snapshots.states`` or the engine's ``fold_steps``). The frames only read the states;
    nothing here applies an event.

    A record whose event ``i`` the engine refuses (the steps raise its EngineError) is shown up to
    ``i`` (``error`` says why). ``sight``: what the reader may see
    (games.visibility.reader_sight); every frame and event is masked by the engine's rule
    (``masking``). ``lang``: the language of the frames' words (the engine's, ``engine.words``)."""
    steps = iter(steps)
    _, _, state = next(steps)
    first = engine.state_json(state)
    # one name per seat: Threechu's dummy is a seat without a player of its own
    players = engine.seat_names(first["variant"], list(first["players"]), lang)
    data = ReplayData(
        players=players,
        variant=first["variant"],
        hidden=not sight.everything,
        seats=sorted(sight.seats or ()),
        options=first["options"],
        given_options=given_options,
        length=0,
        error=None,
        lang=engine.words(lang).lang,
    )
    hand_marks: list[int] = [0]
    trick_marks: list[int] = []
    events: list[dict] = []  # the events folded, for the corrections (undos and what they retracted)
    prev = annotate(frame_of(first), None, None, players, data.lang)
    data.deltas.append({k: v for k, v in copy.deepcopy(public(prev)).items() if k not in SKIP_IN_DELTA})
    data.texts.append(prev["text"])
    try:
        for n, event, state in steps:
            assert event is not None  # only the first step (n = 0) has no event
            shown = shown_state(state, sight, n)
            cur = annotate(frame_of(shown), shown_event(event, sight, n - 1), prev, players, data.lang)
            cur["n"] = n
            events.append(event)
            if cur.get("hand_number") != prev.get("hand_number"):
                hand_marks.append(n)
                data.checkpoints[n] = public(cur)
            if cur.get("_new_trick"):
                trick_marks.append(n)
            for line in cur["score_sheet"][len(prev["score_sheet"]) :]:
                if "at" not in line:  # a line new here: where its hand began and ended
                    line["from"], line["at"] = hand_marks[-1], n
            data.deltas.append(delta_of(prev, cur))
            data.texts.append(cur["text"])
            prev = cur
            data.length = n
    except engine.EngineError as err:
        data.error = {"index": err.index, **err.as_dict()}
    data.final = public(prev)
    undos = {n for n, event in enumerate(events, start=1) if event.get("type") == "undo"}
    data.marks = {
        "hands": hand_marks,
        "tricks": trick_marks,
        "undone": sorted(undos | set(engine.retracted_by_undo(events))),
    }
    return data
