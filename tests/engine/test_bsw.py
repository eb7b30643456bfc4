"""The BSW importer/exporter (games/engine/bsw.py) against the shared corpus of real logs.

Facts below were counted on the logs themselves (grep) and are checked against the converter.
The engine checks (every complete hand accepted, score equal to Ergebnis) run once the engine's
``fold``/``score_json`` are importable.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from games.engine.bsw import (
    BSWFormatError,
    card_from_bsw,
    card_to_bsw,
    export_bsw,
    main_from_bsw,
    parse_bsw,
    phoenix_reading,
)
from tests.corpus import CORPUS as CORPUS_ROOT
from tests.corpus import needs_corpus

CORPUS = CORPUS_ROOT / "bsw-tich_me"
LOGS = ["2241381", "2241402", "300357", "demo_game"]

pytestmark = needs_corpus


def text(name: str) -> str:
    return (CORPUS / f"{name}.tch").read_text(encoding="utf-8")


def records(name: str, **kw):
    return parse_bsw(text(name), game_id=name, **kw)


def hands_of(record):
    """The events of each hand (split at shuffle)."""
    out = []
    for e in record["events"]:
        if e["type"] == "shuffle":
            out.append([])
        out[-1].append(e)
    return out


# ------------------------------------------------------------------ cards and readings


def test_card_mapping():
    assert card_from_bsw("R10") == "Tr"
    assert card_from_bsw("GB") == "Jj"
    assert card_from_bsw("SD") == "Qs"
    assert card_from_bsw("BK") == "Kp"
    assert card_from_bsw("G2") == "2j"
    assert [card_from_bsw(c) for c in ("Ma", "Hu", "Ph", "Dr")] == ["Mahjong", "Dog", "Phoenix", "Dragon"]
    for code in ("R10", "GB", "SD", "BA", "S2", "Ma", "Hu", "Ph", "Dr"):
        assert card_to_bsw(card_from_bsw(code)) == code
    with pytest.raises(BSWFormatError):
        card_from_bsw("X9")


@pytest.mark.parametrize(
    "bsw, reading",
    [
        ("S8 B7 R6 R5 Ph B3 B2 Ma", "4"),  # straight, Phoenix in the gap
        ("RA SK SD GB B10 B9 Ph", "8"),  # straight, Phoenix at the bottom
        ("Ph SD SB R10 B9 B8", "K"),  # straight, Phoenix on top
        ("Ph R8 S8 S5 R5", "8"),  # full house 888+55
        ("R8 S8 S5 R5 Ph", "5"),  # full house 555+88
        ("Ph RD BD S6 G6", "Q"),
        ("G8 S8 S7 G7 R6 Ph S5 G5", "6"),  # consecutive pairs
        ("R9 G9 B8 S8 S7 B7 G6 B6 Ph R5", "5"),
        ("Ph BA", "A"),
        ("Ph R6 G6", "6"),
    ],
)
def test_phoenix_reading_from_card_order(bsw, reading):
    assert phoenix_reading([card_from_bsw(c) for c in bsw.split()]) == reading


# ------------------------------------------------------------------ parsing facts

# per log: hands, hands with Ergebnis, plays, passes kept, "passt." lines, wishes, gifts,
# Phoenix in a combination, Tichu calls, Grand Tichu calls
FACTS = {
    "2241381": (8, 8, 235, 248, 332, 8, 8, 3, 5, 3),
    "2241402": (10, 9, 242, 288, 383, 7, 8, 4, 4, 3),
    "300357": (15, 15, 407, 437, 587, 9, 11, 12, 8, 0),
    "demo_game": (14, 14, 402, 449, 579, 13, 12, 9, 4, 0),
}


@pytest.mark.parametrize("name", LOGS)
def test_counts(name):
    recs = records(name)
    assert len(recs) == 1  # one game per file
    rec = recs[0]
    n_hands, n_done, plays, passes, pass_lines, wishes, gifts, phoenix, tichus, grands = FACTS[name]
    log = text(name)
    assert log.count("---------------Gr.Tichukarten") == n_hands
    assert log.count("Ergebnis:") == n_done
    assert log.count(" passt.\n") == pass_lines
    types = Counter(e["type"] for e in rec["events"])
    assert types["shuffle"] == n_hands
    assert len(rec["meta"]["bsw_results"]) == n_hands
    assert sum(r is not None for r in rec["meta"]["bsw_results"]) == n_done
    assert types["play"] == plays == len(re.findall(r"^\([0-3]\)[^\n]*?: [^\n]+ $", log, re.M)) - 4 * n_done
    assert types["pass"] == passes
    assert types["dragon_gift"] == gifts == log.count("Drache an:")
    assert sum("wish" in e for e in rec["events"]) == wishes == log.count("Wunsch:")
    assert sum("phoenix" in e for e in rec["events"]) == phoenix
    assert types["tichu"] == tichus == log.count("\nTichu: ")
    assert types["grand_tichu"] == grands == log.count("Grosses Tichu: ")
    assert types["push"] == 4 * n_done
    assert rec["format"] == "tichu-record/1" and rec["variant"] == "nanking"
    assert rec["options"] == {"preset": "rio", "deal_method": "western"}
    assert rec["meta"]["source"] == "bsw" and rec["meta"]["game_id"] == name


@pytest.mark.parametrize("name", LOGS)
def test_collecting_pass_dropped(name):
    """The trick owner's "passt." is BSW collecting the trick: no event; every other pass stays."""
    rec = records(name)[0]
    log = text(name)
    n_pass_lines = log.count(" passt.\n")
    kept = sum(e["type"] == "pass" for e in rec["events"])
    dropped = n_pass_lines - kept
    assert dropped == {"2241381": 84, "2241402": 95, "300357": 150, "demo_game": 130}[name]
    # no pass event is ever made by the seat whose combination lies on top
    top = None
    for e in rec["events"]:
        if e["type"] == "shuffle":
            top = None
        elif e["type"] == "play":
            top = None if e["cards"] == ["Dog"] else e["seat"]
        elif e["type"] == "pass":
            assert e["seat"] != top
        elif e["type"] == "dragon_gift":
            top = None


