"""What the replay must show at a position, straight from the engine, and the same read off a page.

Both give one shape, so a test compares them with == (the server's page without the script draws
none of it: ``server_view``):
``{"at", "hands": [cards per seat], "trick": [[seat, "pass" | cards]], "totals", "wish", "calls":
{seat: call}, "out": [seats in order], "sheet": [[points per team] per finished hand]}``.
"""

from __future__ import annotations

from games import engine

#: Run in the browser: the same shape read off the live DOM.
DOM_VIEW_JS = """() => {
  const q = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const seats = q('#table .seat').sort((a, b) => +a.dataset.seat - +b.dataset.seat);
  const out = [];
  seats.forEach(s => { const o = s.querySelector('.badge.out'); if (o) out[+o.dataset.out - 1] = +s.dataset.seat; });
  const calls = {};
  seats.forEach(s => { const c = s.querySelector('.badge.call'); if (c) calls[s.dataset.seat] = c.dataset.call; });
  const wish = document.querySelector('#wish');
  return {
    at: +document.querySelector('#table').dataset.at,
    hands: seats.map(s => q('.hand .card', s).map(c => c.dataset.card)),
    trick: q('#trick .play').map(p => [+p.dataset.seat, p.dataset.kind === 'pass' ? 'pass' : q('.card', p).map(c => c.dataset.card)]),
    totals: q('#totals .total').map(t => +t.textContent),
    wish: wish && !wish.hidden ? wish.querySelector('b').dataset.wish : null,
    calls: calls,
    out: out,
    sheet: q('#replay-sheet tbody tr.hand-line').map(r => q('td.points', r).map(t => +t.textContent)),
  };
}"""


def engine_view(record: dict, n: int) -> dict:
    state = engine.state_json(engine.Replay(record).state_at(n))
    return {
        "at": n,
        "hands": [list(h) for h in state["hands"]],
        "trick": [[e["seat"], "pass" if e.get("pass") else list(e["cards"])] for e in state.get("trick_log", [])],
        "totals": list(state["totals"]),
        "wish": state.get("wish"),
        "calls": {str(s): c for s, c in (state.get("calls") or {}).items()},
        "out": list(state.get("out") or []),
        "sheet": [list(line["points"]) for line in state["score_sheet"]],
    }


def server_view(root) -> dict:
    """What the server's page draws of a position, read off it (tests/replay/dom.py tree): the
    table's mount at the position, and the event marked current in the hand's list. The table, the
    panel and the score sheet are the script's (DOM_VIEW_JS reads them)."""
    current = root.by_id("hand-log").find("li", cls="current")
    return {
        "at": int(root.by_id("table").attrs["data-at"]),
        "current": int(current.attrs["data-at"]) if current else None,
        "panel": [n.attrs.get("id") for n in root.by_id("panel").find_all("dd")],
        "sheet": root.by_id("sheet-wrap").find_all("tr"),
    }


def server_view_at(n: int) -> dict:
    """server_view of a page at `n`: the position marked, nothing drawn twice."""
    return {"at": n, "current": n, "panel": [], "sheet": []}
