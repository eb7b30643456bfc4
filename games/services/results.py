"""What a game write answers: the game's part of its body (WriteResult: games.streams.results)."""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.streams.results import WriteResult

__all__ = ["WriteResult", "game_body"]


def game_body(game: Game) -> dict[str, Any]:
    return {"id": game.pk, "seq": game.seq, "status": game.status}
