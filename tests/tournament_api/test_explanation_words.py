"""The pairing page says the core's explanation in the reader's language
(replay/tournaments/explanation_words.py, issue #21): in English its lines are the core's own, in
German none is, for each system and both kinds of method."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.tournament import fold, propose
from replay.tournaments import explanation_words
from tests.tournament.play import header, register, tournament

HEADERS = [
    ("swiss", header(), 4),
    ("round robin, even", header(system="round_robin", rounds=None), 4),
    ("round robin, a phantom", header(system="round_robin", rounds=None), 5),
    ("duplicate", header(system="duplicate", scoring="matchpoints", hands_per_round=3, rounds=None), 4),
    ("individual, a design", header(entrants="individuals", system="individual", scoring="dtm"), 8),
    ("individual, matching", header(entrants="individuals", system="individual", scoring="dtm"), 10),
]


@pytest.mark.parametrize(("name", "head", "n"), HEADERS, ids=[h[0] for h in HEADERS])
def test_each_systems_explanation_is_the_cores_in_english_and_german_in_german(name, head, n):
    explanation = propose(fold({"header": head, "events": register(n, head["entrants"])})).explanation
    with translation.override("en"):
        assert explanation_words.constraints(explanation) == explanation["constraints"]
        method = explanation_words.method(explanation)
    if explanation["system"] == "swiss":  # the core also names its library
        assert explanation["method"].startswith(method)
    else:
        assert method == explanation["method"]
    with translation.override("de"):
        said = [explanation_words.method(explanation), *explanation_words.constraints(explanation)]
    assert not set(said) & {explanation["method"], *explanation["constraints"]}, said


def test_a_large_swiss_says_its_window():
    record = tournament(40, 3, played=1)
    explanation = propose(fold(record)).explanation
    with translation.override("de"):
        said = explanation_words.method(explanation)
    assert explanation["window"] and f"höchstens {explanation['window']} Plätze" in said, said


def test_an_explanation_without_the_numbers_keeps_its_words():
    old = {"system": "swiss", "method": "as stored", "constraints": ["kept"]}
    assert explanation_words.method(old) == "as stored"
    assert explanation_words.method({"system": "other", "method": "x", "constraints": ["y"]}) == "x"
    assert explanation_words.constraints({"system": "other", "constraints": ["y"]}) == ["y"]