def test_first_hand_of_2241381():
    rec = records("2241381")[0]
    assert rec["players"] == ["Us_D_Marshal_r_G", "lionheart99917", "miss.panic", "Sayxas"]
    h = hands_of(rec)[0]
    assert h[0] == {"type": "shuffle", "seat": 0}
    assert h[1] == {"type": "deal", "seat": 0, "cards": ["Kp", "Qr", "Jp", "9r", "6j", "3j", "2s", "Mahjong"]}
    assert [e["type"] for e in h[1:9]] == ["deal"] * 8
    assert h[5] == {"type": "deal", "seat": 0, "cards": ["Phoenix", "Aj", "Kr", "9p", "7r", "3r"]}
    assert h[9] == {"type": "tichu", "seat": 2}  # called before Schupfen
    assert h[10] == {"type": "push", "seat": 0, "cards": {"1": "6j", "2": "Phoenix", "3": "7r"}}
    assert h[11] == {"type": "push", "seat": 1, "cards": {"2": "2j", "3": "Kj", "0": "4p"}}
    assert h[14] == {"type": "play", "seat": 0, "cards": ["Mahjong"], "wish": "2"}
    assert h[15] == {"type": "pass", "seat": 1}
    # (0) GA, (1)(2)(3) pass, (0) passt. = collects: dropped, then (0) leads S2
    assert h[18:23] == [
        {"type": "play", "seat": 0, "cards": ["Aj"]},
        {"type": "pass", "seat": 1},
        {"type": "pass", "seat": 2},
        {"type": "pass", "seat": 3},
        {"type": "play", "seat": 0, "cards": ["2s"]},
    ]
    gift = next(e for e in h if e["type"] == "dragon_gift")
    assert gift == {"type": "dragon_gift", "seat": 3, "to": 0}
    assert rec["meta"]["bsw_results"][0] == [165, 35]
    # the second hand is shuffled by the first out of the first (seat 2 made its Tichu)
    assert hands_of(rec)[1][0] == {"type": "shuffle", "seat": 2}


