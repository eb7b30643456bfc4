"""What older Brettspielwelt logs do that the team's corpus does not show (found on an independent
sample of January 2007 logs, kept out of the repository): a Phoenix between the two pairs of a
full house, a call logged twice, and games joined with ``--END GAME--`` separators."""
from pathlib import Path

import pytest

from games.engine.bsw import parse_bsw, phoenix_reading
from games.engine.bsw_check import check_game

LOG = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "bsw-tich_me" / "2241381.tch"
pytestmark = pytest.mark.skipif(not LOG.is_file(), reason="the shared corpus lies beside the repository")


def text() -> str:
    return LOG.read_text(encoding="latin-1")


@pytest.mark.parametrize("cards, reading", [
    (["Kj", "Ks", "Phoenix", "2p", "2j"], "2"),  # before the pair it joins: 222 + KK
    (["Phoenix", "8r", "8s", "5s", "5r"], "8"),
    (["8r", "8s", "5s", "5r", "Phoenix"], "5"),  # at the end: the pair before it
])
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
