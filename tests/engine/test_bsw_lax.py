"""Log variants that real BSW archives hold and the first reader refused (issue #20 item 1), each
made by editing a real log of the licensed corpus (shared/corpus/bsw-tich_me, GPL-3.0 repository,
see its README) into that shape: a seat printed without its handle, ``Drache an:`` without a
handle, a Grand Tichu line printed twice, a Mahjong with no ``Wunsch`` line, ``Wunsch:10``; the
lax reading, where a line the reader does not understand, or an event the engine refuses, costs
that hand and never the game. A straight-flush bomb on a Dragon and a bomb on one's own Dragon
trick are not in the corpus: they are played by the engine and written by the exporter."""

from __future__ import annotations

import pytest

from games.engine import fold, score_json
from games.engine.bsw import BSWFormatError, export_bsw, parse_bsw, read_bsw
from games.engine.bsw_check import check_game, settle_refused_hands
from games.engine.bsw_reader import placeholder
from tests.corpus import CORPUS as CORPUS_ROOT
from tests.corpus import needs_corpus
from tests.engine.table import Table, straight

CORPUS = CORPUS_ROOT / "bsw-tich_me"
pytestmark = needs_corpus


def log() -> str:
    return (CORPUS / "2241381.tch").read_text(encoding="utf-8")


def edit(old: str, new: str, count: int = 1) -> str:
    text = log()
    assert text.count(old) >= count, old
    return text.replace(old, new, count)


def play_events(record: dict) -> list[dict]:
    """The events after the deal, each play's cards as a set (BSW writes them in its own order)."""
    return [
        {**e, "cards": sorted(e["cards"])} if e["type"] == "play" else e
        for e in record["events"]
        if e["type"] not in ("deal", "draw")
    ]


def test_a_seat_printed_without_its_handle_takes_it_from_its_other_lines():
    # line 3 of hand 1: "(1)lionheart99917 GK GB ..." printed as "(1) GK GB ..."
    shaped = edit("(1)lionheart99917 GK GB R10", "(1) GK GB R10")
    (read,) = read_bsw(shaped, lax=False)
    assert read.record == parse_bsw(log())[0]
    (note,) = read.notes
    assert note["hand"] == 1 and note["line"] == 3 and note["action"] == "repaired"
    assert "lionheart99917" in note["reason"]
    # in a later hand, in both of the seat's blocks: the exchange and the game name it
    later = log().split("\n")
    k = next(i for i, ln in enumerate(later) if i > 90 and ln.startswith("(2)miss.panic ") and len(ln.split()) == 9)
    for i in (k, k + 5):
        assert later[i].startswith("(2)miss.panic ")
        later[i] = "(2)" + later[i][len("(2)miss.panic") :]
    (read,) = read_bsw("\n".join(later), lax=False)
    assert read.record == parse_bsw(log())[0]
    assert [n["line"] for n in read.notes] == [k + 1]


def test_a_seat_no_line_names_gets_a_stable_placeholder():
    # the log stops inside the first hand's blocks, before any other line names seat 1
    lines = log().split("\n")
    lines[2] = "(1) " + lines[2].split(" ", 1)[1]
    cut = "\n".join(lines[:5]) + "\n"
    (record,) = parse_bsw(cut)
    assert record["players"] == ["Us_D_Marshal_r_G", placeholder(1), "miss.panic", "Sayxas"]
    assert placeholder(1) == "BSW seat 1"


def test_a_dragon_gift_that_names_the_seat_alone_is_read():
    shaped = edit("Drache an: (0)Us_D_Marshal_r_G\n", "Drache an: (0)\n")
    assert parse_bsw(shaped) == parse_bsw(log())


def test_a_grand_tichu_line_printed_twice_is_one_call():
    grand = "Grosses Tichu: (1)lionheart99917\n"
    before = edit(grand, grand + grand)
    assert parse_bsw(before) == parse_bsw(log())
    # and again during the play, where a Grand Tichu cannot be called: the same call, repeated
    during = edit("Wunsch:4\n", "Wunsch:4\n" + grand)
    assert parse_bsw(during) == parse_bsw(log())
    with pytest.raises(BSWFormatError):  # a Grand Tichu nobody called is still a wrong line
        parse_bsw(edit("Wunsch:4\n", "Wunsch:4\nGrosses Tichu: (2)miss.panic\n"))


def test_a_mahjong_played_without_a_wunsch_line_wishes_nothing():
    shaped = edit("(0)Us_D_Marshal_r_G: Ma \nWunsch:2\n", "(0)Us_D_Marshal_r_G: Ma \n")
    (record,) = parse_bsw(shaped)
    mahjong = next(e for e in record["events"] if e["type"] == "play" and e["cards"] == ["Mahjong"])
    assert "wish" not in mahjong
    check = check_game(record)
    assert check.error is None and check.equal == 8


