"""The house rules in the players' languages: the presets' names and descriptions, each option's
label, help line and choices, from the engine's catalogue (``catalogue/<lang>/LC_MESSAGES/engine.po``).

English is written beside each option (``options.py``, ``family.py``, ``tien_zi_que/options.py``);
the catalogue's keys (``msgctxt``) are ``preset:<name>`` and ``preset_help:<name>``,
``option:<name>``, ``option_help:<name>`` and ``option_choice:<name>:<value>``. Games that share an
option's name but word it differently (``hands``, ``shuffler``) share its key: gettext tells them
apart by their English text (``msgid``). Pages take these, never a copy of their own.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from typing import Any

from .options import Choice, Option, Preset
from .registry import PRESETS, game_info, games
from .wording import DEFAULT_LANGUAGE, catalogue, language


def _value_key(value: Any) -> str:
    """A choice's value as its key says it: ``false``, ``2``, ``partner_grand``."""
    return value if isinstance(value, str) else json.dumps(value)


def _option_texts(o: Option) -> list[tuple[str, str]]:
    return [(f"option:{o.name}", o.label), (f"option_help:{o.name}", o.help)] + [
        (f"option_choice:{o.name}:{_value_key(c.value)}", c.label) for c in o.kind.choices
    ]


def option_entries() -> list[tuple[str, str]]:
    """Every (msgctxt, msgid) of the house rules' words, each once: the presets, then every game's options."""
    entries = [e for p in PRESETS for e in ((f"preset:{p.name}", p.label), (f"preset_help:{p.name}", p.description))]
    for info in games():
        entries += [e for o in info.options for e in _option_texts(o)]
    return list(dict.fromkeys(entries))


@lru_cache(maxsize=None)
def preset_words(lang: str | None = DEFAULT_LANGUAGE) -> tuple[Preset, ...]:
    """The presets (``rio``, ``tiki``, ``abacus``) with their label and description in ``lang``
    (``Édition TIKI``); English for any other language."""
    t = catalogue(language(lang))
    return tuple(
        Preset(p.name, t.pgettext(f"preset:{p.name}", p.label), t.pgettext(f"preset_help:{p.name}", p.description))
        for p in PRESETS
    )


@lru_cache(maxsize=None)
def option_words(variant: str, lang: str | None = DEFAULT_LANGUAGE) -> tuple[Option, ...]:
    """``variant``'s options (``game_info(variant).options``, same order, same kinds and defaults)
    with their label, help line and choices' labels in ``lang``."""
    t = catalogue(language(lang))

    def said(o: Option) -> Option:
        choices = tuple(
            Choice(c.value, t.pgettext(f"option_choice:{o.name}:{_value_key(c.value)}", c.label))
            for c in o.kind.choices
        )
        return dataclasses.replace(
            o,
            label=t.pgettext(f"option:{o.name}", o.label),
            help=t.pgettext(f"option_help:{o.name}", o.help),
            kind=dataclasses.replace(o.kind, choices=choices),
        )

    return tuple(said(o) for o in game_info(variant).options)