def test_grand_tichu_between_the_deals():
    rec = records("2241381")[0]
    h = hands_of(rec)[3]  # "Grosses Tichu: (1)lionheart99917"
    types = [e["type"] for e in h[:15]]
    assert types[:5] == ["shuffle", "deal", "deal", "deal", "deal"]
    assert h[5] == {"type": "grand_tichu", "seat": 1}
    assert types[6:10] == ["deal"] * 4
    assert all(len(e["cards"]) == 8 for e in h[1:5]) and all(len(e["cards"]) == 6 for e in h[6:10])


def test_deals_start_with_the_shuffler():
    for name in LOGS:
        for h in hands_of(records(name)[0]):
            s = h[0]["seat"]
            assert [e["seat"] for e in h[1:5]] == [(s + k) % 4 for k in range(4)]


def test_bomb_out_of_turn_is_a_plain_play():
    rec = records("2241381")[0]
    # hand 3: (1) BK then, out of turn on its own trick, (1) SD RD GD BD
    evs = rec["events"]
    i = next(i for i, e in enumerate(evs) if e.get("cards") == ["Qs", "Qr", "Qj", "Qp"])
    assert evs[i]["seat"] == evs[i - 1]["seat"] == 1 and evs[i - 1]["cards"] == ["Kp"]


def test_tichu_during_play_and_dog():
    rec = records("300357")[0]
    h = hands_of(rec)[12]
    i = next(i for i, e in enumerate(h) if e["type"] == "play")
    assert h[i] == {"type": "play", "seat": 0, "cards": ["Dog"]}
    assert h[i + 1] == {"type": "tichu", "seat": 2}
    assert h[i + 2] == {"type": "play", "seat": 2, "cards": ["2s"]}


def test_player_substitution_300357():
    rec = records("300357")[0]
    assert rec["players"] == ["Python-Reticulatus77", "Amethyst", "imjno1", "basilarasman"]
    (sub,) = rec["meta"]["substitutions"]
    assert sub["hand"] == 12 and sub["seat"] == 2 and sub["name"] == "Foldi"
    # the 13th hand's cards are still dealt to imjno1; Foldi is named from the exchange on
    ev = rec["events"][sub["event"]]
    assert ev == {"type": "push", "seat": 0, "cards": {"1": "6s", "2": "As", "3": "Js"}}


def test_truncated_hand_is_kept_unfinished():
    rec = records("2241402")[0]
    assert rec["meta"]["bsw_results"][-1] is None
    last = hands_of(rec)[-1]
    assert [e["type"] for e in last] == ["shuffle"] + ["deal"] * 8


