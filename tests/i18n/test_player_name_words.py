"""Sentences that name a player read right whatever the player's grammatical gender (issue 38 item 2).

French, German and Ukrainian put a player's name into a sentence as it is; a past participle, an
ordinal or a noun that agrees with the subject ("Оля оголосив", "Marie — sorti nº 1", "ist als
Erster raus", "der Spieler „Anna“") is then wrong for one of the two sexes. The catalogues use forms
that need no agreement instead ("Оля: оголошено мале Тічу", "sortie nº 1", "war zuerst raus").

Every sentence with a player's slot is rendered here from the compiled catalogues (the site's
``django`` and ``djangojs`` .mo files and the engine's ``engine.mo``), with a woman's and with a
man's name, together with the badges and labels the pages print beside a name; each rendering
must carry the name and none of the words a reviewer would look at for agreement. A form that is
right for every name by spelling both genders ("створив(-ла)") is accepted."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.engine import wording

REPO = Path(__file__).resolve().parents[2]
LOCALE = REPO / "locale"
ENGINE_CATALOGUE = Path(wording.CATALOGUE_DIR)

NAMES = {"fr": ("Anne", "Bruno"), "de": ("Anna", "Ben"), "uk": ("Оля", "Олег")}

# The site's slots that hold a player's (or a member's) name.
PLAYER_SLOTS = {"name", "winner", "giver", "taker", "receiver", "player", "user", "names"}
SITE_SLOT = re.compile(r"%\((\w+)\)[sd]")
ENGINE_NAME_SLOT = re.compile(r"\{name:\w+\}")
ENGINE_SLOT = re.compile(r"\{\w+:\w+\}")

# Printed beside a player's name without a slot (badges on a seat, tooltips, lists of seats).
BESIDE_A_NAME = {
    "out #1",
    "out #%(rank)s",
    "out %(rank)s",
    "went out first (#2 second, ...)",
    "1st out",
    "called Tichu",
    "called Grand Tichu",
    "shuffled this hand",
    "won a trick with the Dragon and must give it away",
    "Missed wish by",
    "Mah-jong by",
    "%(n)s more game until ranked",
}

# Words that agree with the sex of the person they are said of. Ukrainian: past tenses (masculine
# -в/-вся, feminine -ла/-лася) and the nouns гравець/гравчиня standing as the name's title;
# French: participles and ordinals said of a person, pronouns, "le joueur"; German: the ordinals
# and nouns said of a person in the masculine, and the personal pronouns of the third person.
GENDERED = {
    "uk": re.compile(
        r"(?<![\w'’-])(?:[а-яіїєґ'’]+(?:ив|ав|ов|ув|їв|ів|ла|лася|вся)|гравець|гравця|гравцеві|гравчиня|"
        r"який|яка|першим|першою|другим|другою)(?![\w'’(-])",
        re.IGNORECASE,
    ),
    "fr": re.compile(
        r"\b(?:sorti|sortis|premier|première|deuxième|dernier|dernière|seul|seule|il|elle|lui|"
        r"invité|invitée|classé|classée|le joueur|la joueuse|gagnant|gagnante|prêt|prête)\b(?! joueur)",
        re.IGNORECASE,
    ),
    "de": re.compile(
        r"\b(?:Erster|Erste|Zweiter|Zweite|Letzter|Letzte|der Spieler|die Spielerin|Spieler|Spielerin|"
        r"Gewinner|Gewinnerin|Ansager|er|ihm|ihn|seine|seinen|seinem|seiner)\b"
    ),
}
# Nouns and numerals that look like Ukrainian past tenses (genitive plurals in -ів, -ов) but are
# said of things, never of the named player.
UK_NOT_A_VERB = {
    "гравців",
    "раундів",
    "турів",
    "очків",
    "днів",
    "столів",
    "учасників",
    "символів",
    "рівнів",
    "байтів",
    "суперників",
    "партнерів",
    "записів",
    "рядків",
    "клубів",
    "ходів",
    "місць",
    "разів",
    "рахівників",
    "членів",
    "ролів",
    "варіантів",
    "пунктів",
    "взятків",
    "бомб",
    "підсумків",
}


# Where one of those words is said of something else than the named player: the invariable "en
# premier", a card ("sa première carte"), a rated game ("partie classée"), the impersonal "il faut", the Stich a pronoun stands for,
# every player in general ("jeder Spieler", "кожен гравець"), a card that is left, and the
# Ukrainian "той, хто …" / "партнерові, який …", whose verb agrees with the generic pronoun or
# noun before it, not with a name.
NOT_OF_THE_PLAYER = {
    "fr": re.compile(
        r"\ben (?:premier|deuxième)\b|\bpremière carte\b|\bil (?:faut|n'y)\b|\bseule une bombe\b|\bparties? classées?\b"
    ),
    "de": re.compile(r"\b(?:jeder|der erste|die beiden|beiden) Spieler\b|(?:Stich|Wunsch)\b[^;:]*?\bihn\b"),
    "uk": re.compile(
        r"\b(?:перший|кожен|кожному|кожного) гравець\w*|хто[^,;:]*|(?:партнерові|супернику), який"
        r"|залишил\w+ \d+ карт\w*"
    ),
}


def _person_text(lang: str, text: str) -> list[str]:
    words = []
    text = NOT_OF_THE_PLAYER[lang].sub(" ", text)
    for match in GENDERED[lang].finditer(text):
        word = match.group(0)
        if lang == "uk" and word.lower() in UK_NOT_A_VERB:
            continue
        words.append(word)
    return words


class _Slots(dict):
    """%-format mapping: a player's slot gets the name, any other slot a number."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __missing__(self, key: str):
        return self.name if key in PLAYER_SLOTS else 3


