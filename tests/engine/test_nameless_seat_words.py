"""A seat the engine has no name for (``names=[]``: a refusal before the game has players, a
page's script without a name for the seat) reads as a natural part of each sentence (loose
follow-up 1): French says ``la place 1`` (``c'est à la place 2 de jouer``, was ``c'est à place
2``), Ukrainian ``гравець на місці 1`` where every template names a seat in the nominative (was
``хід гравця місце 1``), German ``Platz 1`` with no case to agree (``gibt ... an Platz 1``). The
pages' script (``static/shared/cards.js``) reads the same term from the words the pages embed
(``engine.page_words``) and says the same sentences."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games import engine
from games.engine import wording

ROOT = Path(__file__).resolve().parents[2]

#: refusals that name two seats, and what each language says with no names
CASES = [
    (
        {"code": "not_your_turn", "params": {"seat": 1, "expected_seat": 2}},
        {
            "fr": "c'est à la place 2 de jouer, pas à la place 1",
            "de": "Platz 2 ist am Zug, nicht Platz 1",
            "uk": "зараз ходить гравець на місці 2, а не гравець на місці 1",
        },
    ),
    (
        {"code": "push_invalid", "params": {"rule": "push_count", "seat": 0, "to": 1, "expected": 3, "given": 2}},
        {
            "fr": "la place 0 donne exactement 3 cartes à la place 1, pas 2",
            "de": "Platz 0 gibt genau 3 Karten an Platz 1, nicht 2",
            "uk": "гравець на місці 0 віддає рівно 3 карти (отримує гравець на місці 1), а не 2",
        },
    ),
    (
        {"code": "gift_invalid", "params": {"rule": "not_opponent", "seat": 0, "to": 2}},
        {
            "fr": "le pli du Dragon va à un adversaire, et la place 2 n'est pas adversaire de la place 0",
            "de": "der Drachen-Stich geht an einen Gegner; Platz 2 ist kein Gegner von Platz 0",
            "uk": "взятка з драконом дістається супернику; гравець на місці 2 і гравець на місці 0 — не суперники",
        },
    ),
    (
        {"code": "card_not_in_hand", "params": {"seat": 3, "cards": ["Kj"]}},
        {
            "fr": "la place 3 n'a pas {kj}",
            "de": "Platz 3 hat {kj} nicht",
            "uk": "гравець на місці 3 не має цих карт: {kj}",
        },
    ),
]


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
@pytest.mark.parametrize("error, said", CASES, ids=[c[0]["params"].get("rule", c[0]["code"]) for c in CASES])
def test_a_refusal_without_names_reads_naturally(error, said, lang):
    text = engine.refusal_words({**error, "message": "(English)"}, [], lang)
    assert text == said[lang].replace("{kj}", engine.card_names(["Kj"], lang))


def _every_name_slot(lang: str):
    """(key, template) of every sentence, refusal and term of ``lang`` that names a seat."""
    w = engine.words(lang)
    for table in (w.events, w.refusals, w.terms):
        for key, template in table.items():
            if "{name:" in template:
                yield key, template


def test_ukrainian_names_every_seat_in_the_nominative():
    """Ukrainian's nameless seat is a nominative phrase (``гравець на місці 1``): no template puts
    a seat's name after a noun or preposition that would want it in another case (``хід гравця
    {name}``, ``гравцеві {name}``, ``у гравця {name}``), nor after ``гравець`` (it would be said
    twice)."""
    assert engine.words("uk").terms["seat"] == "гравець на місці {number:seat}"
    other_case = re.compile(r"(?:гравц\w*|гравець|\bу|\bдо|\bдля|\bвід|\bпартнер\w*)\s+\{name:")
    assert [key for key, template in _every_name_slot("uk") if other_case.search(template)] == []


def test_french_never_says_a_place_without_its_article_nor_agrees_with_it_wrongly():
    assert engine.words("fr").terms["seat"] == "la place {number:seat}"
    for key, template in _every_name_slot("fr"):
        sample = {p: (["Kj"] if p in ("cards", "top", "expected", "hand") else 1) for p in wording.slots(template)}
        if "{gifts:cards}" in template:
            sample["cards"] = {"2": ["Kj"]}
        text = wording.fill(template, sample, [], "fr") or ""
        assert "place" in text, (key, text)
        assert not re.search(r"\b(?:à|de|par) place \d", text), (key, text)
        assert not re.search(r"la place \d+ (?:est|n'est) (?:sorti|seul)\b", text), (key, text)


def test_german_gives_a_seat_with_a_preposition_not_a_bare_dative():
    """``Platz 1`` has no article, so it takes no case ending; a bare dative (``gibt Platz 1
    genau 3 Karten``, ``fehlen Platz 1 Karten``) reads as a slip: say it with ``an`` or ``von``."""
    bare_dative = re.compile(r"\{name:\w+\} \{name:\w+\}|fehlen \{name:")
    assert [key for key, template in _every_name_slot("de") if bare_dative.search(template)] == []


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_the_pages_script_says_a_nameless_seat_as_the_engine_does(tmp_path, lang):
    """cards.js (makeWords, with the words the entry and replay pages embed) fills a refusal and an
    event for a seat it has no name for exactly as engine.refusal_words / event_words do."""
    for name in ("cards.js", "i18n.js"):
        shutil.copy(ROOT / "replay" / "static" / "shared" / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    errors = [{**error, "message": "(English)"} for error, _said in CASES]
    events = [{"type": "pass", "seat": 2}, {"type": "dragon_gift", "seat": 0, "to": 1}]
    (tmp_path / "input.json").write_text(
        json.dumps({"words": engine.page_words(lang), "errors": errors, "events": events})
    )
    (tmp_path / "run.js").write_text(
        "globalThis.window = {};\n"
        "const { readFileSync } = await import('node:fs');\n"
        "const { makeWords } = await import('./cards.js');\n"
        "const input = JSON.parse(readFileSync(new URL('./input.json', import.meta.url), 'utf8'));\n"
        "const W = makeWords(input.words, () => undefined);\n"
        "console.log(JSON.stringify({refusals: input.errors.map(W.refusal), events: input.events.map(W.describe)}));\n"
    )
    out = subprocess.run(["node", str(tmp_path / "run.js")], capture_output=True, text=True, timeout=60, check=True)
    said = json.loads(out.stdout)
    assert said["refusals"] == [engine.refusal_words(e, [], lang) for e in errors]
    assert said["events"] == [engine.event_words(e, [], lang=lang) for e in events]
    seat_words = engine.words(lang).terms["seat"].replace("{number:seat}", "2")
    assert seat_words in said["refusals"][0] and seat_words in said["events"][0]
