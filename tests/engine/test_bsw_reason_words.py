"""The BSW reader's reasons in every language (issue #21, issue #20 item 1): a lax import's report
names each hand it repaired, kept as its score-sheet line or skipped, with the log's line and the
reason, and that reason reads in the page's language. The corpus log of tests/engine/test_bsw_lax.py
is edited into each shape of log the reader refuses or mends (a line it cannot read in each part of
a hand, a hand cut short, an event the engine refuses); every reason found must be said from its
rule and parameters (games/engine/bsw_words.py) exactly as the English message in English, and in
French, German and Ukrainian from the engine's catalogue, never falling back to English. The
shapes must reach every template: a template no shape reaches, or a reason without one, fails."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from games import engine
from games.engine.bsw import BSWFormatError, read_bsw
from games.engine.bsw_check import settle_refused_hands
from games.engine.bsw_codes import GT_HEADER, PLAY_HEADER
from games.engine.bsw_words import MENDED_WORDS, READER_WORDS, mended_words, note_line, reader_words
from tests.corpus import needs_corpus
from tests.engine.test_bsw_lax import log

pytestmark = needs_corpus
OTHER_LANGUAGES = [lang for lang in engine.LANGUAGES if lang != "en"]
Lines = list[str]


def in_hand(k: int, lines: Lines) -> int:
    """The index of the ``k``-th (0-based) hand's header."""
    return [i for i, line in enumerate(lines) if line == GT_HEADER][k]


def after(lines: Lines, start: int, test: Callable[[str], bool]) -> int:
    return next(i for i in range(start, len(lines)) if test(lines[i]))


def first_play(lines: Lines, h: int) -> int:
    return after(lines, after(lines, h, lambda ln: ln == PLAY_HEADER), lambda ln: ": " in ln and ln[:1] == "(")


def _cards(lines: Lines, i: int, cards: str) -> None:
    lines[i] = lines[i].partition(": ")[0] + ": " + cards + " "


def _insert(lines: Lines, i: int, line: str) -> None:
    lines.insert(i, line)


def _second_wish(lines: Lines) -> int:
    return [i for i, ln in enumerate(lines) if ln.startswith("Wunsch:")][1]


def _push_line(lines: Lines, h: int) -> int:
    return after(lines, h, lambda ln: " gibt: " in ln)


#: each shape: how the log is edited (in its second hand, unless said)
SHAPES: dict[str, Callable[[Lines], Any]] = {
    "unknown card": lambda ls: _cards(ls, first_play(ls, in_hand(1, ls)), "Zz"),
    "unknown wish": lambda ls: ls.__setitem__(_second_wish(ls), "Wunsch:1"),
    "no Phoenix reading": lambda ls: _cards(ls, first_play(ls, in_hand(1, ls)), "Dr Ph"),
    "a stranger's line in the play": lambda ls: _insert(ls, first_play(ls, in_hand(1, ls)) + 1, "Zuschauer: hallo"),
    "a short block line": lambda ls: ls.__setitem__(in_hand(1, ls) + 1, ls[in_hand(1, ls) + 1].rsplit(" ", 4)[0]),
    "three seats in the first block": lambda ls: ls.pop(in_hand(1, ls) + 4),
    "a stranger's line before Schupfen": lambda ls: _insert(ls, ls.index("Schupfen:", in_hand(1, ls)), "hallo"),
    "a push line without its end": lambda ls: ls.__setitem__(
        _push_line(ls, in_hand(1, ls)), ls[_push_line(ls, in_hand(1, ls))][:-3]
    ),
    "a push line of two cards": lambda ls: ls.__setitem__(
        _push_line(ls, in_hand(1, ls)), ls[_push_line(ls, in_hand(1, ls))].rsplit(" - ", 2)[0] + " - "
    ),
    "a stranger's line in the exchange": lambda ls: _insert(ls, ls.index("Schupfen:", in_hand(1, ls)) + 1, "hallo"),
    "a hand cut in its first block": lambda ls: ls.__delitem__(slice(in_hand(1, ls) + 4, in_hand(2, ls))),
    "a hand cut in its second block": lambda ls: ls.__delitem__(slice(in_hand(1, ls) + 9, in_hand(2, ls))),
    "14 cards that are not the 8 and 6 more": lambda ls: ls.__setitem__(
        in_hand(1, ls) + 6, ls[in_hand(1, ls) + 6].rsplit(" ", 2)[0] + " " + ls[in_hand(1, ls) + 6].split(" ")[1] + " "
    ),
    "a Wunsch line twice": lambda ls: _insert(ls, _second_wish(ls) + 1, ls[_second_wish(ls)]),
    "a Grand Tichu nobody called, in the play": lambda ls: _insert(
        ls, _second_wish(ls) + 1, "Grosses Tichu: (2)miss.panic"
    ),
    "Drache an before any trick": lambda ls: _insert(
        ls, ls.index(PLAY_HEADER, in_hand(1, ls)) + 1, "Drache an: (0)Us_D_Marshal_r_G"
    ),
    "a hand cut in its play": lambda ls: (
        ls.__delitem__(slice(first_play(ls, in_hand(1, ls)) + 1, None))
        or _cards(ls, first_play(ls, in_hand(1, ls)), "Zz")
    ),
    "an Ergebnis no finishing order gives": lambda ls: (
        _insert(ls, first_play(ls, in_hand(1, ls)) + 1, "Zuschauer: hallo"),
        ls.__setitem__(ls.index("Ergebnis: 0 - 300"), "Ergebnis: 3 - 297"),
    ),
    "a seat printed without its handle": lambda ls: ls.__setitem__(2, "(1) " + ls[2].split(" ", 1)[1]),
    "a line before the first hand": lambda ls: ls.insert(0, "hallo"),
    "a log cut in its first block": lambda ls: ls.__delitem__(slice(3, None)),
    "a first block out of order": lambda ls: ls.__setitem__(slice(1, 3), [ls[2], ls[1]]),
    # the engine refuses an event: the wish for a ten that seat 1 holds (in hand 1, and in hand 2
    # with an Ergebnis no finishing order gives)
    "a wish the engine holds to": lambda ls: ls.__setitem__(ls.index("Wunsch:2"), "Wunsch:10"),
    "a wish the engine holds to, no order": lambda ls: (
        ls.__setitem__(_second_wish(ls), "Wunsch:10"),
        ls.__setitem__(ls.index("Ergebnis: 0 - 300"), "Ergebnis: 3 - 297"),
    ),
}


