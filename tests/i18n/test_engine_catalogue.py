"""The engine's own catalogue (games/engine/catalogue/<lang>/LC_MESSAGES/engine.po, docs/engine-api.md
"Words in the players' languages"): every English text of games/engine/wording.py translated in
French, German and Ukrainian, nothing fuzzy or obsolete, every translation keeping the parameters
of its source's ``{kind:param}`` slots (and only slots of known kinds), the compiled .mo files equal
to the .po files, and the engine saying the translations."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from games import engine

LANGUAGES = [lang for lang in engine.LANGUAGES if lang != "en"]
SLOT = re.compile(r"\{(\w+):(\w+)\}")


def po_file(lang: str) -> polib.POFile:
    return polib.pofile(str(Path(engine.CATALOGUE_DIR) / lang / "LC_MESSAGES" / "engine.po"))


def slot_params(text: str) -> set[str]:
    return {param for _kind, param in SLOT.findall(text)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_engine_text_is_translated_and_none_is_fuzzy(lang):
    po = po_file(lang)
    assert [e.msgctxt for e in po.untranslated_entries()] == []
    assert [e.msgctxt for e in po.fuzzy_entries()] == []
    assert [e.msgctxt for e in po.obsolete_entries()] == []
    # exactly the engine's texts: a new English template without its translation fails here
    assert {(e.msgctxt, e.msgid) for e in po} == set(engine.catalogue_entries())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_engine_translation_keeps_the_slots_of_its_source(lang):
    wrong = []
    for entry in po_file(lang).translated_entries():
        kinds = {kind for kind, _param in SLOT.findall(entry.msgstr)}
        stray = SLOT.sub("", entry.msgstr)
        if slot_params(entry.msgstr) != slot_params(entry.msgid) or not kinds <= set(engine.SLOT_KINDS):
            wrong.append((entry.msgctxt, entry.msgstr))
        elif "{" in stray or "}" in stray:  # a broken slot ("{name seat}") would be said as it is
            wrong.append((entry.msgctxt, entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_engine_catalogue_is_the_current_po_file(lang):
    """The .mo files are committed (the engine reads them with the standard library's gettext);
    recompile with ``msgfmt -o engine.mo engine.po`` after editing a .po file."""
    mo = polib.mofile(str(Path(engine.CATALOGUE_DIR) / lang / "LC_MESSAGES" / "engine.mo"))
    compiled = {(e.msgctxt, e.msgid): e.msgstr for e in mo if e.msgid}
    assert compiled == {(e.msgctxt, e.msgid): e.msgstr for e in po_file(lang).translated_entries()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engine_says_its_catalogue(lang):
    said = engine.words(lang)
    po = {e.msgctxt: e.msgstr for e in po_file(lang)}
    assert said.events["play"] == po["sentence:play"]
    assert said.refusals["not_your_turn"] == po["refusal:not_your_turn"]
    assert said.terms["special:Dog"] == po["special:Dog"] != "Dog"
    assert engine.event_words({"type": "pass", "seat": 1}, ["Ann", "Bob"], lang=lang) == (
        po["sentence:pass"].replace("{name:seat}", "Bob")
    )
    assert engine.words(f"{lang}-XX").lang == lang  # a request's regional language
    assert engine.words("pt").lang == "en"
