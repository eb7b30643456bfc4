"""The Tichu rules engine: pure Python, no Django, no I/O, no clock, no randomness of its own.

Fold a record's events into the state at any moment; every refused event raises
:class:`EngineError` with a stable code and leaves the state as it was.

>>> from games.engine import random_game, fold, score_json
>>> record = random_game(7)
>>> score_json(fold(record))["complete"]
True
"""
from .bot import greedy_policy, random_game, random_policy, random_record
from .cards import TICHU_DECK, card_points
from .combos import Combination, beats, combinations_in, readings
from .errors import CODES, EngineError
from .legal import bombs_out_of_turn, legal_actions
from .record import FORMAT, Replay, fold, new_game, parse_record, score_json, seat_names, state_json
from .state import EVENT_TYPES, GameState
from .tien_zi_que import TienZiQueState, random_tzq_record
from .visibility import (
    EVERYTHING, HIDDEN, REVEALS, Sight, redact_event, redact_events, redact_record, redact_state, secret_from, sight_for,
)

__all__ = [
    "CODES", "EVENT_TYPES", "FORMAT", "TICHU_DECK", "Combination", "EngineError", "GameState", "Replay",
    "beats", "bombs_out_of_turn", "card_points", "combinations_in", "fold", "greedy_policy", "legal_actions",
    "new_game", "parse_record", "random_game", "random_policy", "random_record", "readings", "score_json",
    "state_json", "seat_names", "TienZiQueState", "random_tzq_record",
    "EVERYTHING", "HIDDEN", "REVEALS", "Sight", "redact_event", "redact_events", "redact_record", "redact_state",
    "secret_from", "sight_for",
]