def test_anonymise():
    rec = records("300357", anonymise=True)[0]
    assert rec["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert rec["meta"]["substitutions"][0]["name"] == "Player 5"
    dump = json.dumps(rec)
    for handle in ("Python-Reticulatus77", "Amethyst", "imjno1", "basilarasman", "Foldi"):
        assert handle not in dump
    # the export of an anonymised record is the log with handles replaced
    exported = export_bsw(rec)
    assert exported.count("Player 5") == text("300357").count("Foldi")


def test_several_games_in_one_file():
    both = text("2241381") + text("300357")
    recs = parse_bsw(both)
    assert len(recs) == 2
    assert [len(r["meta"]["bsw_results"]) for r in recs] == [8, 15]
    assert [r["meta"]["game_index"] for r in recs] == [0, 1]
    assert recs[1]["events"][0] == {"type": "shuffle", "seat": 0}
    assert recs[1]["players"][0] == "Python-Reticulatus77"
    assert "".join(export_bsw(r) for r in recs) == both


def test_game_ends_at_1000_by_ergebnis_totals():
    rec = records("2241381")[0]
    totals = [sum(r[k] for r in rec["meta"]["bsw_results"]) for k in (0, 1)]
    assert totals == [380, 1020]
    rec = records("demo_game")[0]
    assert [sum(r[k] for r in rec["meta"]["bsw_results"]) for k in (0, 1)] == [1085, 1015]


def test_format_errors_name_the_line():
    bad = text("2241381").replace("(0)Us_D_Marshal_r_G: Ma \n", "(0)Us_D_Marshal_r_G: Mx \n", 1)
    with pytest.raises(BSWFormatError) as info:
        parse_bsw(bad)
    assert info.value.line == 18
    with pytest.raises(BSWFormatError):
        parse_bsw("hello\n")


# ------------------------------------------------------------------ round trip


@pytest.mark.parametrize("name", LOGS)
def test_export_round_trip_byte_for_byte(name):
    log = text(name)
    recs = parse_bsw(log)
    assert "".join(export_bsw(r) for r in recs) == log


def test_export_without_meta_order_differs_only_in_startkarten_order():
    """Without meta.bsw_startkarten the 14-card lines come out in canonical order: same cards,
    same seats; only the order of cards of equal rank may differ."""
    log = text("2241381")
    rec = parse_bsw(log)[0]
    del rec["meta"]["bsw_startkarten"]
    out = export_bsw(rec).split("\n")
    lines = log.split("\n")
    assert len(out) == len(lines)
    for a, b in zip(lines, out):
        if a != b:
            assert a.split()[0] == b.split()[0] and sorted(a.split()) == sorted(b.split())


# ------------------------------------------------------------------ command line


def test_cli_from_file_and_stdin(capsys, monkeypatch):
    assert main_from_bsw([str(CORPUS / "2241381.tch")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == 1 and out[0]["meta"]["game_id"] == "2241381"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text("demo_game").encode())))
    assert main_from_bsw(["-", "--anonymise"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["players"][0] == "Player 1" and out[0]["meta"]["game_id"] is None
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"nonsense\n")))
    assert main_from_bsw(["-"]) == 2
    err = json.loads(capsys.readouterr().out)
    assert err["ok"] is False and err["error"]["code"] == "malformed"


# ------------------------------------------------------------------ against the rules engine


def _engine():
    from games.engine import EngineError, fold, score_json

    return EngineError, fold, score_json


def _fold_or_explain(rec):
    EngineError, fold, _ = _engine()
    try:
        return fold(rec)
    except EngineError as err:
        ev = rec["events"][err.index] if err.index is not None else None
        hand = sum(e["type"] == "shuffle" for e in rec["events"][: (err.index or 0) + 1]) - 1
        pytest.fail(f"engine rejects event {err.index} (hand {hand}) {ev}: {err.code}: {err.message}")


@pytest.mark.parametrize("name", LOGS)
def test_engine_accepts_every_hand_and_scores_as_bsw(name):
    _, _, score_json = _engine()
    rec = parse_bsw(text(name), bsw_scoring=True)[0]
    assert rec["options"]["bsw_grand_tichu_quirk"] == "partner_grand"  # BSW's rule (test_bsw_quirks.py)
    score = score_json(_fold_or_explain(rec))
    expected = rec["meta"]["bsw_results"]
    complete = [r for r in expected if r is not None]
    got = [list(h["points"]) for h in score["hands"]][: len(complete)]
    assert got == complete
    totals = [sum(r[k] for r in complete) for k in (0, 1)]
    assert list(score["totals"]) == totals
    assert score["complete"] is (expected[-1] is not None)
    if score["complete"]:
        assert score["winner"] == (0 if totals[0] > totals[1] else 1)


