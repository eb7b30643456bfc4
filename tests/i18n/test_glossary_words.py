"""One word per concept per language, read from docs/glossary.md (issue 38 item 3).

The glossary's table "One word per concept" is the one home of the words: for each concept its
word in French, German and Ukrainian with its source, and the words a catalogue must not use for
it. This test parses that table and reads every translation of the three catalogues (the site's
``django.po`` and ``djangojs.po``, the engine's ``engine.po``): a "not" word fails everywhere, a
``~word`` only in the entries whose English names this concept alone. It also fails when a
catalogue mixes formal and informal address (French tu/vous, German du/Sie, Ukrainian ти/ви)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest

REPO = Path(__file__).resolve().parents[2]
GLOSSARY = REPO / "docs" / "glossary.md"
LANGUAGES = ("fr", "de", "uk")
CATALOGUES = (
    "locale/{lang}/LC_MESSAGES/django.po",
    "locale/{lang}/LC_MESSAGES/djangojs.po",
    "games/engine/catalogue/{lang}/LC_MESSAGES/engine.po",
)
HEADING = "## One word per concept"
INFORMAL = {
    "fr": r"tu|toi|ton|ta|tes",
    "de": r"du|dich|dir|dein\w*|nenne|gib|exportiere",
    "uk": r"ти|тебе|тобі|твій|твоя|твоє|твої",
}


@dataclass(frozen=True)
class Concept:
    name: str
    english: re.Pattern
    word: dict[str, str]
    source: dict[str, str]
    never: dict[str, tuple[str, ...]]
    alone: dict[str, tuple[str, ...]]  # refused only where the English names this concept alone


def _cells(line: str) -> list[str]:
    """A markdown table row's cells; ``\\|`` is a pipe inside a cell."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [cell.strip().replace("\\|", "|") for cell in cells]


def glossary() -> list[Concept]:
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADING))
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            table.append(_cells(line))
        elif table:
            break
    header, _rule, *rows = table
    assert header == [
        "concept",
        "en",
        "fr",
        "fr source",
        "de",
        "de source",
        "uk",
        "uk source",
        "not fr",
        "not de",
        "not uk",
    ], header
    concepts = []
    for row in rows:
        cell = dict(zip(header, row))
        never, alone = {}, {}
        for lang in LANGUAGES:
            words = [w.strip() for w in cell[f"not {lang}"].split(",") if w.strip()]
            never[lang] = tuple(w for w in words if not w.startswith("~"))
            alone[lang] = tuple(w[1:] for w in words if w.startswith("~"))
        concepts.append(
            Concept(
                name=cell["concept"],
                english=re.compile(cell["en"].strip("`"), re.IGNORECASE),
                word={lang: cell[lang] for lang in LANGUAGES},
                source={lang: cell[f"{lang} source"] for lang in LANGUAGES},
                never=never,
                alone=alone,
            )
        )
    return concepts


def _word(word: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", re.IGNORECASE)


def translations(lang: str):
    """(file, msgctxt, msgid, each msgstr form) of every translated entry of ``lang``."""
    for path in CATALOGUES:
        for entry in polib.pofile(str(REPO / path.format(lang=lang))):
            forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
            for text in forms:
                if text:
                    yield Path(path).name, entry.msgctxt, entry.msgid, text


def test_the_glossary_gives_every_concept_a_word_and_a_source_in_each_language():
    concepts = glossary()
    names = {c.name for c in concepts}
    for needed in (
        "hand (one deal)",
        "game (a whole match)",
        "round of a tournament",
        "trick",
        "Threechu's dummy",
        "Tichu call",
        "Grand Tichu call",
        "single",
        "pair",
        "consecutive pairs",
        "three of a kind",
        "full house",
        "straight",
        "bomb",
        "four of a kind (bomb)",
        "straight flush (bomb)",
        "role: scorer",
        "role: admin",
        "role: viewer",
    ):
        assert needed in names
    for concept in concepts:
        for lang in LANGUAGES:
            assert concept.word[lang] and concept.source[lang], (concept.name, lang)
            assert concept.word[lang] not in concept.never[lang], (concept.name, lang)
            if lang == "de":
                assert "common usage" in concept.source[lang] or "BSW" in concept.source[lang], concept.name


def test_a_refused_word_is_found_by_the_check():
    """The check sees the review's defects (it would fail on the catalogues before issue 38)."""
    dummy = next(c for c in glossary() if c.name == "Threechu's dummy")
    assert any(_word(w).search("%(game)s (%(n)s гравці і «болван»)") for w in dummy.never["uk"])
    round_ = next(c for c in glossary() if c.name == "round of a tournament")
    assert any(_word(w).search("Durchgang 3 ist abgeschlossen") for w in round_.never["de"])
    hand = next(c for c in glossary() if c.name == "hand (one deal)")
    assert any(_word(w).search("Anzahl der Runden") for w in hand.alone["de"])
    assert re.search(rf"(?<![\w-])(?:{INFORMAL['de']})(?![\w-])", "nenne den Gewinner")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_uses_the_glossary_word_for_each_concept(lang):
    concepts = glossary()
    wrong = []
    for file, ctx, msgid, text in translations(lang):
        named = [c for c in concepts if c.english.search(msgid)]
        for concept in concepts:
            refused = list(concept.never[lang])
            if named and all(c.english.pattern == concept.english.pattern for c in named):
                refused += concept.alone[lang]
            for word in refused:
                if _word(word).search(text):
                    wrong.append((file, ctx, msgid[:60], concept.name, word, text[:100]))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_keeps_one_form_of_address(lang):
    informal = re.compile(rf"(?<![\w-])(?:{INFORMAL[lang]})(?![\w'’-])", re.IGNORECASE if lang != "de" else 0)
    found = [(file, msgid[:60], text[:100]) for file, _ctx, msgid, text in translations(lang) if informal.search(text)]
    assert found == []
