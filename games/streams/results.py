"""What a write answers: its body and whether it stored something new (201) or replayed (200)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WriteResult:
    body: dict[str, Any]
    replayed: bool = False
    created: bool = True  # False: nothing new was stored (content imported before): 200, not 201

    @property
    def status_code(self) -> int:
        return 201 if self.created else 200
