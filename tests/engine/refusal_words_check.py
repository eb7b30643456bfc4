"""The check both refusal-words tests share (tests/engine/test_family_refusal_words.py for the
Tichu family, test_tzq_refusal_words.py for Tien Zi Que): a refusal is said from its template in
English and in every other language, and no translation keeps a run of the English template's
own words. Each test brings its templates, its players' names and the words a translation keeps
as they are (option names, the games' proper names)."""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from games import engine
from games.engine import EngineError

OTHER_LANGUAGES = [lang for lang in engine.LANGUAGES if lang != "en"]


def english_runs(text: str, kept: re.Pattern[str]) -> set[tuple[str, ...]]:
    """The runs of three words of a template's own text (not its slots nor the kept names)."""
    tokens = [t.lower() for t in re.findall(r"[A-Za-z]{2,}", kept.sub(" ", text))]
    return {tuple(tokens[i : i + 3]) for i in range(len(tokens) - 2)}


def words_problems(
    error: EngineError, key: str, templates: Mapping[str, str], names: Sequence[str], kept: re.Pattern[str]
) -> list[str]:
    """What is wrong with a refusal's words (empty: it is said in every language, no English left
    in the other languages). ``key`` is the template's key (``code`` or ``code:rule``)."""
    said = error.as_dict()
    if key not in templates:
        return [f"no template for {key}: {error.message}"]
    english = engine.refusal_words(said, names)
    if not english:
        return [f"{key}: the English template lacks a parameter ({error.params}): {error.message}"]
    problems = []
    for lang in OTHER_LANGUAGES:
        translated = engine.refusal_words(said, names, lang)
        if not translated or translated == english:
            problems.append(f"{key} in {lang}: {translated!r}")
        elif english_runs(engine.words(lang).refusals[key], kept) & english_runs(templates[key], kept):
            problems.append(f"{key} in {lang} keeps English words: {translated!r}")
    return problems
