"""The display annotations of a frame, read off the engine's output, never computed from the rules
(see the package docstring): the event that led here and its words, the trick's number, the hand's
bombs and Dragon gifts, running totals on the score sheet."""

from __future__ import annotations

from games import engine

from .wording import describe

#: build-time helpers kept on a frame while the next one is annotated, never sent.
PRIVATE_KEYS = ("_new_trick", "_raw_sheet")


def public(frame: dict) -> dict:
    """``frame`` without the build-time helpers."""
    return {k: v for k, v in frame.items() if k not in PRIVATE_KEYS}


def annotate(frame: dict, event: dict | None, prev: dict | None, players: list[str], lang: str = "en") -> dict:
    """Add the display annotations of the module docstring to a fresh frame (``event`` as the
    reader may see it)."""
    frame["n"] = 0
    frame["e"] = event
    log = frame.get("trick_log") or []
    old_log = (prev or {}).get("trick_log") or []
    # A hand is on the table while state_json describes one (it then names its shuffler); between
    # hands the engine shows none, and neither do the hand's annotations.
    on_table = "shuffler" in frame
    same_hand = prev is not None and prev.get("hand_number") == frame.get("hand_number") and on_table
    new_trick = bool(log) and not (len(log) >= len(old_log) and log[: len(old_log)] == old_log and old_log)
    frame["_new_trick"] = new_trick
    trick_no = (prev or {}).get("trick_no", 0) if same_hand else 0
    if new_trick:
        trick_no += 1
    frame["trick_no"] = trick_no if log or same_hand else 0
    bombs = list((prev or {}).get("bombs", [])) if same_hand else []
    gifts = list((prev or {}).get("gifts", [])) if same_hand else []
    if event is not None and event.get("type") == "play":
        top = (frame.get("trick") or [None])[-1]
        if top and top.get("combination") == "bomb" and top.get("seat") == event.get("seat"):
            bombs.append({"seat": top["seat"], "cards": top["cards"], "trick_no": frame["trick_no"]})
    if event is not None and event.get("type") == "dragon_gift":
        gifts.append({"from": event.get("seat"), "to": event.get("to")})
    frame["bombs"] = bombs
    frame["gifts"] = gifts
    # Running totals on the score sheet: the engine's totals when each line appeared.
    raw = frame.get("score_sheet") or []
    old_raw = (prev or {}).get("_raw_sheet") or []
    old_sheet = (prev or {}).get("score_sheet") or []
    if raw == old_raw:
        sheet = old_sheet
    else:
        sheet = [
            old_sheet[k]
            if k < len(old_raw) and old_raw[k] == line
            else {**line, "totals": list(frame.get("totals") or [])}
            for k, line in enumerate(raw)
        ]
    frame["_raw_sheet"] = raw
    frame["score_sheet"] = sheet
    terms = engine.words(lang).terms  # the engine's words in the reader's language
    frame["text"] = describe(event, frame, players, lang) if event is not None else terms["before_first"]
    if event is not None and len(sheet) > len(old_sheet):
        points = " / ".join(str(p) for p in sheet[-1].get("points", []))
        frame["text"] += terms["hand_ends"].replace("{number:hand}", str(len(sheet))).replace("{number:points}", points)
    if event is not None and frame.get("complete") and not (prev or {}).get("complete"):
        frame["text"] += terms["game_over"]
    return frame
