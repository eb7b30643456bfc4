/* Tichu replay viewer: instant stepping through the frames the server embedded.
 *
 * The page works without this script (every control is a link or a form). The script only looks
 * frames up: no rule of the game is here. Frames are the engine's state_json per event, compacted
 * by replay/frames.py (frame 0 whole, then the keys that changed; "key+" = items appended;
 * per-seat lists as {seat: value}); navigation marks (hand and trick starts) come with them.
 * The markup written here is the markup of templates/replay/replay.html (same classes and data-*).
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var dataEl = document.getElementById("replay-data");
  if (!root || !dataEl) return;
  var P = JSON.parse(dataEl.textContent);
  var CARDS = JSON.parse(document.getElementById("replay-cards").textContent);
  if (P.cards) Object.assign(CARDS, P.cards);  // a variant's own cards (Tien Zi Que)
  var L = P.labels;
  var PER_SEAT = {};
  P.per_seat.forEach(function (k) { PER_SEAT[k] = true; });
  var players = P.players;
  var nSeats = players.length;
  var length = P.length;

  // --- frames: expand the compacted deltas once -------------------------------------------------
  function applyDelta(prev, d) {
    var f = Object.assign({}, prev);
    for (var k in d) {
      if (k === "-") continue;
      var v = d[k];
      if (k.charAt(k.length - 1) === "+") {
        var base = k.slice(0, -1);
        f[base] = (prev[base] || []).concat(v);
      } else if (PER_SEAT[k] && v && !Array.isArray(v) && typeof v === "object") {
        var arr = (prev[k] || []).slice();
        for (var i in v) arr[+i] = v[i];
        f[k] = arr;
      } else {
        f[k] = v;
      }
    }
    (d["-"] || []).forEach(function (key) { delete f[key]; });
    return f;
  }
  function expandFrames(payload) {
    var out = new Array(payload.frames.length), acc = {};
    for (var i = 0; i < payload.frames.length; i++) {
      acc = applyDelta(acc, payload.frames[i]);
      acc.n = i;
      acc.text = payload.texts[i];
      out[i] = acc;
    }
    return out;
  }
  var frames = expandFrames(P);

  // --- view state --------------------------------------------------------------------------------
  function parseView(raw, dflt) {
    if (raw === null || raw === undefined || raw === "") return dflt;
    if (raw === "all") return "all";
    var s = parseInt(raw, 10);
    return (s >= 0 && s < nSeats) ? s : dflt;
  }
  function parseSeat(raw, dflt) {
    var s = parseInt(raw, 10);
    return (s >= 0 && s < nSeats) ? s : dflt;
  }
  var state = {
    at: parseInt(root.getAttribute("data-at"), 10) || 0,
    view: parseView(root.getAttribute("data-view"), "all"),
    bottom: parseSeat(root.getAttribute("data-bottom"), 0),
    playing: false,
    timer: null,
    showUndone: root.classList.contains("show-undone"),
  };

  // --- markup (the same as the Django templates) ------------------------------------------------
  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" }[c];
    });
  }
  function cardHtml(code, last) {
    if (code === "?") return '<span class="card back" role="img" aria-label="hidden card" data-card="?"></span>';
    var f = CARDS[code] || { rank: code, suit: "", cls: "unknown", name: code };
    return '<span class="card ' + f.cls + (last ? " last" : "") + '" role="img" aria-label="' + esc(f.name) +
      '" title="' + esc(f.name) + '" data-card="' + esc(code) + '"><span class="rk">' + esc(f.rank) +
      '</span><span class="su" aria-hidden="true">' + f.suit + "</span></span>";
  }
  function cardsHtml(codes, last) {
    var out = "";
    for (var i = 0; i < codes.length; i++) out += cardHtml(codes[i], last && codes[i] === last);
    return out;
  }
  function name(seat) { return (typeof seat === "number" && seat >= 0 && seat < nSeats) ? players[seat] : "?"; }
  function teamLabels(teams) {
    return (teams || []).map(function (t) { return t.map(name).join(" & "); });
  }

  // The score columns as the engine keeps them: per team, or per player where every player has a
  // total of their own (Threechu, Grand Seigneur). Mirrors replay/present.py column_labels.
  function columnLabels(f) {
    var totals = f.totals || [];
    if (totals.length && totals.length !== (f.teams || []).length) {
      return totals.map(function (_, i) { return name(i); });
    }
    return teamLabels(f.teams);
  }
  function positions(order, bottom) {
    var n = order.length, out = {};
    var start = order.indexOf(bottom); if (start < 0) start = 0;
    var sign = (P.options.direction === "clockwise") ? -1 : 1;
    for (var k = 0; k < n; k++) {
      var seat = order[(start + k) % n];
      var angle = Math.PI / 2 - sign * 2 * Math.PI * k / n;
      out[seat] = { left: Math.round((50 + 38 * Math.cos(angle)) * 100) / 100,
                    top: Math.round((50 + 38 * Math.sin(angle)) * 100) / 100 };
    }
    return out;
  }
  function plural(n) { return n === 1 ? "" : "s"; }

  // Tien Zi Que's table (templates/replay/_tzq_table.html, present.tzq_table): stock, discard pile,
  // score piles, combinations and totals, as the frame (the engine's state_json) has them.
  var DISCARD_SHOWN = 6;
  function dflt(v, d) { return v === null || v === undefined ? d : v; }
  function tzqHtml(f) {
    var stock = f.stock_size, discard = f.discard || [], chow = f.chowable || [], res = f.reshuffles || 0;
    var piles = f.score_piles || [], combos = f.combinations || [], totals = f.totals || [];
    var under = Math.max(0, discard.length - DISCARD_SHOWN);
    var html = '<div id="tzq" class="tzq" data-round="' + esc(dflt(f.round, "")) + '"><div class="tzq-row">' +
      '<div id="tzq-stock" class="stock" data-count="' + esc(dflt(stock, "")) + '" aria-label="Stock: ' + dflt(stock, 0) +
      " card" + plural(dflt(stock, 0)) + ' face down"><span class="card back" aria-hidden="true"></span> <b class="n">' +
      esc(dflt(stock, "–")) + "</b> in stock" + (res ? ' <span class="reshuffles">(' + res + " reshuffle" + plural(res) + ")</span>" : "") +
      '</div><div id="tzq-discard" class="discard" data-count="' + discard.length + '" data-cards="' + esc(discard.join(" ")) +
      '" aria-label="Discard pile: ' + discard.length + " card" + plural(discard.length) + ', top card last"><span class="lbl">Discard pile <b class="n">' +
      discard.length + "</b></span>" + (under ? ' <span class="under" title="cards under these">+' + under + "</span>" : "") +
      ' <span class="top">' + cardsHtml(discard.slice(-DISCARD_SHOWN)) + "</span>" +
      (chow.length ? ' <span class="chowable" data-cards="' + esc(chow.join(" ")) + '">open for a Chow: ' + cardsHtml(chow) + "</span>" : "") +
      "</div></div>";
    for (var s = 0; s < nSeats; s++) {
      var pile = piles[s] || [], cs = combos[s] || [], total = dflt(totals[s], null);
      html += '<div class="tzq-player" data-seat="' + s + '"><div class="tzq-head"><span class="who">' + esc(players[s]) +
        '</span> <span class="total" data-total="' + esc(dflt(total, "")) + '">' + esc(dflt(total, "–")) + " pts</span></div>" +
        '<div class="pile" data-count="' + pile.length + '" aria-label="' + esc(players[s]) + "'s score pile: " + pile.length +
        " card" + plural(pile.length) + '"><span class="lbl">Score pile</span> ' + cardsHtml(pile) + "</div>" +
        '<ul class="combos" data-count="' + cs.length + '" aria-label="' + esc(players[s]) + "'s combinations: " + cs.length + '">';
      cs.forEach(function (c) {
        html += '<li class="combo" data-action="' + esc(c.action || "") + '" data-kind="' + esc(c.kind || "") + '" data-keep="' +
          esc(dflt(c.keep, "")) + '">' + cardsHtml(c.cards || [], c.keep) + ' <span class="kind">' + esc(c.action || "") +
          " · " + esc(c.kind || "") + "</span></li>";
      });
      html += "</ul></div>";
    }
    return html + "</div>";
  }

  // The table as pieces (one per seat, then the centre), so that a step rewrites only what changed.
  function tablePieces(f, view, bottom) {
    var pieces = [];
    var order = f.order || players.map(function (_, i) { return i; });
    var pos = positions(order, bottom);
    var teams = f.teams || [];
    var teamOf = {};
    teams.forEach(function (t, i) { t.forEach(function (s) { teamOf[s] = i; }); });
    var hands = f.hands || [], received = f.received || [], won = f.tricks_won || [], out = f.out || [];
    var calls = f.calls || {}, ev = f.e || {};
    var html;
    for (var s = 0; s < nSeats; s++) {
      html = "";
      var hand = hands[s] || [];
      var shown = view === "all" || view === s;
      var cards = shown ? hand : hand.map(function () { return "?"; });
      var call = calls[String(s)];
      var outRank = out.indexOf(s) + 1;
      var isTurn = f.turn === s;
      var last = (ev.type === "draw" && ev.seat === s && shown) ? ev.card : null;
      var p = pos[s] || { left: 50, top: 50 };
      html += '<div class="seat' + (p.left < 25 || p.left > 75 ? " side" : "") + (isTurn ? " turn" : "") + (outRank ? " is-out" : "") +
        (teamOf[s] !== undefined ? " team-" + teamOf[s] : "") + '" data-seat="' + s + '" style="left:' + p.left +
        "%;top:" + p.top + '%"><div class="seat-head"><span class="seat-name">' + esc(players[s]) + "</span>";
      if (call) html += ' <span class="badge call call-' + call + '" data-call="' + call + '" title="' +
        esc(L.calls[call] || call) + '">' + (call === "grand_tichu" ? "GT" : call === "tichu" ? "T" : esc(call)) + "</span>";
      if (outRank) html += ' <span class="badge out" data-out="' + outRank + '" title="out ' + outRank + '">out #' + outRank + "</span>";
      if (f.shuffler === s) html += ' <span class="badge shuffler" title="shuffled this hand">S</span>';
      if (isTurn) html += ' <span class="badge to-act">to play</span>';
      if (f.gift_from === s) html += ' <span class="badge gift">gives the Dragon trick</span>';
      html += '</div><div class="hand" data-count="' + hand.length + '" aria-label="' + esc(players[s]) + "'s hand: " +
        hand.length + " card" + plural(hand.length) + '">' + cardsHtml(cards, last) + '</div><div class="seat-foot">';
      if (won[s]) html += '<span class="won" data-cards="' + won[s].cards + '" data-points="' + won[s].points +
        '">tricks: ' + won[s].cards + " cards, " + won[s].points + " pts</span>";
      if (f.phase === "deal" && received[s] !== undefined) html += ' · <span class="received">' + received[s] + " taken</span>";
      html += "</div></div>";
      pieces.push(html);
    }
    // the trick
    var log = f.trick_log || [];
    html = '<div class="center">' + (P.variant === "tien-zi-que" ? tzqHtml(f) : "") + '<div id="trick" aria-label="Current trick"' + (f.trick_closed ? ' class="closed"' : "") + ">";
    if (log.length) html += '<div class="trick-head">Trick ' + f.trick_no +
      (f.trick_closed && typeof f.trick_winner === "number" ? " · won by " + esc(name(f.trick_winner)) : "") + "</div>";
    for (var j = 0; j < log.length; j++) {
      var entry = log[j], bomb = entry.combination === "bomb";
      html += '<div class="play' + (bomb ? " bomb" : "") + '" data-seat="' + entry.seat + '" data-kind="' +
        (entry.pass ? "pass" : "play") + '"><span class="who">' + esc(name(entry.seat)) + "</span> ";
      if (entry.pass) html += '<span class="pass">pass</span>';
      else html += cardsHtml(entry.cards || []) + ' <span class="combo">' +         esc(L.combinations[entry.combination] || entry.combination || "") + "</span>";
      html += "</div>";
    }
    html += "</div>";
    var sheet = f.score_sheet || [];
    if (sheet.length && f.shuffler === undefined) {  // between hands: the hand just finished
      var line = sheet[sheet.length - 1];
      html += '<div id="hand-summary" class="summary" data-hand="' + sheet.length + '"><b>Hand ' + sheet.length + "</b>: out " +
        (line.out || []).map(function (s) { return esc(name(s)); }).join(" › ") + (line.double_victory ? " (double victory)" : "");
      Object.keys(line.calls || {}).map(Number).sort(function (a, b) { return a - b; }).forEach(function (s) {
        html += "; " + esc(name(s)) + ": " + esc(L.calls[line.calls[String(s)]] || line.calls[String(s)]);
      });
      html += "; points " + (line.points || []).join(" / ") + "</div>";
    }
    html += '<div id="wish" class="wish"' + (f.wish ? "" : " hidden") + '>Wish: <b data-wish="' + esc(f.wish || "") + '">' +
      esc(f.wish ? (L.ranks[f.wish] || f.wish) : "") + "</b></div></div>";
    pieces.push(html);
    return pieces;
  }

  // Rewrites an element's content only when it changed (most of a step changes one seat and the trick).
  function setHtml(el, html) {
    if (el._html !== html) { el.innerHTML = html; el._html = html; }
  }
  var tableCache = null;
  function renderTable(f, view, bottom) {
    var pieces = tablePieces(f, view, bottom);
    if (!tableCache || tableCache.length !== pieces.length || table.children.length !== pieces.length) {
      table.innerHTML = pieces.join("");
      tableCache = pieces;
      return;
    }
    for (var i = 0; i < pieces.length; i++) {
      if (tableCache[i] !== pieces[i]) {
        table.children[i].outerHTML = pieces[i];
        tableCache[i] = pieces[i];
      }
    }
  }

  function listOr(items, sep) { return items.length ? items.join(sep === undefined ? ", " : sep) : "–"; }

  function panelParts(f, view) {
    var teams = columnLabels(f);
    var totals = f.totals || [];
    var calls = Object.keys(f.calls || {}).map(Number).sort(function (a, b) { return a - b; }).map(function (s) {
      var c = f.calls[String(s)];
      return '<span class="call" data-seat="' + s + '">' + esc(name(s)) + ": " + esc(L.calls[c] || c) + "</span>";
    });
    var out = (f.out || []).map(function (s, i) { return '<span data-seat="' + s + '">' + (i + 1) + ". " + esc(name(s)) + "</span>"; });
    var bombs = (f.bombs || []).map(function (b) { return '<span class="bomb">' + esc(name(b.seat)) + ": " + cardsHtml(b.cards) + "</span>"; });
    var gifts = (f.gifts || []).map(function (g) {
      return '<span class="gift">' + esc(name(g.from)) + " gave the Dragon trick to " + esc(name(g.to)) + "</span>";
    });
    if (typeof f.gift_from === "number") gifts.unshift('<span class="pending">' + esc(name(f.gift_from)) + " must give the trick away</span>");
    var pushes = [];
    var senders = Object.keys(f.pushes || {}).map(Number).sort(function (a, b) { return a - b; });
    senders.forEach(function (s) {
      var targets = f.pushes[String(s)], row = "";
      Object.keys(targets).map(Number).sort(function (a, b) { return a - b; }).forEach(function (t) {
        if (view !== "all" && view !== s && view !== t) return;
        row += ' <span class="push" data-from="' + s + '" data-to="' + t + '">' + esc(name(t)) + " " +
          cardsHtml(targets[String(t)]) + "</span>";
      });
      if (row) pushes.push('<span class="push-from" data-from="' + s + '">' + esc(name(s)) + " →" + row + "</span>");
    });
    var totalsHtml = teams.map(function (label, i) {
      return '<li class="team-' + i + '" data-team="' + i + '"><span class="label">' + esc(label) + '</span> <b class="total">' +
        esc(totals[i] === undefined ? "" : totals[i]) + "</b></li>";
    }).join("");
    var winner = (typeof f.winner === "number" && f.winner < teams.length) ? teams[f.winner] : null;
    return {
      calls: listOr(calls), out: listOr(out), bombs: listOr(bombs, ""),
      gifts: gifts.length ? gifts.join("") : "–", exchange: listOr(pushes, ""), totals: totalsHtml,
      // plain text (set with textContent, never as HTML): escaping it here showed "Anna &amp; Clara"
      over: f.complete ? "Game over" + (winner ? ": " + winner + " win" : "") + "." : "",
    };
  }

  function sheetHtml(f) {
    var teams = columnLabels(f);
    var sheet = f.score_sheet || [];
    var path = location.pathname;
    var head = '<table class="sheet" id="replay-sheet"><caption>Hand by hand</caption><thead><tr>' +
      '<th scope="col" rowspan="2">Hand</th><th scope="col" rowspan="2">Calls</th><th scope="col" rowspan="2">Order out</th>' +
      '<th scope="colgroup" colspan="' + teams.length + '">Card points</th><th scope="colgroup" colspan="' + teams.length +
      '">Points</th><th scope="colgroup" colspan="' + teams.length + '">Running total</th></tr><tr>';
    for (var r = 0; r < 3; r++) teams.forEach(function (t, i) { head += '<th scope="col" class="team-' + i + '">' + esc(t) + "</th>"; });
    var body = "";
    sheet.forEach(function (line, k) {
      var number = k + 1;
      var calls = Object.keys(line.calls || {}).map(Number).sort(function (a, b) { return a - b; }).map(function (s) {
        var c = line.calls[String(s)];
        return '<span class="call call-' + c + '" data-seat="' + s + '" data-call="' + c + '">' + esc(name(s)) + ": " + esc(L.calls[c] || c) + "</span>";
      });
      var out = (line.out || []).map(function (s) { return '<span data-seat="' + s + '">' + esc(name(s)) + "</span>"; });
      var link = line.at !== undefined && line.at !== null;
      body += '<tr class="hand-line" data-hand="' + number + '"><th scope="row">' +
        (link ? '<a href="' + path + "?at=" + line.from + '" title="Replay hand ' + number + ' from its start">' + number + "</a>" : number) +
        '</th><td class="calls">' + (calls.length ? calls.join(", ") : "–") + '</td><td class="out">' + out.join(" › ") +
        (line.double_victory ? ' <strong class="dv">double victory</strong>' : "") +
        (line.kind === "result" ? ' <span class="kind">(score sheet)</span>' : "") +
        (line.penalty ? ' <span class="kind penalty" data-seat="' + line.penalty.seat + '">(penalty: ' +
          esc(String(line.penalty.reason || "").replace(/_/g, " ")) + " by " + esc(name(line.penalty.seat)) + ")</span>" : "") + "</td>";
      var cp = line.card_points || [];
      if (cp.length) cp.forEach(function (p) { body += '<td class="num card-points">' + esc(p) + "</td>"; });
      else teams.forEach(function () { body += "<td></td>"; });
      (line.points || []).forEach(function (p) { body += '<td class="num points">' + esc(p) + "</td>"; });
      (line.totals || []).forEach(function (p) {
        body += '<td class="num total">' + (link ? '<a href="' + path + "?at=" + line.at + '" title="Replay the end of hand ' +
          number + '">' + esc(p) + "</a>" : esc(p)) + "</td>";
      });
      body += "</tr>";
    });
    if (!sheet.length) body = '<tr><td colspan="' + (3 + teams.length) + '">No hand finished yet.</td></tr>';
    return head + "</tr></thead><tbody>" + body + "</tbody></table>";
  }

  // --- navigation (index lookups in the server's marks) -----------------------------------------
  function after(points, n) {
    for (var i = 0; i < points.length; i++) if (points[i] > n) return points[i];
    return length;
  }
  function before(points, n) {
    for (var i = points.length - 1; i >= 0; i--) if (points[i] < n) return points[i];
    return 0;
  }
  // Corrections (undo events and the events they took back) are stepped over unless shown, as in
  // replay/present.py nav_targets.
  var UNDONE = {};
  function markUndone() {
    UNDONE = {};
    (P.marks.undone || []).forEach(function (k) { UNDONE[k] = true; });
  }
  markUndone();
  function folded(k) { return !state.showUndone && UNDONE[k] === true; }
  function forward(k) { while (k < length && folded(k)) k++; return k; }
  function back(k) { while (k > 0 && folded(k)) k--; return k; }
  function targets(n) {
    var h = P.marks.hands || [], t = P.marks.tricks || [];
    var nh = after(h, n), nt = after(t, n);
    return {
      first: 0, prev_hand: back(before(h, n)), prev_trick: back(before(t, n)), prev: back(Math.max(0, n - 1)),
      next: forward(Math.min(length, n + 1)), next_trick: forward(nt), next_hand: forward(nh), last: length,
    };
  }

  // --- DOM ---------------------------------------------------------------------------------------
  var $ = function (id) { return document.getElementById(id); };
  var table = $("table"), slider = $("slider"), viewSel = $("view"), speedSel = $("speed"), playBtn = $("nav-play");
  var NAV = { "nav-first": "first", "nav-prev-hand": "prev_hand", "nav-prev-trick": "prev_trick", "nav-prev": "prev",
              "nav-next": "next", "nav-next-trick": "next_trick", "nav-next-hand": "next_hand", "nav-last": "last" };
  // Cards the reader may not see come masked ("?") in the frames: every view shows only what is there.
  var shownView = function () { return state.view; };
  var lastSheetLen = -1, lastSheetFrame = null;

  function query(n) {
    var params = new URLSearchParams(location.search);
    params.set("at", n);
    params.set("view", state.view);
    params.set("bottom", state.bottom);
    if (state.showUndone) params.set("undone", "1"); else params.delete("undone");
    return "?" + params.toString();
  }

  function render() {
    var f = frames[state.at];
    var view = shownView();
    renderTable(f, view, state.bottom);
    table.setAttribute("data-at", state.at);
    table.setAttribute("data-phase", f.phase || "");
    root.setAttribute("data-at", state.at);
    root.setAttribute("data-view", state.view);
    root.setAttribute("data-bottom", state.bottom);
    $("event-text").textContent = f.text || "";
    $("pos-at").textContent = state.at;
    $("pos-len").textContent = length;
    $("hand-no").textContent = f.hand_number || "–";
    $("trick-no").textContent = f.trick_no || "–";
    $("phase").textContent = (f.phase || "").replace(/_/g, " ");
    $("turn").textContent = typeof f.turn === "number" ? name(f.turn) : "–";
    var parts = panelParts(f, view);
    setHtml($("totals"), parts.totals);
    setHtml($("calls"), parts.calls);
    setHtml($("out-order"), parts.out);
    setHtml($("bombs"), parts.bombs);
    setHtml($("gifts"), parts.gifts);
    setHtml($("exchange"), parts.exchange);
    var over = $("game-over");
    if (parts.over) {
      if (!over) {
        over = document.createElement("p"); over.id = "game-over"; over.className = "over";
        $("totals").insertAdjacentElement("afterend", over);
      }
      over.textContent = parts.over;
    } else if (over) {
      over.remove();
    }
    if (f.score_sheet !== lastSheetFrame) {
      lastSheetFrame = f.score_sheet;
      $("sheet-wrap").innerHTML = sheetHtml(f);
    }
    var tg = targets(state.at);
    for (var id in NAV) {
      var a = $(id);
      a.setAttribute("href", query(tg[NAV[id]]));
      var dead = tg[NAV[id]] === state.at;
      if (dead) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
    }
    slider.value = state.at;
    slider.setAttribute("aria-valuetext", "event " + state.at + " of " + length);
    document.title = document.title.replace(/ at \d+\/\d+/, " at " + state.at + "/" + length);
    renderLog();  // last: it reads the layout to keep the current event in view
    hideLiveNote();
  }

  // The events of the hand around the position: rebuilt when the hand changes, else the marks move.
  var logEl = $("hand-log"), logStart = null, logCurrent = null;
  function renderLog() {
    var h = P.marks.hands || [0], i = h.length - 1;
    while (i > 0 && h[i] > state.at) i--;
    var start = h[i] || 0, end = i + 1 < h.length ? h[i + 1] - 1 : length;
    if (start !== logStart) {
      var html = "";
      for (var k = start; k <= end; k++) {
        html += '<li data-at="' + k + '"' + (UNDONE[k] ? ' data-undone="1"' : "") + '><a href="' + query(k) + '">' + k + ". " + esc(P.texts[k]) + "</a></li>";
      }
      logEl.innerHTML = html;
      logEl.setAttribute("data-start", start);
      logEl.setAttribute("data-end", end);
      logStart = start;
      logCurrent = null;
    }
    var items = logEl.children, cur = state.at - start;
    if (logCurrent !== null && items[logCurrent]) { items[logCurrent].removeAttribute("aria-current"); }
    for (var j = 0; j < items.length; j++) {
      var cls = (j === cur ? "current" : (j > cur ? "future" : "")) + (UNDONE[start + j] ? " undone" : "");
      cls = cls.trim();
      if (items[j].className !== cls) items[j].className = cls;
    }
    if (items[cur]) {
      items[cur].setAttribute("aria-current", "step");
      logCurrent = cur;
      var box = logEl.getBoundingClientRect(), r = items[cur].getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) logEl.scrollTop += r.top - box.top - box.height / 2;
    }
  }
  logEl.addEventListener("click", function (e) {
    var li = e.target.closest && e.target.closest("li[data-at]");
    if (!li || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(parseInt(li.getAttribute("data-at"), 10), "push");
  });

  // how: "replace" (a step: the current history entry follows), "push" (a jump: a new entry),
  // "none" (the address stays: scrubbing the slider, or a move made by the history itself)
  function go(n, how) {
    n = Math.max(0, Math.min(length, n | 0));
    if (urlTimer !== null && how !== "none") {
      clearTimeout(urlTimer);
      urlTimer = null;
      // a jump leaves the current entry: let it first show where its steps had got to
      if (how === "push") replaceUrl();
    }
    var t0 = performance.now();
    state.at = n;
    render();
    api.lastRenderMs = performance.now() - t0;
    if (how === "push") { history.pushState({ at: n }, "", query(n)); entryAt = n; }
    else if (how === "replace") { entryAt = n; urlTimer = setTimeout(replaceUrl, URL_DELAY_MS); }
  }
  // Single steps update the address a moment later, once: a held arrow key would otherwise call
  // replaceState dozens of times a second, which browsers throttle (and which costs a little).
  var URL_DELAY_MS = 120, urlTimer = null, entryAt = state.at;
  function replaceUrl() { urlTimer = null; history.replaceState({ at: entryAt }, "", query(entryAt)); }
  function goTarget(key, how) {
    var n = targets(state.at)[key];
    go(n, how || ((key === "prev" || key === "next") ? "replace" : "push"));
  }

  // --- autoplay -----------------------------------------------------------------------------------
  function speed() { return parseInt(speedSel.value, 10) || 1000; }
  function tick() {
    if (!state.playing) return;
    if (state.at >= length) { setPlaying(false); return; }
    go(targets(state.at).next, "replace");
    state.timer = setTimeout(tick, speed());
  }
  function setPlaying(on) {
    state.playing = on;
    clearTimeout(state.timer);
    playBtn.setAttribute("aria-pressed", on ? "true" : "false");
    playBtn.textContent = on ? "pause ❚❚" : "play ▶";
    if (on) {
      if (state.at >= length) go(0, "replace");
      state.timer = setTimeout(tick, speed());
    }
  }
  function changeSpeed(dir) {
    var i = speedSel.selectedIndex + dir;
    if (i >= 0 && i < speedSel.options.length) speedSel.selectedIndex = i;
  }

  // --- inputs -------------------------------------------------------------------------------------
  Object.keys(NAV).forEach(function (id) {
    $(id).addEventListener("click", function (e) {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // new tab etc.
      e.preventDefault();
      goTarget(NAV[id]);
    });
  });
  playBtn.hidden = false;
  speedSel.closest("label").hidden = false;
  $("jump-go").hidden = true;
  playBtn.addEventListener("click", function () { setPlaying(!state.playing); });
  var copyBtn = $("copy-link");
  if (navigator.clipboard) {
    copyBtn.hidden = false;
    copyBtn.addEventListener("click", function () {
      navigator.clipboard.writeText(location.href).then(function () {
        copyBtn.textContent = "link copied";
        setTimeout(function () { copyBtn.textContent = "copy link"; }, 1500);
      });
    });
  }
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10), "none"); });
  slider.addEventListener("change", function () { go(parseInt(slider.value, 10), "push"); });
  $("jump").addEventListener("submit", function (e) { e.preventDefault(); go(parseInt(slider.value, 10), "push"); });
  viewSel.addEventListener("change", function () { setView(parseView(viewSel.value, "all")); });

  function setView(v) {
    state.view = v;
    if (typeof v === "number") state.bottom = v;
    viewSel.value = String(v);
    root.querySelector("input[name=bottom]").value = state.bottom;
    go(state.at, "none");
    entryAt = state.at;
    replaceUrl();  // at once: a view change is no stream of steps
  }
  function cycleView() {
    var order = ["all"].concat(players.map(function (_, i) { return i; }));
    setView(order[(order.indexOf(state.view) + 1) % order.length]);
  }
  function rotate() {
    var order = frames[state.at].order || players.map(function (_, i) { return i; });
    var k = order.indexOf(state.bottom);
    state.bottom = order[(k + 1) % order.length];
    root.querySelector("input[name=bottom]").value = state.bottom;
    go(state.at, "none");
    entryAt = state.at;
    replaceUrl();
  }
  var undoneBox = $("show-undone");
  if (undoneBox) undoneBox.addEventListener("change", function () {
    state.showUndone = undoneBox.checked;
    root.classList.toggle("show-undone", state.showUndone);
    logStart = null;  // the log's links carry the setting
    go(state.at, "none");
    entryAt = state.at;
    replaceUrl();
  });
  // Swipe on the table to step (phones): left = next event, right = previous; a mostly vertical
  // move is a scroll and left alone (the table has touch-action: pan-y on phones).
  var touch = null;
  table.addEventListener("touchstart", function (e) {
    if (e.touches.length === 1) touch = { x: e.touches[0].clientX, y: e.touches[0].clientY };
  }, { passive: true });
  table.addEventListener("touchend", function (e) {
    if (!touch || !e.changedTouches.length) return;
    var dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) goTarget(dx < 0 ? "next" : "prev");
  });
  function toggleHelp() { var d = $("help"); d.open = !d.open; }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    if (tag === "INPUT" && t.type !== "range" && t.type !== "checkbox") return;
    var onSlider = tag === "INPUT" && t.type === "range";
    var k = e.key, done = true;
    if (tag === "INPUT" && t.type === "checkbox" && (k === " " || k === "Spacebar")) return;  // it toggles the box
    if (onSlider && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].indexOf(k) >= 0) return;
    if (k === "ArrowLeft" || k === "k") goTarget(e.shiftKey && k === "ArrowLeft" ? "prev_trick" : "prev");
    else if (k === "ArrowRight" || k === "j") goTarget(e.shiftKey && k === "ArrowRight" ? "next_trick" : "next");
    else if (k === "ArrowUp") goTarget("prev_trick");
    else if (k === "ArrowDown") goTarget("next_trick");
    else if (k === "PageUp" || k === "p") goTarget("prev_hand");
    else if (k === "PageDown" || k === "n") goTarget("next_hand");
    else if (k === "Home" || k === "0") goTarget("first");
    else if (k === "End" || k === "$") goTarget("last");
    else if (k === " " || k === "Spacebar") setPlaying(!state.playing);
    else if (k === "+" || k === "=") changeSpeed(1);
    else if (k === "-" || k === "_") changeSpeed(-1);
    else if (k === "v") cycleView();
    else if (k === "f") rotate();
    else if (k === "?") toggleHelp();
    else done = false;
    if (done) e.preventDefault();
  });

  window.addEventListener("popstate", function () {
    clearTimeout(urlTimer);  // the entry is another one now: a pending update is not for it
    urlTimer = null;
    var params = new URLSearchParams(location.search);
    var at = params.get("at");
    state.view = parseView(params.get("view"), state.view);
    state.bottom = parseSeat(params.get("bottom"), state.bottom);
    state.showUndone = params.get("undone") === "1";
    root.classList.toggle("show-undone", state.showUndone);
    if (undoneBox) undoneBox.checked = state.showUndone;
    logStart = null;
    viewSel.value = String(state.view);
    go(at === null ? length : parseInt(at, 10), "none");
    entryAt = state.at;
  });

  // A game in play grows (static/replay/live_replay.js brings the new payload): the frames are
  // rebuilt (a hand that ended may open cards of earlier frames). A viewer at the end follows; one
  // who has stepped back stays where they are and is told there is more.
  var liveNote = $("live-note");
  function update(newP) {
    var wasAtEnd = state.at === length, before = length;
    P = newP;
    L = P.labels;
    if (P.cards) Object.assign(CARDS, P.cards);
    length = P.length;
    frames = api.frames = expandFrames(P);
    markUndone();
    slider.max = length;
    root.setAttribute("data-length", length);
    lastSheetFrame = null;
    logStart = null;
    if (wasAtEnd) {
      go(length, "replace");
    } else {
      go(Math.min(state.at, length), "none");
      if (length > before && liveNote) {
        pendingNew += length - before;
        $("live-count").textContent = pendingNew + " new event" + (pendingNew === 1 ? "" : "s");
        liveNote.hidden = false;
      }
    }
  }
  var pendingNew = 0;
  if (liveNote) {
    $("live-latest").addEventListener("click", function (e) {
      e.preventDefault();
      go(length, "push");
    });
  }
  function hideLiveNote() {
    if (liveNote && state.at === length) { liveNote.hidden = true; pendingNew = 0; }
  }

  var api = {
    update: update,
    frames: frames, go: go, goTarget: goTarget, targets: targets, lastRenderMs: 0,
    get at() { return state.at; },
  };
  window.tichuReplay = api;
  history.replaceState({ at: state.at }, "", query(state.at));
  renderLog();
  root.setAttribute("data-ready", "1");
})();
