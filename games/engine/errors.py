"""The engine's one exception type, with the stable codes of record-format.md section 5."""

from __future__ import annotations

from typing import Any, Mapping

CODES = frozenset(
    {
        "malformed",
        "unknown_card",
        "wrong_phase",
        "not_your_turn",
        "card_not_in_hand",
        "invalid_combination",
        "does_not_beat",
        "wish_not_fulfilled",
        "bomb_not_allowed",
        "call_too_late",
        "already_called",
        "push_invalid",
        "gift_required",
        "gift_invalid",
        "draw_out_of_order",
        "deal_invalid",
        "result_invalid",
        "game_over",
        "not_in_variant",
    }
)


class EngineError(ValueError):
    """An event or record the rules refuse.

    ``code`` is one of :data:`CODES`; ``message`` says in plain words which rule was broken and
    with which cards; ``index`` is the position of the offending event in the record, once known.
    ``params`` names what was refused where a program needs it (``{"option": "hands", ...}`` for
    an option's value), so that a form can point at the field without reading the message.
    """

    def __init__(
        self, code: str, message: str, index: int | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        if code not in CODES:  # a programming error, not a user error
            raise AssertionError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.index = index
        self.params: dict[str, Any] = dict(params or {})

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = dict(self.params)
        return out

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {self.message!r}, index={self.index!r})"