def _site_entries(domain: str):
    po = polib.pofile(str(LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po"))
    for entry in po:
        slots = set(SITE_SLOT.findall(entry.msgid))
        if slots & PLAYER_SLOTS or entry.msgid in BESIDE_A_NAME:
            yield entry.msgctxt, entry.msgid, entry.msgid_plural


def _engine_entries():
    po = polib.pofile(str(ENGINE_CATALOGUE / "fr" / "LC_MESSAGES" / "engine.po"))
    for entry in po:
        if ENGINE_NAME_SLOT.search(entry.msgid):
            yield entry.msgctxt, entry.msgid


def _site_renderings(lang: str, name: str) -> list[tuple[str, str]]:
    """Every site sentence naming a player, rendered with ``name`` from the compiled catalogues."""
    out = []
    with translation.override(lang):
        for ctx, msgid, plural in _site_entries("django"):
            for n in (1, 2, 5) if plural else (None,):
                if plural:
                    text = (
                        translation.npgettext(ctx, msgid, plural, n) if ctx else translation.ngettext(msgid, plural, n)
                    )
                else:
                    text = translation.pgettext(ctx, msgid) if ctx else translation.gettext(msgid)
                slots = _Slots(name)
                slots["n"] = slots["count"] = n or 3
                text = text % slots if SITE_SLOT.search(text) else text
                out.append((msgid, f"{name} — {text}" if msgid in BESIDE_A_NAME else text))
    scripts = gettext.translation("djangojs", localedir=str(LOCALE), languages=[lang])
    for ctx, msgid, plural in _site_entries("djangojs"):
        for n in (1, 2, 5) if plural else (None,):
            if plural:
                text = scripts.npgettext(ctx, msgid, plural, n) if ctx else scripts.ngettext(msgid, plural, n)
            else:
                text = scripts.pgettext(ctx, msgid) if ctx else scripts.gettext(msgid)
            slots = _Slots(name)
            slots["n"] = slots["count"] = n or 3
            text = text % slots if SITE_SLOT.search(text) else text
            out.append((msgid, f"{name} — {text}" if msgid in BESIDE_A_NAME else text))
    return out


def _engine_renderings(lang: str, name: str) -> list[tuple[str, str]]:
    engine_words = gettext.translation("engine", localedir=str(ENGINE_CATALOGUE), languages=[lang])
    out = []
    for ctx, msgid in _engine_entries():
        text = engine_words.pgettext(ctx, msgid)
        text = ENGINE_NAME_SLOT.sub(name, text)
        out.append((ctx, ENGINE_SLOT.sub("3", text)))
    return out


def test_the_words_checked_are_found_where_they_would_be_wrong():
    """The check sees the defects the review found (a test that could not fail would prove nothing)."""
    assert _person_text("uk", "Оля оголосив малий Тічу") == ["оголосив"]
    assert _person_text("uk", "взятку з драконом віддає Оля, який її виграв") == ["який", "виграв"]
    assert _person_text("uk", "Оля: оголошено мале Тічу; створив(-ла) клуб; 12 гравців") == []
    assert _person_text("fr", "Marie — sorti nº 1") == ["sorti"]
    assert _person_text("fr", "Marie — sortie nº 1; le premier joueur change") == []
    assert _person_text("de", "Anna ist als Erster raus") == ["Erster"]
    assert _person_text("de", "Anna war zuerst raus") == []


@pytest.mark.parametrize("lang", sorted(NAMES))
def test_every_sentence_naming_a_player_needs_no_agreement_with_the_name(lang):
    woman, man = NAMES[lang]
    wrong = []
    for render in (_site_renderings, _engine_renderings):
        with_woman, with_man = render(lang, woman), render(lang, man)
        assert len(with_woman) == len(with_man) > 10
        for (key, her), (_key, his) in zip(with_woman, with_man):
            assert woman in her and man in his, (key, her)
            # the same sentence apart from the name: nothing in it changes with the sex
            assert her.replace(woman, "{}") == his.replace(man, "{}"), key
            words = _person_text(lang, her)
            if words:
                wrong.append((key, her, words))
    assert wrong == []
