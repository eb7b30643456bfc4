"""The errors of every write to a stream, each with the stable code the API answers with (games.api).
A stream's own refusals (the engine's, the tournament core's) subclass them in its services."""

from __future__ import annotations

from django.utils.translation import gettext as _


class ServiceError(Exception):
    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    """A request the service cannot act on (400)."""

    def __init__(self, message: str, code: str = "invalid", params: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}  # the engine's parameters of a refusal (docs/api.md "Errors")


class SeqConflict(ServiceError):
    """`expected_seq` is not the game's current seq (409)."""

    code = "seq_conflict"

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            _("expected_seq is %(expected)s but the game is at seq %(current)s")
            % {"expected": expected_seq, "current": current_seq}
        )
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key came with a different request (422)."""

    code = "idempotency_key_reused"