def test_wunsch_10_is_a_wish_for_the_ten_and_a_refused_hand_costs_only_that_hand():
    shaped = edit("Wunsch:2\n", "Wunsch:10\n")
    (read,) = read_bsw(shaped)
    mahjong = next(e for e in read.record["events"] if e["type"] == "play" and e["cards"] == ["Mahjong"])
    assert mahjong["wish"] == "T"
    # seat 1 holds R10 and G10 but passes (the real log wished a 2): the engine refuses the pass
    assert check_game(read.record).error.code == "wish_not_fulfilled"
    notes = settle_refused_hands(read.record, read.event_lines)
    assert notes == [
        {
            "hand": 1,
            "line": 20,
            "action": "kept as its score-sheet line",
            "reason": notes[0]["reason"],
            "rule": "kept:refused",
            "params": notes[0]["params"],
        }
    ]
    assert "wish_not_fulfilled" in notes[0]["reason"]
    check = check_game(read.record)
    assert check.error is None and check.equal == 8  # hand 1 as its line, hands 2-8 card by card
    first = read.record["events"][0]
    assert first["type"] == "hand_result" and first["calls"] == {"2": "tichu"} and first["out"][0] == 2
    assert score_json(fold(read.record))["totals"] == [380, 1020]
    with pytest.raises(ValueError):  # strict export: a score-sheet line has no BSW form
        export_bsw(read.record)


def test_a_line_the_reader_does_not_know_costs_its_hand_not_the_game():
    shaped = edit("Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n")
    lineno = shaped.split("\n").index("Zuschauer: hallo") + 1
    with pytest.raises(BSWFormatError) as info:
        parse_bsw(shaped)  # strict: the error and its line
    assert info.value.line == lineno
    (read,) = read_bsw(shaped)  # lax
    (note,) = read.notes
    assert note["hand"] == 2 and note["line"] == lineno and note["action"] == "kept as its score-sheet line"
    assert "Zuschauer" in note["reason"]
    assert [e["type"] for e in read.record["events"]].count("hand_result") == 1
    check = check_game(read.record)
    assert check.error is None and check.equal == 8
    assert score_json(fold(read.record))["totals"] == [380, 1020]


def test_a_hand_whose_score_fits_no_finishing_order_is_left_out_and_named():
    shaped = edit("Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n")
    shaped = shaped.replace("Ergebnis: 0 - 300", "Ergebnis: 3 - 297", 1)
    assert shaped.count("Ergebnis: 3 - 297") == 1
    (read,) = read_bsw(shaped)
    (note,) = read.notes
    assert note["hand"] == 2 and note["action"] == "skipped" and "fits no finishing order" in note["reason"]
    assert len(read.record["meta"]["bsw_results"]) == 7
    assert check_game(read.record).error is None


def _round_trip(t: Table) -> tuple[list[dict], list[dict]]:
    record = t.record()
    text = export_bsw(record)
    return play_events(record), play_events(parse_bsw(text)[0])


def test_a_straight_flush_bomb_on_the_dragon():
    bomb = straight("56789", "p")
    t = Table({0: ["Mahjong", "2j"], 1: ["Dragon", "3j"], 2: bomb})
    t.play(0, "2j").play(1, "Dragon").play(2, *bomb).pass_(3, 0, 1)
    assert t.turn == 2 and t.phase == "play"  # the bomb took the Dragon trick: no gift
    t.play(2, t.hand(2)[0])
    assert t.points_won(2) == 25 + 5  # the Dragon and the bomb's 5
    written, read = _round_trip(t)
    assert read == written
    assert not any(e["type"] == "dragon_gift" for e in read)


def test_a_player_who_bombs_their_own_dragon_trick_keeps_it():
    bomb = ["7j", "7s", "7p", "7r"]
    t = Table({0: ["Mahjong", "2j"], 1: ["Dragon", "3j"] + bomb})
    t.play(0, "2j").play(1, "Dragon").pass_(2, 3, 0)
    assert t.phase == "dragon_gift"
    t.play(1, *bomb).pass_(2, 3, 0)
    assert t.turn == 1 and t.phase == "play"
    t.play(1, "3j")
    assert t.points_won(1) == 25  # no gift: the bomber's side keeps the Dragon trick
    written, read = _round_trip(t)
    assert read == written and not any(e["type"] == "dragon_gift" for e in read)
    # BSW may or may not print the owner's collecting pass before the bomb: both read the same
    text = export_bsw(t.record())
    collect = "(1)Bob passt.\n(1)Bob: G7 S7 B7 R7 "
    assert collect in text
    assert play_events(parse_bsw(text.replace(collect, "(1)Bob: G7 S7 B7 R7 "))[0]) == written


def test_a_refused_hand_whose_score_fits_no_order_is_left_out_and_the_next_hand_still_folds():
    # hand 2's wish becomes a ten (seat 1 holds one and plays a 2: refused) and its Ergebnis no score
    text = log()
    second = text.index("Wunsch:2\n", text.index("Wunsch:2\n") + 1)
    shaped = text[:second] + "Wunsch:10\n" + text[second + len("Wunsch:2\n") :]
    shaped = shaped.replace("Ergebnis: 0 - 300", "Ergebnis: 3 - 297", 1)
    (read,) = read_bsw(shaped)
    shufflers = [e["seat"] for e in read.record["events"] if e["type"] == "shuffle"]
    notes = settle_refused_hands(read.record, read.event_lines)
    assert [(n["hand"], n["line"], n["action"]) for n in notes] == [(2, 111, "skipped")]
    assert "wish_not_fulfilled" in notes[0]["reason"]
    # hand 3 now follows hand 1: its shuffler is hand 1's first out (seat 2), no longer hand 2's
    assert [e["seat"] for e in read.record["events"] if e["type"] == "shuffle"] == [shufflers[0], 2] + shufflers[3:]
    check = check_game(read.record)
    assert check.error is None and check.hands == 7 and check.equal == 7