@pytest.mark.parametrize("name", LOGS)
def test_engine_by_the_book_agrees_without_double_grand_tichu(name):
    """Without the quirk option the scores differ from Ergebnis only in hands where both partners
    called Grand Tichu (there is no such hand in this corpus, so all agree)."""
    _, _, score_json = _engine()
    rec = records(name)[0]
    assert "bsw_grand_tichu_quirk" not in rec["options"]
    got = [list(h["points"]) for h in score_json(_fold_or_explain(rec))["hands"]]
    for h, (g, x) in enumerate(zip(got, rec["meta"]["bsw_results"])):
        if x is not None:
            assert g == x, f"hand {h}"


def test_engine_bsw_grand_tichu_quirk():
    """Hand 4 of 2241381 with a second Grand Tichu (seat 3, partner of the caller seat 1 who goes
    out first): by the book 30 - 70 (+200 -200), BSW's reading 30 - 270."""
    _, _, score_json = _engine()
    log = text("2241381").replace(
        "Grosses Tichu: (1)lionheart99917\n", "Grosses Tichu: (1)lionheart99917\nGrosses Tichu: (3)Sayxas\n", 1
    )
    book = parse_bsw(log)[0]
    assert [e for e in hands_of(book)[3] if e["type"] == "grand_tichu"] == [
        {"type": "grand_tichu", "seat": 1},
        {"type": "grand_tichu", "seat": 3},
    ]
    assert export_bsw(book) == log
    assert score_json(_fold_or_explain(book))["hands"][3]["points"] == [30, 70]
    quirk = parse_bsw(log, bsw_scoring=True)[0]
    assert score_json(_fold_or_explain(quirk))["hands"][3]["points"] == [30, 270]


def test_engine_truncated_game_is_unfinished():
    _, fold, _ = _engine()
    rec = records("2241402")[0]
    state = _fold_or_explain(rec)
    assert not state.is_over and state.winner is None


def test_export_places_the_phoenix_of_a_record_without_reading():
    """A record made elsewhere (cards in any order, no ``phoenix``): the export sorts the play in
    BSW order with the Phoenix at the highest reading, so re-importing reads the same rank."""
    rec = records("2241381")[0]
    k = next(i for i, e in enumerate(rec["events"]) if e.get("phoenix"))
    play = rec["events"][k]
    reading = play["phoenix"]
    rec["events"][k] = {"type": "play", "seat": play["seat"], "cards": sorted(play["cards"])}
    again = parse_bsw(export_bsw(rec))[0]
    assert sorted(again["events"][k]["cards"]) == sorted(play["cards"])
    from games.engine.bsw import default_phoenix

    assert again["events"][k]["phoenix"] == default_phoenix(play["cards"])
    assert default_phoenix([card_from_bsw(c) for c in "B7 Ph G5 G4 B3".split()]) == "6"
    assert default_phoenix([card_from_bsw(c) for c in "Ph SD SB R10 B9".split()]) == "K"
    assert default_phoenix([card_from_bsw(c) for c in "R8 S8 S5 R5 Ph".split()]) == "8"
    assert reading


@pytest.mark.parametrize("first", ["(1)lionheart99917 passt.", "(1)lionheart99917: "])
def test_substitution_during_the_play(first):
    """A handle that changes in the middle of a hand's play (first seen on a pass or on a play
    line) is a substitution from that event on, and the export writes it back in place."""
    log = text("2241381")
    lines = log.split("\n")
    start = next(i for i, ln in enumerate(lines) if i > 300 and ln.startswith(first))
    edited = "\n".join(lines[:start] + [ln.replace("lionheart99917", "Newbie") for ln in lines[start:]])
    rec = parse_bsw(edited)[0]
    (sub,) = rec["meta"]["substitutions"]
    assert sub["seat"] == 1 and sub["name"] == "Newbie"
    assert rec["players"][1] == "lionheart99917"
    assert export_bsw(rec) == edited
    assert [e["type"] for e in rec["events"]] == [e["type"] for e in records("2241381")[0]["events"]]