def reasons(shape: str) -> tuple[list[BSWFormatError], list[dict[str, Any]]]:
    """What a lax import of the shaped log says: the error that stops it, or its hands' notes."""
    lines = log().split("\n")
    SHAPES[shape](lines)
    try:
        games = read_bsw("\n".join(lines), lax=True)
    except BSWFormatError as exc:
        return [exc], []
    notes = []
    for read in games:
        notes += read.notes + settle_refused_hands(read.record, read.event_lines)
    return [], notes


@pytest.fixture(scope="module")
def found() -> dict[str, tuple[list[BSWFormatError], list[dict[str, Any]]]]:
    return {shape: reasons(shape) for shape in SHAPES}


def test_every_shape_is_refused_or_mended_and_all_templates_are_reached(found):
    assert [shape for shape, (errors, notes) in found.items() if not errors and not notes] == []
    reader_rules = {e.rule for errors, _ in found.values() for e in errors}
    reader_rules |= {
        n["params"]["cause"]["rule"] for _, notes in found.values() for n in notes if "cause" in n.get("params", {})
    }
    assert reader_rules == set(READER_WORDS)
    assert {n.get("rule") for _, notes in found.values() for n in notes} == set(MENDED_WORDS)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_each_reason_is_said_in_every_language(found, shape):
    errors, notes = found[shape]
    problems = []
    for exc in errors:
        english = reader_words(exc.rule, exc.params)
        if english != exc.message:
            problems.append(f"{exc.rule} in en: {english!r}, not {exc.message!r}")
        for lang in OTHER_LANGUAGES:
            said = reader_words(exc.rule, exc.params, lang)
            if not said or said == english:
                problems.append(f"{exc.rule} in {lang}: {said!r}")
    for note in notes:
        english = mended_words(note)
        if english is None or (not note["rule"].endswith(":refused") and english != note["reason"]):
            problems.append(f"{note.get('rule')} in en: {english!r}, not {note['reason']!r}")
        for lang in OTHER_LANGUAGES:
            said = mended_words(note, lang)
            if not said or said == english or note_line(note, lang) == note_line(note):
                problems.append(f"{note.get('rule')} in {lang}: {said!r}")
    assert problems == []


def test_a_note_stored_without_its_rule_says_its_english_reason():
    old = {"game": 1, "hand": 2, "line": 127, "action": "skipped", "reason": "unexpected line in the play: 'x'"}
    assert mended_words(old, "fr") is None
    assert note_line(old, "fr") == "partie 1, donne 2, ligne 127\u00a0: écartée\u00a0: unexpected line in the play: 'x'"
    assert note_line(old) == "game 1, hand 2, line 127: skipped: unexpected line in the play: 'x'"
