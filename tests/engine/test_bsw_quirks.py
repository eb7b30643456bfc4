"""What older Brettspielwelt logs do that the team's corpus does not show (found on an independent
sample of January 2007 logs, kept out of the repository): a Phoenix between the two pairs of a
full house, a call logged twice, and games joined with ``--END GAME--`` separators."""

import pytest

from games.engine.bsw import parse_bsw, phoenix_reading
from games.engine.bsw_check import check_game
from tests.corpus import CORPUS, needs_corpus

LOG = CORPUS / "bsw-tich_me" / "2241381.tch"
pytestmark = needs_corpus


def text() -> str:
    return LOG.read_text(encoding="latin-1")


@pytest.mark.parametrize(
    "cards, reading",
    [
        (["Kj", "Ks", "Phoenix", "2p", "2j"], "2"),  # before the pair it joins: 222 + KK
        (["Phoenix", "8r", "8s", "5s", "5r"], "8"),
        (["8r", "8s", "5s", "5r", "Phoenix"], "5"),  # at the end: the pair before it
    ],
)
def test_phoenix_in_a_two_pair_full_house_joins_the_pair_after_it(cards, reading):
    assert phoenix_reading(cards) == reading


def test_a_call_logged_twice_is_one_call():
    doubled = text().replace("Tichu: (2)miss.panic\n", "Tichu: (2)miss.panic\nTichu: (2)miss.panic\n", 1)
    assert doubled != text()
    (record,) = parse_bsw(doubled)
    check = check_game(record)
    assert check.error is None and check.equal == 8


def test_games_joined_by_end_game_separators_are_split_there():
    joined = text() + "\n--END GAME--\n" + text()
    records = parse_bsw(joined)
    assert len(records) == 2
    assert [check_game(r).equal for r in records] == [8, 8]


# --- BSW's Grand Tichu quirk, as BSW applies it (issue #20: wider than both partners calling) ----


def _hand(calls: dict, out: list, points: list) -> dict:
    return {"type": "hand_result", "calls": calls, "out": out, "points": points}


def _points(quirk, calls: dict, out: list, points: list) -> list:
    from games.engine import fold, score_json

    options = {} if quirk is None else {"bsw_grand_tichu_quirk": quirk}
    record = {
        "variant": "nanking",
        "options": options,
        "players": ["A", "B", "C", "D"],
        "events": [_hand(calls, out, points)],
    }
    return score_json(fold(record))["hands"][0]["points"]


@pytest.mark.parametrize(
    "quirk, expected",
    [
        (None, [-35, 35]),
        (False, [-35, 35]),
        (True, [-35, 35]),
        ("both_grand", [-35, 35]),  # the first spelling keeps its narrow meaning
        ("partner_grand", [165, 35]),
    ],
)
def test_a_failed_grand_tichu_of_the_first_outs_partner(quirk, expected):
    # issue #20's hand: seat 0 called Tichu and went out first, his partner seat 2 called Grand
    # Tichu and failed; BSW wrote 170 - -170 where the book gives -30 - -170 (the -200 not charged).
    # The same shape with 65 - 35 card points:
    assert _points(quirk, {"0": "tichu", "2": "grand_tichu"}, [0], [65, 35]) == expected


@pytest.mark.parametrize("quirk", [True, "both_grand", "partner_grand"])
def test_both_partners_grand_tichu_every_spelling_drops_the_failure(quirk):
    # hand 58 of HarounMang/tichu_analysis tichulog.txt (tichu-peers.md 3.1): 15 - 285 in BSW
    assert _points(quirk, {"1": "grand_tichu", "3": "grand_tichu"}, [3], [15, 85]) == [15, 285]


def test_a_failed_small_tichu_of_the_first_outs_partner_is_charged():
    # hand 87 of the same log: seat 2 called Grand Tichu and went out first, partner seat 0's
    # Tichu failed: BSW wrote 300 - 0, the book's score (+200 -100 + 200 double victory)
    from games.engine import fold, score_json

    record = {
        "variant": "nanking",
        "options": {"bsw_grand_tichu_quirk": "partner_grand"},
        "players": ["A", "B", "C", "D"],
        "events": [{"type": "hand_result", "calls": {"0": "tichu", "2": "grand_tichu"}, "out": [2, 0]}],
    }
    assert score_json(fold(record))["hands"][0]["points"] == [300, 0]


def test_the_corpus_log_edited_into_the_issues_shape_reads_as_bsw_scored_it():
    # hand 1 of 2241381: seat 2 called Tichu and went out first (Ergebnis 165 - 35); a Grand Tichu
    # by partner seat 0 added: BSW's Ergebnis stays 165 - 35, the book gives -35 - 35
    shaped = text().replace("Tichu: (2)miss.panic\n", "Grosses Tichu: (0)Us_D_Marshal_r_G\nTichu: (2)miss.panic\n", 1)
    (book,) = parse_bsw(shaped)
    check = check_game(book)
    (diff,) = check.differences
    assert diff.hand == 1 and diff.expected == [165, 35] and diff.computed == [-35, 35]
    assert "known BSW difference" in diff.reason and "partner_grand" in diff.reason
    (bsw,) = parse_bsw(shaped, bsw_scoring=True)
    assert bsw["options"]["bsw_grand_tichu_quirk"] == "partner_grand"
    assert check_game(bsw).equal == 8


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_the_quirk_option_takes_only_its_values(value):
    from games.engine import EngineError, GameState

    with pytest.raises(EngineError) as info:
        GameState("nanking", {"bsw_grand_tichu_quirk": value}, ["A", "B", "C", "D"])
    assert info.value.code == "malformed"
