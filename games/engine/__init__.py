"""The Tichu rules engine: pure Python, no Django, no I/O, no clock, no randomness of its own.

Fold a record's events into the state at any moment; every refused event raises
:class:`EngineError` with a stable code and leaves the state as it was. Everything outside the
engine uses the names listed here (docs/engine-api.md), never its modules.

>>> from games.engine import random_game, fold, score_json
>>> record = random_game(7)
>>> score_json(fold(record))["complete"]
True
"""

# First: importing build_check refuses a compiled build (mypyc_build.py) with a module older than
# its source, and with TICHU_PURE_PYTHON=1 has the compiled modules imported from their source.
from . import build_check  # noqa: F401
from .bot import bot_moves, greedy_policy, random_game, random_policy, random_record
from .bsw import export_bsw, parse_bsw, read_bsw
from .bsw_check import check_game, settle_refused_hands
from .bsw_dates import played_at as bsw_played_at
from .bsw_words import mended_words, note_line, report_heading
from .cards import TICHU_DECK, card_points, sort_cards
from .combos import Combination, beats, combinations_in, readings
from .entry import PENALTY_REASONS, check_events, deal_facts, entry_facts, penalty_events, push_facts
from .errors import CODES, EngineError
from .faces import (
    CARD_WORDS,
    RANK_NAMES,
    RANK_PHRASES,
    canonical_event,
    card_code,
    card_face,
    card_name,
    card_table,
    card_words,
    cards_text,
    variant_cards,
    with_article,
)
from .game import Game, PlayState
from .hand_lines import hand_line_reachable, hand_line_refusal, hand_line_rules, paper_hand_line
from .legal import bombs_out_of_turn, legal_actions
from .online import (
    deal_events,
    deal_hands,
    deal_pile,
    deals_tricks,
    grand_tichu_open,
    push_due,
    push_forced,
    seat_actions,
    seats_played_by,
    shuffle_chance,
    table_events,
    table_options,
)
from .option_wording import option_words, preset_words
from .options import Choice, Kind, Option, Preset
from .record import (
    FORMAT,
    Replay,
    check_incoming,
    fold,
    fold_steps,
    new_game,
    parse_record,
    retracted_by_undo,
    score_json,
    seat_names,
    state_json,
)
from .registry import (
    GAME_NAMES,
    GAMES,
    HAND_START_EVENTS,
    PRESETS,
    GameInfo,
    SheetFacts,
    finishing_order_points,
    game_info,
    game_label,
    games,
    seat_labels,
    seat_positions,
    sweep_team,
)
from .state import EVENT_TYPES, GameState
from .tien_zi_que import TienZiQueState, random_tzq_record
from .tien_zi_que import random_deck as random_tzq_deck
from .tracker import TrackerFormatError, convert_tracker
from .visibility import (
    EVERYTHING,
    HIDDEN,
    REVEALS,
    Sight,
    redact_event,
    redact_events,
    redact_record,
    redact_state,
    secret_from,
    sight_for,
)
from .wording import (
    CATALOGUE_DIR,
    EVENT_WORDS,
    LANGUAGES,
    REFUSAL_WORDS,
    SLOT_KINDS,
    TERMS,
    Words,
    call_names,
    card_names,
    catalogue_entries,
    combination_names,
    event_words,
    page_words,
    refusal_heading,
    refusal_words,
    variant_name,
    words,
)

__all__ = [
    # an online table (games/online): the deal and one seat's actions
    "deal_events",
    "deal_hands",
    "deal_pile",
    "deals_tricks",
    "grand_tichu_open",
    "push_due",
    "push_forced",
    "seat_actions",
    "seats_played_by",
    "shuffle_chance",
    "table_events",
    "table_options",
    "bot_moves",
    "CARD_WORDS",
    "CODES",
    "EVENT_TYPES",
    "FORMAT",
    "GAMES",
    "GAME_NAMES",
    "HAND_START_EVENTS",
    "PENALTY_REASONS",
    "PRESETS",
    "RANK_NAMES",
    "RANK_PHRASES",
    "TICHU_DECK",
    "Choice",
    "Combination",
    "EngineError",
    "EVENT_WORDS",
    "REFUSAL_WORDS",
    "Game",
    "GameInfo",
    "GameState",
    "PlayState",
    "Kind",
    "Option",
    "Preset",
    "Replay",
    "SheetFacts",
    "TienZiQueState",
    "TrackerFormatError",
    "beats",
    "bombs_out_of_turn",
    "bsw_played_at",
    "canonical_event",
    "card_code",
    "card_face",
    "card_name",
    "card_points",
    "card_table",
    "card_words",
    "cards_text",
    "check_events",
    "check_game",
    "check_incoming",
    "combinations_in",
    "convert_tracker",
    "deal_facts",
    "entry_facts",
    "event_words",
    "LANGUAGES",
    "CATALOGUE_DIR",
    "SLOT_KINDS",
    "catalogue_entries",
    "mended_words",
    "note_line",
    "report_heading",
    "TERMS",
    "Words",
    "card_names",
    "call_names",
    "combination_names",
    "variant_name",
    "option_words",
    "preset_words",
    "words",
    "export_bsw",
    "fold",
    "fold_steps",
    "game_info",
    "game_label",
    "sweep_team",
    "finishing_order_points",
    "games",
    "greedy_policy",
    "hand_line_reachable",
    "hand_line_refusal",
    "hand_line_rules",
    "paper_hand_line",
    "legal_actions",
    "new_game",
    "page_words",
    "parse_bsw",
    "parse_record",
    "read_bsw",
    "retracted_by_undo",
    "penalty_events",
    "push_facts",
    "random_game",
    "random_policy",
    "random_record",
    "random_tzq_deck",
    "random_tzq_record",
    "readings",
    "refusal_words",
    "refusal_heading",
    "score_json",
    "seat_labels",
    "seat_names",
    "seat_positions",
    "settle_refused_hands",
    "sort_cards",
    "state_json",
    "variant_cards",
    "with_article",
    "EVERYTHING",
    "HIDDEN",
    "REVEALS",
    "Sight",
    "redact_event",
    "redact_events",
    "redact_record",
    "redact_state",
    "secret_from",
    "sight_for",
]
