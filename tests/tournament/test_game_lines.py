"""The tournament core with its tables' games (issue 31, one source): a result that names a game
has that game's lines (``game_lines``), an answer stands only for the lines it was given to, and
a stored stream folds whatever its games say now (a game open again, or changed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games import tournament as core

HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1, "hands_per_round": 2}
ENTRIES = [{"type": "entry_registered", "entry": f"e{i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)]
PAIRING = {
    "type": "round_paired",
    "round": 1,
    "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
    "byes": [],
}


def lines(*points) -> list[dict]:
    return [{"points": [a, b], "double_victory": None} for a, b in points]


def record(events) -> dict:
    return {"header": HEADER, "events": ENTRIES + [PAIRING] + events}


SENT = {"type": "result_recorded", "round": 1, "table": 1, "game": 7, "hands": lines((70, 30), (60, 40)), "side": 0}


def test_a_result_with_a_game_has_the_games_lines():
    state = core.fold(record([SENT]), game_lines={7: lines((40, 60), (60, 40))})
    table = state.rounds[0].tables[1]
    assert table.result["score"] == (100, 100) and table.result["from_game"]
    vp = core.rounds_json(state)["rounds"][0]["tables"][0]["result"]["vp"]
    assert vp == [2, 2], "DTM: one hand each"
    assert core.fold(record([SENT])).rounds[0].tables[1].result["score"] == (130, 70), "no games: the event's"


def test_an_answer_stands_for_the_lines_it_was_given_to():
    confirmed = {"type": "result_confirmed", "round": 1, "table": 1, "side": 1}
    same = core.fold(record([SENT, confirmed]), game_lines={7: lines((70, 30), (60, 40))})
    assert same.rounds[0].tables[1].confirmation == "confirmed"
    changed = core.fold(record([SENT, confirmed]), game_lines={7: lines((40, 60), (60, 40))})
    table = changed.rounds[0].tables[1]
    assert (table.confirmation, table.reasked) == ("unconfirmed", True)
    again = {**confirmed, "hands": lines((40, 60), (60, 40))}
    table = core.fold(record([SENT, confirmed, again]), game_lines={7: lines((40, 60), (60, 40))}).rounds[0].tables[1]
    assert (table.confirmation, table.reasked) == ("confirmed", False)


def test_a_game_open_again_keeps_the_numbers_sent_marked():
    state = core.fold(record([SENT]), game_lines={7: None})
    result = state.rounds[0].tables[1].result
    assert result["score"] == (130, 70) and result["game_open"]


LINE = st.tuples(st.integers(-5, 25).map(lambda k: 5 * k)).map(lambda t: (t[0], 100 - t[0]))
GAME = st.one_of(st.none(), st.lists(LINE, min_size=0, max_size=3).map(lambda ps: lines(*ps)))
STEP = st.tuples(st.sampled_from(["confirm", "dispute", "close"]), GAME)


@settings(max_examples=150, deadline=None)
@given(st.lists(STEP, max_size=6), GAME)
def test_a_stored_stream_folds_whatever_its_games_say_now(steps, final):
    """Each event is appended as the site appends it, checked against a fold with the game as it
    was then (an answer given to the game's lines; no answer while the game is open; no round
    closed on a game's standing dispute); the game changes between events (corrected, reopened,
    even given a hand count the preset refuses). The stream folds with the game as it is at the
    end, whatever that is: the table's score is the game's when the preset can score it, else the
    numbers sent."""
    events = [SENT, {"type": "result_recorded", "round": 1, "table": 2, "hands": lines((50, 50), (50, 50))}]
    for action, game in steps:
        state = core.fold(record(events), game_lines={7: game})
        table = state.rounds[0].tables[1]
        if action == "close":
            if table.confirmation == "disputed":  # the site's check for a game's dispute
                continue
            event: dict = {"type": "round_closed", "round": 1}
        elif not table.result.get("from_game"):  # the site answers only a game that is over
            continue
        else:
            event = {"type": "result_confirmed", "round": 1, "table": 1, "hands": game}
            if action == "dispute":
                event = {**event, "type": "result_disputed", "reason": "no"}
        try:
            state.apply(event)
        except core.TournamentError:
            continue
        events.append(event)
    state = core.fold(record(events), game_lines={7: final})
    result = state.rounds[0].tables[1].result
    if result.get("from_game"):  # what the preset can score (the hand count is the preset's rule)
        assert final and list(result["score"]) == [
            sum(x["points"][0] for x in final),
            sum(x["points"][1] for x in final),
        ]
    else:
        assert result["score"] == (130, 70) and result["game_open"]
    if final is not None and len(final) == HEADER["hands_per_round"]:
        assert result.get("from_game"), "a full game is always the table's result"
    core.standings_json(state)
    core.rounds_json(state)


def test_an_answer_to_lines_a_game_gave_before_and_gives_again_still_folds():
    """Confirmed (L0), the game corrected (L1) and confirmed again, then the correction undone
    (L0): the stream folds; the latest answer was to L1, so the opponents are asked again."""
    l0, l1 = lines((70, 30), (60, 40)), lines((40, 60), (60, 40))
    events = [
        SENT,
        {"type": "result_confirmed", "round": 1, "table": 1, "hands": l0},
        {"type": "result_confirmed", "round": 1, "table": 1, "hands": l1},
    ]
    table = core.fold(record(events), game_lines={7: l0}).rounds[0].tables[1]
    assert (table.confirmation, table.reasked) == ("unconfirmed", True)
    assert core.fold(record(events), game_lines={7: l1}).rounds[0].tables[1].confirmation == "confirmed"
