"""The BSW reader's loop for plain play lines (``LogReader.read_plain_plays``: a pass or play under
the seat's current handle, cards read before) reads exactly what the general path
(``HandReader.read_play``, line by line) reads: every game's events, event lines, results,
substitutions, Startkarten and lax notes, on every corpus log and on logs edited to leave the
plain path mid-hand (another handle, a call naming another handle, a line the reader refuses)."""

from __future__ import annotations

import pytest

from games.engine import bsw_reader
from games.engine.bsw_reader import LogReader
from tests.corpus import CORPUS, needs_corpus

# the reader's methods patched and its objects read by vars(): on the Python source when the engine
# is compiled (tests/engine/conftest.py)
pytestmark = [needs_corpus, pytest.mark.pure_python]
LOGS = sorted((CORPUS / "bsw-tich_me").glob("*.tch"))


def _state(text: str, lax: bool) -> str:
    try:
        return repr([vars(g) for g in LogReader(text, lax=lax).read()])
    except bsw_reader.BSWFormatError as exc:
        return f"error {exc.message!r} at {exc.line}"


def _general_path(text: str, lax: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    """The same log read with the plain-play loop off and the cards cache empty (every line
    through ``read_play``)."""
    with monkeypatch.context() as m:
        m.setattr(LogReader, "read_plain_plays", lambda self, hand, idx: idx)
        m.setattr(bsw_reader, "_PLAYS", {})
        return _state(text, lax)


def _edited() -> list[tuple[str, str]]:
    text = (CORPUS / "bsw-tich_me" / "2241381.tch").read_text(encoding="utf-8")
    edits = {
        "a pass under another handle": (
            "(1)lionheart99917 passt.\n(2)miss.panic: G2",
            "(1)someone passt.\n(2)miss.panic: G2",
        ),
        "a play under another handle": ("(3)Sayxas: GK \n", "(3)other: GK \n"),
        "a call naming another handle, then plays": ("(2)miss.panic: S3 \n", "(2)miss.panic: S3 \nTichu: (0)x\n"),
        "an unknown card code in a play": ("(3)Sayxas: RA \n", "(3)Sayxas: XX \n"),
        "a play line with no cards": ("(3)Sayxas: RA \n", "(3)Sayxas: \n"),
    }
    out = []
    for name, (old, new) in edits.items():
        assert old in text, name
        out.append((name, text.replace(old, new, 1)))
    return out


@pytest.mark.parametrize("lax", [False, True])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_corpus_logs_read_the_same_by_both_paths(path, lax, monkeypatch):
    text = path.read_text(encoding="utf-8")
    assert _state(text, lax) == _general_path(text, lax, monkeypatch)


@pytest.mark.parametrize("lax", [False, True])
@pytest.mark.parametrize("name,text", _edited(), ids=lambda v: v if len(v) < 60 else "log")
def test_edited_logs_read_the_same_by_both_paths(name, text, lax, monkeypatch):
    bsw_reader._PLAYS.clear()
    _state(text, lax)  # the cache filled by this log: the plain loop takes most of its lines
    assert _state(text, lax) == _general_path(text, lax, monkeypatch)


def test_the_plain_loop_reads_most_play_lines(monkeypatch):
    """Not vacuous: on a corpus log the loop, not ``read_play``, reads most plays and passes."""
    calls = []
    original = bsw_reader.HandReader.read_play

    def counting(self, game, line, lineno):
        calls.append(lineno)
        return original(self, game, line, lineno)

    text = LOGS[0].read_text(encoding="utf-8")
    _state(text, False)
    monkeypatch.setattr(bsw_reader.HandReader, "read_play", counting)
    games = LogReader(text).read()
    events = sum(len(g.events) for g in games)
    assert 0 < len(calls) < events / 4
