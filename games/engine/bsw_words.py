"""The BSW reader's reasons in words (English): why a line could not be read (``BSWFormatError``'s
``rule`` and ``params``) and what a lax import did with the hand (a note's ``rule`` and ``params``:
bsw_reader's repairs and skips, bsw_check.settle_refused_hands'), as templates the engine's
catalogue says in French, German and Ukrainian (``reader:<rule>`` and ``mended:<rule>``). The
English ``message`` and a note's ``reason`` stay as they were; these are the same sentences, so a
club's import report reads in its page's language. ``{number:x}`` says a value as it is (a line of
the log, a card code as BSW writes it, a seat number)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .wording import DEFAULT_LANGUAGE, catalogue, fill, language, refusal_heading, refusal_words

#: a line the reader cannot read, by ``BSWFormatError.rule`` (its ``params`` fill the slots)
READER_WORDS: dict[str, str] = {
    "unknown_card": "unknown BSW card code {number:code}",
    "unknown_wish": "unknown wish {number:wish}",
    "no_phoenix_reading": "no Phoenix reading for {number:cards}",
    "play_line": "unexpected line in the play: {number:text}",
    "block_line": "expected '(seat)handle' and {number:count} cards",
    "four_seats": "the Gr.Tichukarten block must list four seats",
    "calls_line": "unexpected line before Schupfen: {number:text}",
    "push_end": "a push line ends with ' - '",
    "push_three": "a push line gives three cards",
    "exchange_line": "unexpected line in the exchange: {number:text}",
    "eight_cards": "a hand needs the 8 cards of all four seats",
    "fourteen_cards": "a hand needs the 14 cards of all four seats",
    "six_more": "seat {number:seat}: the 14 cards are not its first 8 and 6 more",
    "wish_without_mahjong": "Wunsch without a Mahjong play before it",
    "grand_tichu_in_play": "Grosses Tichu during play",
    "gift_without_dragon": "Drache an without a Dragon trick",
    "outside_line": "unexpected line outside a hand: {number:text}",
    "log_ends": "the log ends before the four seats of its first hand",
    "seat_order": "the first block must list seats 0..3 in order",
}

#: what a lax import did with a hand, by the note's ``rule``: ``{number:cause}`` is the reader's
#: reason (READER_WORDS), ``{number:refusal}`` the engine's refusal (its heading and its words)
MENDED_WORDS: dict[str, str] = {
    "repaired:handle": "seat {number:seat} is printed without its handle: taken as {number:name}",
    "kept": "{number:cause}; the hand is a hand_result from its calls and Ergebnis",
    "skipped:log_stops": "{number:cause}; left out (the log stops in it)",
    "skipped:no_order": "{number:cause}; left out (its Ergebnis fits no finishing order)",
    "kept:refused": "the engine refused event {number:index} ({number:refusal})",
    "skipped:refused": "the engine refused event {number:index} ({number:refusal})",
}

#: a note's ``action`` (the first part of its rule) and the line a report shows for a note
ACTION_WORDS: dict[str, str] = {
    "repaired": "repaired",
    "kept": "kept as its score-sheet line",
    "skipped": "skipped",
    "line": "game {number:game}, hand {number:hand}, line {number:line}: {number:action}: {number:reason}",
    "refusal": "{number:heading}: {number:words}",
    "heading": "Hands repaired, kept as their score-sheet line or skipped",
}


_ACTIONS = ("repaired", "kept", "skipped")


def catalogue_entries() -> list[tuple[str, str]]:
    """The (msgctxt, msgid) of every text here, for the engine's catalogue."""
    return (
        [(f"reader:{k}", v) for k, v in READER_WORDS.items()]
        + [(f"mended:{k}", v) for k, v in MENDED_WORDS.items()]
        + [(f"mended_action:{k}", v) for k, v in ACTION_WORDS.items()]
    )


def _said(ctx: str, text: str, lang: str) -> str:
    return catalogue(language(lang)).pgettext(ctx, text)


def reader_words(rule: str, params: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str | None:
    """A reader's error (``BSWFormatError.rule`` and ``params``) in ``lang``; None for a rule
    without a template or a parameter missing."""
    template = READER_WORDS.get(str(rule))
    return fill(_said(f"reader:{rule}", template, lang), params, (), lang) if template else None


def _refusal(refusal: Mapping[str, Any], names: Sequence[str], lang: str) -> str | None:
    code = str(refusal.get("code"))
    said = refusal_words(refusal, names, lang)
    if said is None:
        return None
    params = {"heading": refusal_heading(code, lang), "words": said}
    return fill(_said("mended_action:refusal", ACTION_WORDS["refusal"], lang), params, (), lang)


def mended_words(note: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str | None:
    """Why a hand was repaired, kept as its score-sheet line or skipped (a lax import's note) in
    ``lang``, from its ``rule`` and ``params``; None for a note without them (a report stored
    before they were kept: say its English ``reason``) or a parameter missing."""
    rule, params = note.get("rule"), dict(note.get("params") or {})
    template = MENDED_WORDS.get(str(rule))
    if template is None:
        return None
    cause = params.get("cause")
    if isinstance(cause, Mapping):
        params["cause"] = reader_words(str(cause.get("rule")), cause.get("params") or {}, lang)
    refusal = params.get("refusal")
    if isinstance(refusal, Mapping):
        params["refusal"] = _refusal(refusal, list(params.get("players") or ()), lang)
    return fill(_said(f"mended:{rule}", template, lang), params, (), lang)


def action_words(note: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """A note's action in ``lang`` (``repaired``, ``kept as its score-sheet line``, ``skipped``)."""
    action = str(note.get("rule") or "").split(":")[0]
    if action not in _ACTIONS:  # a note stored before its rule was: by its English action
        action = next((k for k in _ACTIONS if ACTION_WORDS[k] == note.get("action")), "")
    if not action:
        return str(note.get("action", ""))
    return _said(f"mended_action:{action}", ACTION_WORDS[action], lang)


def report_heading(lang: str = DEFAULT_LANGUAGE) -> str:
    """The heading of a report's notes in ``lang``."""
    return _said("mended_action:heading", ACTION_WORDS["heading"], lang)


def note_line(note: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """A report's line for a note: game, hand, the log's line, the action and the reason, in
    ``lang`` (the English ``reason`` for a note stored without its rule)."""
    reason = mended_words(note, lang) or str(note.get("reason", ""))
    params = {"game": note.get("game", 1), "hand": note.get("hand"), "line": note.get("line") or "?",
              "action": action_words(note, lang), "reason": reason}  # fmt: skip
    return fill(_said("mended_action:line", ACTION_WORDS["line"], lang), params, (), lang) or reason
