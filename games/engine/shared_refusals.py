"""The refusals every game shares, in words (English): the templates ``wording.REFUSAL_WORDS``
adds, keyed ``<code>:<rule>``. The shared schema's (``schema.py``: an event that is not an object,
an unknown type, a field of the wrong JSON type; for an event coming in, an unknown field or one
too long), the record's shape (``record.py``), the shared fold's (``event_fold.py``: a ``type``
that is not a string, no event to undo, the game over) and the options' (``options.py``: an
unknown preset or option, a value of the wrong kind). Each refusal carries its ``rule`` and the parameters its
template names; its English ``message`` stays as it was. ``{number:x}`` says a code as it is
(a field's or an option's JSON name); ``field_type:<key>`` terms say what a field holds."""

from __future__ import annotations

from .schema import CALLS, CARD, CARDS, HANDS, POINTS, PUSH, RANK, SEAT, SEATS, TEXT, WHOLE

SHARED_REFUSAL_WORDS: dict[str, str] = {
    "malformed:not_object": "an event must be an object",
    "malformed:type_not_string": "an event's 'type' must be a string",
    "malformed:unknown_type": "unknown event type {number:type}",
    "malformed:field_type": "{words:event}: '{number:field}' must be {words:field_type}",
    "wrong_phase:nothing_to_undo": "there is no event to undo",
    "malformed:options_not_object": "the options must be an object",
    "malformed:unknown_preset": "unknown preset {number:given}: the presets are {number:presets}",
    "malformed:unknown_option": "unknown option '{number:option}' for this game",
    "malformed:option_bool": "option '{number:option}' must be true or false",
    "malformed:option_int": "option '{number:option}' must be a whole number of at least {number:minimum}",
    "malformed:option_int_multiple": (
        "option '{number:option}' must be a multiple of {number:multiple_of}, at least {number:minimum}"
    ),
    "malformed:option_choice": "option '{number:option}' must be one of {number:choices}",
    "malformed:option_cards": "option '{number:option}' must be a list of card codes",
    # what may be stored (schema.check_strict: an event coming in)
    "malformed:unknown_fields": (
        "{words:event}: unknown field(s) {number:fields}; a {words:event} has {number:allowed} (record-format.md section 3)"
    ),
    "malformed:unknown_fields_none": (
        "{words:event}: unknown field(s) {number:fields}; a {words:event} has no field but its type "
        "(record-format.md section 3)"
    ),
    "malformed:text_too_long": "{words:event}: '{number:field}' is at most {number:limit} characters, not {number:given}",
    "malformed:event_too_big": (
        "{words:event}: the event is {number:size} characters of JSON; an event is at most {number:limit}"
    ),
    # the record's shape (record.parse_record)
    "malformed:record_not_object": "a record is a JSON object",
    "malformed:record_redacted": (
        "a redacted record (its hidden cards written '?') cannot be folded; "
        "export it as a scorer of the club for the whole record"
    ),
    "malformed:record_fields": "unknown record field(s): {number:fields}",
    "malformed:record_format": "format must be {number:expected}, not {number:given}",
    "malformed:record_players": "players must be a list of non-empty display names in seat order",
    "malformed:record_events": "events must be a list",
    "malformed:record_event": "event {number:index} must be an object with a string 'type'",
    "malformed:record_variant": "variant must be a string",
    # the fold (event_fold.py)
    "game_over:over": "the game is over; no {words:event} now (an undo is accepted)",
}

#: what a field holds (schema.FieldType), as ``{words:field_type}`` says it
FIELD_TYPE_WORDS: dict[str, str] = {
    t.key: t.what for t in (SEAT, CARD, CARDS, RANK, TEXT, PUSH, CALLS, SEATS, POINTS, WHOLE, HANDS)
}
