"""The language catalogues (locale/, README "Languages") are complete and current: every marked
string translated in French, German and Ukrainian, nothing fuzzy, the placeholders of each
translation those of its source, the compiled .mo files equal to the .po files, and the .po files
listing exactly the strings the code and templates mark today."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def catalogue(lang: str, domain: str) -> polib.POFile:
    return polib.pofile(str(REPO / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_is_translated_and_none_is_fuzzy(lang, domain):
    po = catalogue(lang, domain)
    assert len(po) > 0
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert [e.msgid for e in po.obsolete_entries()] == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_source(lang, domain):
    wrong = []
    for entry in catalogue(lang, domain).translated_entries():
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wrong += [(entry.msgid, t) for t in translations if placeholders(t) != wanted]
    assert wrong == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_gettext_accepts_the_catalogue(lang, domain):
    """`msgfmt --check-format` (what compilemessages runs) passes: the python-format placeholders,
    and as many plural forms as the header's Plural-Forms says (Django's Ukrainian rule has four,
    the fourth for fractions). Needs gettext's msgfmt (.ci/run installs it)."""
    assert shutil.which("msgfmt"), "gettext's msgfmt is needed (apt install gettext)"
    po = REPO / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    run = subprocess.run(["msgfmt", "--check-format", "--check-header", "-o", "/dev/null", str(po)],
                         capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_is_the_current_po_file(lang, domain):
    """The .mo files are committed (`make run` needs no gettext); recompile with
    `manage.py compilemessages` after editing a .po file."""
    mo = polib.mofile(str(REPO / "locale" / lang / "LC_MESSAGES" / f"{domain}.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in mo if e.msgid}
    source = {(e.msgctxt, e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
              for e in catalogue(lang, domain).translated_entries()}  # fmt: skip
    assert compiled == source


def test_the_catalogues_list_exactly_the_strings_marked_in_the_code(tmp_path):
    """makemessages over a copy of the sources, for the templates and Python (django) and for the
    page scripts (djangojs: gettext, ngettext, pgettext in replay/static/**/*.js): a string marked
    but not in the catalogue (or one in the catalogue that nothing marks any more) fails here.
    Needs gettext's xgettext (.ci/run installs it)."""
    assert shutil.which("xgettext"), "gettext's xgettext is needed (apt install gettext)"
    for name in ("games", "replay", "templates", "tichu_site", "locale", "manage.py"):
        source = REPO / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "--no-location", "--no-obsolete", "-v", "0",
             *[arg for lang in LANGUAGES for arg in ("-l", lang)]],
            cwd=tmp_path, check=True, capture_output=True,
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "tichu_site.settings", "PYTHONPATH": str(tmp_path)},
        )  # fmt: skip
        for lang in LANGUAGES:
            fresh = polib.pofile(str(tmp_path / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))
            assert {(e.msgctxt, e.msgid) for e in fresh} == {(e.msgctxt, e.msgid) for e in catalogue(lang, domain)}, (
                lang,
                domain,
            )


def test_the_scripts_mark_their_strings_through_the_catalogue_functions():
    """The page scripts' words go through gettext/ngettext/pgettext (static/shared/i18n.js), which
    makemessages reads; the old ``t("...")`` helper, which it does not read, is gone."""
    old = [str(p.relative_to(REPO)) for p in (REPO / "replay" / "static").rglob("*.js")
           if re.search(r'\bt\("', p.read_text(encoding="utf-8"))]  # fmt: skip
    assert old == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_string_in_both_catalogues_is_translated_alike(lang):
    """A replay or entry page is drawn first by its template (django.po) and then redrawn by its
    script (djangojs.po): a string both say ("Hand by hand", "double victory") reads the same."""
    server = {
        (e.msgctxt, e.msgid): e.msgstr for e in catalogue(lang, "django").translated_entries() if not e.msgid_plural
    }
    differ = [(e.msgid, server[e.msgctxt, e.msgid], e.msgstr) for e in catalogue(lang, "djangojs").translated_entries()
              if server.get((e.msgctxt, e.msgid), e.msgstr) != e.msgstr]  # fmt: skip
    assert differ == []


#: The wish in each language's word (docs/glossary.md, "the wish"; its stem, for the cases):
#: French vœu, German Wunsch/wünscht, Ukrainian вимога/вимоги/вимогу.
WISH = {"fr": "vœu", "de": "wünsch", "uk": "вимог"}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_wish_is_called_by_the_glossarys_word(lang, domain):
    """Both catalogues say the glossary's word for the Mahjong's wish (the French pages once said
    "Souhait", the Ukrainian "Бажання", where the books say vœu and вимога)."""
    stem = WISH[lang]
    wrong = [(e.msgid, e.msgstr) for e in catalogue(lang, domain).translated_entries()
             if re.search(r"\bwish", e.msgid, re.I) and not e.msgid_plural
             and stem not in e.msgstr.lower().replace("wunsch", "wünsch")]  # fmt: skip
    assert wrong == []
