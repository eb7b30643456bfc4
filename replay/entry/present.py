"""What the entry page shows besides the live table: the score sheet (the viewer's partial) and
the history of stored events, undos included. Read off the viewer's frames (the engine's output)
and the stored events; no rule of Tichu here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import gettext

from games import engine, selectors
from replay import frames
from replay import present as viewer

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Event, Game

#: The history lists this many of the latest events (the replay has them all).
HISTORY_LENGTH = 60


def in_force(events: list[dict]) -> list[int]:
    """The seqs of the events still in force (not retracted by an undo), in order."""
    retracted = engine.retracted_by_undo(events)
    return [seq for seq, e in enumerate(events, start=1) if e.get("type") != "undo" and seq not in retracted]


def event_texts(data: frames.ReplayData, first: int, last: int) -> dict[int, str]:
    """{n: the viewer's words for event n} for first <= n <= last (frame n's ``text``)."""
    texts = getattr(data, "texts", None)  # every frame's text, where the viewer keeps them apart
    out = {}
    for n in range(first, min(last, data.length) + 1):
        out[n] = texts[n] if texts and n < len(texts) else data.frame_at(n).get("text", "")
    return out


def history_rows(game: Game, data: frames.ReplayData, stored: list[Event]) -> list[dict]:
    retracted = engine.retracted_by_undo([e.as_record_event() for e in stored])
    undoes = {undo: seq for seq, undo in retracted.items()}
    shown = stored[-HISTORY_LENGTH:]
    texts = event_texts(data, shown[0].seq, shown[-1].seq) if shown else {}
    rows = []
    for event in shown:
        n = event.seq
        text = texts.get(n, event.type)
        rows.append(
            {
                "seq": n,
                "type": event.type,
                "text": text,
                "by": event.recorded_by.get_username() if event.recorded_by else "",
                "at": event.recorded_at,
                "retracted_by": retracted.get(n),
                "undoes": undoes.get(n),
            }
        )
    rows.reverse()  # newest first: the slip to correct is at the top
    return rows


def panels_context(game: Game, data: frames.ReplayData) -> dict:
    stored = selectors.stored_events(game)
    alive = in_force([e.as_record_event() for e in stored])
    final = data.final
    columns = viewer.score_columns(data.players, final)
    return {
        "sheet": viewer.sheet_rows(data.players, final.get("score_sheet") or [], data.lang),
        "teams": columns["labels"],
        "team_totals": columns["totals"],
        "complete": bool(final.get("complete")),
        "history": history_rows(game, data, stored),
        # what the Undo button retracts: the latest event still in force, in words
        "undo_target": {"seq": alive[-1], "text": event_texts(data, alive[-1], alive[-1]).get(alive[-1], "")}
        if alive
        else None,
        "replay_url": reverse("replay:game-replay", args=[game.pk]),
        "total_events": game.seq,
        # a hand won by one team going out first, named as the game names it (Tientsin: triple)
        "victory_word": gettext("triple victory")
        if engine.game_info(game.variant).sheet.sweep == 3
        else gettext("double victory"),
    }