def _relabel_blocks(log: str, hand: int, handles: list[str]) -> str:
    """``log`` with the Gr.Tichukarten and Startkarten lines of ``hand`` (0-based) naming seat s
    ``handles[s]``; the cards stay where they are."""
    lines = log.split("\n")
    start = [i for i, ln in enumerate(lines) if ln.startswith("---------------Gr.Tichukarten")][hand]
    assert lines[start + 5].startswith("---------------Startkarten")
    for i in [*range(start + 1, start + 5), *range(start + 6, start + 10)]:
        seat = int(lines[i][1])
        lines[i] = f"({seat}){handles[seat]} " + lines[i].split(" ", 1)[1]
    return "\n".join(lines)


@pytest.mark.parametrize("hand", [0, 3])
@pytest.mark.parametrize("order", ["sorted", "rotated"])
def test_card_blocks_naming_the_players_at_other_seats(hand, order):
    """Regression (a public BSW log of January 2007): the card blocks of a game's first hand may
    list the four handles at other seats than the ones they play (in alphabetical order, or turned
    by two seats) while the cards are the seats' own. The exchange and play lines are right: the
    record's players are theirs, and no substitution is made of the blocks' labels."""
    log = text("2241381")
    want = records("2241381")[0]
    players = want["players"]
    handles = sorted(players) if order == "sorted" else players[2:] + players[:2]
    assert all(a != b for a, b in zip(handles, players))
    edited = _relabel_blocks(log, hand, handles)
    assert edited != log
    rec = parse_bsw(edited, game_id="2241381")[0]
    assert rec["players"] == players == ["Us_D_Marshal_r_G", "lionheart99917", "miss.panic", "Sayxas"]
    assert "substitutions" not in rec["meta"]
    assert rec["events"] == want["events"] and rec["meta"] == want["meta"]
    assert export_bsw(rec) == log  # the blocks are written with the seats' handles
    assert parse_bsw(edited, anonymise=True)[0]["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_card_blocks_with_a_new_handle_are_still_a_substitution():
    """Only a block that shows the exchange's own four handles at other seats is a misprint: a
    handle the exchange does not name keeps its meaning (that player was dealt the cards and the
    exchange names the substitute, as in hand 12 of 300357), in the first hand too."""
    log = text("2241381")
    players = records("2241381")[0]["players"]
    edited = _relabel_blocks(log, 0, [players[0], players[1], "Leaver", players[3]])
    rec = parse_bsw(edited)[0]
    assert rec["players"] == [players[0], players[1], "Leaver", players[3]]
    (sub,) = rec["meta"]["substitutions"]
    assert (sub["hand"], sub["seat"], sub["name"]) == (0, 2, "miss.panic")
    # the new handle is first named by the Tichu call before the exchange, then by the pushes
    assert rec["events"][sub["event"]] == {"type": "tichu", "seat": 2}
    assert export_bsw(rec) == edited


@pytest.mark.parametrize(
    "line",
    [
        "Tichu: (2)miss.panic",  # a call before the exchange
        "BOMBE: (0)Us_D_Marshal_r_G (1)lionheart99917 ",
        "Tichu: (3)Sayxas",  # a call during the play
        "Drache an: (3)Sayxas",
        "Grosses Tichu: (1)lionheart99917",
    ],
)
def test_other_handle_on_a_line_without_cards_is_not_a_substitution(line):
    """Regression (January 2007 log): BSW once printed a Tichu call under a handle that never played
    (the seat's player went on under their own handle on the next line). A line without cards
    (a call, BOMBE, Drache an) does not change a seat's player by itself."""
    log = text("2241381")
    old = line.split(")")[1].split()[0]
    assert f"\n{line}\n" in log
    edited = log.replace(f"\n{line}\n", "\n" + line.replace(f"){old}", ")Kibitz", 1) + "\n", 1)
    rec = parse_bsw(edited)[0]
    want = records("2241381")[0]
    assert "substitutions" not in rec["meta"]
    assert rec["players"] == want["players"] and rec["events"] == want["events"]
    assert export_bsw(rec) == log


def test_substitution_first_named_on_a_call_line():
    """A new handle on a call line that the seat's next lines keep is a substitution from the
    call on (the substitute made the call)."""
    log = text("2241381")
    lines = log.split("\n")
    start = lines.index("Tichu: (3)Sayxas", 100)
    edited = "\n".join(lines[:start] + [ln.replace("Sayxas", "Newbie") for ln in lines[start:]])
    rec = parse_bsw(edited)[0]
    (sub,) = rec["meta"]["substitutions"]
    assert sub["seat"] == 3 and sub["name"] == "Newbie" and sub["hand"] == 1
    assert rec["events"][sub["event"]] == {"type": "tichu", "seat": 3}
    assert export_bsw(rec) == edited


def test_a_call_lines_other_handle_is_forgotten_once_the_seat_plays_under_its_own():
    """A stray handle on a call line, then the seat's own handle on its next play or pass, then
    (much later) a real substitute: the substitution starts at the substitute's first line, not
    back at the call."""
    log = text("2241381")
    lines = log.split("\n")
    call = lines.index("Tichu: (3)Sayxas", 100)
    own = [i for i in range(call + 1, len(lines)) if lines[i].startswith("(3)Sayxas")]
    cut = own[2]  # the seat plays twice under its own handle first
    # and no other line without cards names the seat in between (that would also forget the call)
    assert not any("(3)Sayxas" in ln and not ln.startswith("(3)") for ln in lines[call + 1 : cut])
    edited_lines = (
        lines[:call]
        + ["Tichu: (3)Newbie"]
        + lines[call + 1 : cut]
        + [ln.replace("Sayxas", "Newbie") for ln in lines[cut:]]
    )
    rec = parse_bsw("\n".join(edited_lines))[0]
    (sub,) = rec["meta"]["substitutions"]
    assert sub["seat"] == 3 and sub["name"] == "Newbie"
    assert rec["events"][sub["event"]]["type"] in ("play", "pass")  # not the call
    assert sub["event"] > rec["events"].index({"type": "tichu", "seat": 3})


def test_bench_import_smoke():
    """bench/import.py runs and finds no score mismatch (speed is not asserted here)."""
    import subprocess
    import sys

    _engine()
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, str(root / "bench" / "import.py"), "--seconds", "0", "--json"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["hands"] == 47 and report["events"] == 3381 and report["score_mismatches"] == []
    assert set(report["stages"]) == {"json_loads", "convert", "fold_score", "pipeline"}


@pytest.mark.parametrize("keep", [1, 2, 5, 7, 8, 12, 17, 40])
def test_log_cut_anywhere_in_the_last_hand(keep):
    """A log cut after any line of its last hand is read up to there (unfinished hand), and the
    engine accepts what was read."""
    log = text("2241381")
    lines = log.split("\n")
    last = max(i for i, ln in enumerate(lines) if ln.startswith("---------------Gr.Tichukarten"))
    cut = "\n".join(lines[: last + keep]) + "\n"
    rec = parse_bsw(cut)[0]
    assert rec["meta"]["bsw_results"][-1] is None and len(rec["meta"]["bsw_results"]) == 8
    _, fold, _ = _engine()
    state = _fold_or_explain(rec)
    assert not state.is_over


def test_log_cut_anywhere_round_trips_but_for_its_last_line():
    """Cut after any line of the last hand, the export equals the cut log, except that a cut log
    may end in a line the record does not carry (a bare section header), or the export may add
    one the log had not written yet (BOMBE, derived from the exchange; the owner's collecting
    pass, derived from the passes)."""
    log = text("2241381")
    lines = log.split("\n")
    last = max(i for i, ln in enumerate(lines) if ln.startswith("---------------Gr.Tichukarten"))
    differ = []
    for keep in range(1, len(lines) - last):
        cut = "\n".join(lines[: last + keep]) + "\n"
        out = export_bsw(parse_bsw(cut)[0])
        if out == cut:
            continue
        a, b = cut.split("\n")[:-1], out.split("\n")[:-1]
        if len(a) == len(b) + 1 and a[:-1] == b:
            assert a[-1] in (
                "---------------Startkarten------------------",
                "Schupfen:",
                "---------------Rundenverlauf------------------",
            ), a[-1]
        else:
            assert len(b) == len(a) + 1 and b[:-1] == a, keep
            assert b[-1].startswith("BOMBE: ") or b[-1].endswith(" passt."), b[-1]
        differ.append(keep)
    assert len(differ) == 12  # of 84 cut positions


@pytest.mark.parametrize("name", LOGS)
def test_every_corpus_move_is_offered_by_the_engine(name):
    """Each in-turn play or pass of the logs is among ``legal_actions`` at that point, and each
    out-of-turn play (a bomb) among ``bombs_out_of_turn``: the engine's move generator agrees with
    what real players did (2,708 moves)."""
    _engine()
    from games.engine import bombs_out_of_turn, legal_actions, new_game, state_json

    def key(e):
        return e["type"], e["seat"], tuple(sorted(e.get("cards", ())))

    rec = parse_bsw(text(name), bsw_scoring=True)[0]
    state = new_game(rec["variant"], rec["options"], rec["players"])
    for i, e in enumerate(rec["events"]):
        if e["type"] in ("play", "pass"):
            turn = state_json(state)["turn"]
            if e["seat"] == turn:
                assert key(e) in {key(a) for a in legal_actions(state)}, (i, e)
            else:
                offered = bombs_out_of_turn(state).get(e["seat"], [])
                assert key(e) in {key(a) for a in offered}, (i, e, turn)
        state.apply(e)


def _normalised(events):
    """Events with card lists sorted and each block of deals in seat order (BSW prints cards in its
    display order, and the engine accepts the deals of a block in any order)."""
    out = []
    for e in events:
        e = dict(e)
        if e["type"] in ("deal", "play"):
            e["cards"] = sorted(e["cards"])
        out.append(e)
    res, i = [], 0
    while i < len(out):
        j = i
        while j < len(out) and out[j]["type"] == "deal":
            j += 1
        if j > i:
            res.extend(sorted(out[i:j], key=lambda e: e["seat"]))
            i = j
        else:
            res.append(out[i])
            i += 1
    return res


@pytest.mark.parametrize("seed", range(6))
def test_bot_games_survive_export_and_import(seed):
    """Bot-played western games (many bombs, calls at every moment, Dragon gifts, Dog leads):
    export to .tch and import back gives the same events (but for the first shuffle seat, which
    BSW does not log, card order within a line, and the order of a block of deals), the same
    .tch again, and the same score."""
    _engine()
    from games.engine import fold, random_game, score_json

    rec = random_game(seed, options={"deal_method": "western"}, bomb_rate=0.6, call_rate=0.4)
    rec["events"][0]["seat"] = 0  # BSW's first hand: seat 0 by convention
    log = export_bsw(rec)
    (back,) = parse_bsw(log)
    assert _normalised(back["events"]) == _normalised(rec["events"])
    assert export_bsw(back) == log
    assert score_json(fold(back))["totals"] == score_json(fold(rec))["totals"]


def test_engine_command_line_from_bsw():
    """``python -m games.engine from-bsw LOG.tch [--anonymise]`` (wired by the engine's CLI)."""
    import subprocess
    import sys

    _engine()
    root = Path(__file__).resolve().parents[2]
    run = lambda *args, **kw: subprocess.run(
        [sys.executable, "-m", "games.engine", "from-bsw", *args],  # noqa: E731
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
        **kw,
    )
    proc = run(str(CORPUS / "300357.tch"), "--anonymise")
    assert proc.returncode == 0, proc.stderr
    (rec,) = json.loads(proc.stdout)
    assert rec["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert rec["meta"]["game_id"] == "300357" and len(rec["meta"]["bsw_results"]) == 15
    proc = run("-", input=text("2241381"))
    assert proc.returncode == 0 and json.loads(proc.stdout)[0]["players"][2] == "miss.panic"
    proc = run("-", input="not a log\n")
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "malformed"
