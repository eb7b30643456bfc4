/* The scorer's entry page (templates/entry/enter.html, docs/entry.md).

   No rule of Tichu lives here. The page asks GET /api/games/{id}/legal/ what the engine accepts
   now and offers exactly that: a card play is enabled only when the picked cards are one of the
   engine's legal plays; a deal or a push is built from the cards the engine says are in the pile
   or in the hand; the score-sheet form is checked by the engine as it is typed (?check=). Every
   entry is POSTed to /api/games/{id}/events/ with the state's `expected_seq`, the session cookie,
   the CSRF token and an Idempotency-Key; a 409 (someone else entered first) stores nothing and
   the page shows the latest state instead. A `penalty` (a missed wish noticed at the table) is
   offered apart, behind a "Penalty…" disclosure and a confirm step, for the seats the engine
   accepts it for now (the endpoint's `penalties`): it ends the hand. */
(function () {
  "use strict";
  var root = document.getElementById("entry");
  if (!root) return;
  var C = JSON.parse(document.getElementById("entry-config").textContent);
  var players = C.players, nSeats = players.length;
  var seatCount = (C.seat_names || players).length;  // Threechu: three players and the dummy
  var $ = function (id) { return document.getElementById(id); };
  var outbox = window.TichuOutbox("tichu-entry:game-" + C.game + ":outbox");  // static/entry/outbox.js

  var S = {
    seq: C.seq,       // the seq the page's state is at: sent as expected_seq
    legal: null,      // the last answer of the legal endpoint
    picked: [],       // indices into the hand (or pile) being picked from
    pickFrom: null,   // "hand:<seat>" or "pile": what `picked` indexes
    dealMode: "hand", // "hand": whole hands (deal events); "card": one card at a time (draw)
    dealSeat: null,
    busy: false,
    pending: null,    // the last write, kept for Retry after a network failure
    checkKey: null,   // the hand_result JSON the engine last approved
    checkTimer: null,
    tab: null,
    penaltyPick: null, // the penalty event being confirmed (one of S.legal.penalties)
    stale: null,      // {seq, what, origin} after a refused (409) write: no write until the scorer
                      // has seen the new state and chosen to enter again (acknowledgeStale)
  };

  // --- small helpers ------------------------------------------------------------------------------

  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function name(seat) {
    if (typeof seat === "number" && seat >= 0 && seat < nSeats) return players[seat];
    var named = (C.seat_names || [])[seat];  // the engine's name of a seat without a player (Threechu's dummy)
    return named !== undefined ? named : "seat " + seat;
  }
  function cardName(code) { return (C.cards[code] || { name: code }).name; }
  function cardHtml(code) {  // the viewer's card markup (templatetags/replay_tags.py)
    var f = C.cards[code] || { cls: "unknown", rank: code, suit: "", name: code };
    return '<span class="card ' + f.cls + '" role="img" aria-label="' + esc(f.name) + '" title="' + esc(f.name) +
      '" data-card="' + esc(code) + '"><span class="rk">' + esc(f.rank) + '</span><span class="su" aria-hidden="true">' +
      esc(f.suit) + "</span></span>";
  }
  function cardsHtml(codes) { return (codes || []).map(cardHtml).join(""); }
  function cardsText(codes) { return (codes || []).map(cardName).join(", "); }
  function key(cards) { return cards.slice().sort().join(" "); }
  function rankName(r) { return C.rank_names[r] || r; }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : C.csrf;
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function describe(e) {
    var who = name(e.seat);
    switch (e.type) {
      case "shuffle": return who + " shuffles (new hand)";
      case "draw": return who + " draws the " + cardName(e.card);
      case "deal": return who + " is dealt " + e.cards.length + " cards";
      case "tichu": return who + " calls Tichu";
      case "grand_tichu": return who + " calls Grand Tichu";
      case "push": return who + " pushes " + Object.keys(e.cards).map(function (t) {
        var c = e.cards[t]; return cardsText(Array.isArray(c) ? c : [c]) + " to " + name(Number(t)); }).join("; ");
      case "play": return who + " plays " + cardsText(e.cards) + (e.phoenix ? " (Phoenix as " + rankName(e.phoenix) + ")" : "") +
        (e.wish ? " and wishes for " + (C.rank_phrases[e.wish] || rankName(e.wish)) : "") + (e.to !== undefined ? "; lead to " + name(e.to) : "");
      case "pass": return who + " passes";
      case "dragon_gift": return who + " gives the Dragon trick to " + name(e.to);
      case "penalty": return penaltyLabel(e) + " (penalty: the hand ends)";
      case "hand_result": return "hand from the score sheet";
      case "undo": return "undo";
      default: return JSON.stringify(e);
    }
  }
  function penaltyLabel(e) {
    var why = String(e.reason || "");
    return why === "missed_wish" ? "Missed wish by " + name(e.seat) : name(e.seat) + ": " + why.replace(/_/g, " ");
  }
  // The engine's reason for a refusal, in the page's words: its message with seat numbers given
  // as the players' names (the code stays in the answer for whoever needs it).
  function reasonWords(err) {
    var msg = String((err && err.message) || "");
    return msg.replace(/\bseats? (\d+)((?:, \d+)*)/g, function (all, first, more) {
      var seats = [first].concat(more ? more.split(", ").filter(Boolean) : []).map(function (x) { return name(Number(x)); });
      return seats.join(", ");
    });
  }
  function say(text, kind) {
    $("status").textContent = text;
    $("status").className = "status" + (kind ? " " + kind : "");
  }
  function alertBox(text, retry) {
    $("alert").hidden = !text;
    $("alert-text").textContent = text || "";
    $("retry").hidden = !retry;
  }

  // --- talking to the API -------------------------------------------------------------------------

  function sessionEnded() {
    alertBox("Your session has ended: log in again (" + C.login_url + "), then Refresh. Nothing typed here is lost.");
  }
  function getJson(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      if (r.redirected && r.url.indexOf("login") >= 0) { sessionEnded(); throw new Error("logged out"); }
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    });
  }

  function refresh(note, kind) {
    return Promise.all([getJson(C.legal_url), getJson(C.panels_url)]).then(function (res) {
      var legal = res[0], panels = res[1];
      if (legal.status === 401 || (legal.status === 403 && legal.body.code === "not_authenticated")) { sessionEnded(); return; }
      if (legal.status !== 200) { alertBox("Could not load the game: " + (legal.body.message || legal.status)); return; }
      var moved = legal.body.seq !== S.seq;
      var handsBefore = S.legal ? (S.legal.state.score_sheet || []).length : null;
      S.legal = legal.body;
      var sheetNow = legal.body.state.score_sheet || [];
      if (handsBefore !== null && sheetNow.length > handsBefore) note = (note ? note + " " : "") + handOver(sheetNow.length, sheetNow[sheetNow.length - 1]);
      S.seq = legal.body.seq;
      if (moved) { S.picked = []; S.pickFrom = null; S.checkKey = null; closePenalty(); }
      if (panels.status === 200) {
        $("sheet-panel").innerHTML = panels.body.sheet;
        $("history-panel").innerHTML = panels.body.history;
        var u = panels.body.undo_target;
        $("undo-what").textContent = u ? "retracts #" + u.seq + ": " + u.text : "";
        $("undo").title = u ? "Undo #" + u.seq + " (" + u.text + ") — key u" : "Nothing to undo";
      }
      render();
      restoreFocus();
      if (note) say(note, kind);
      root.setAttribute("data-seq", String(S.seq));
      root.setAttribute("data-ready", "1");
    }).catch(function (err) {
      if (!err || err.message !== "logged out") alertBox("The server cannot be reached. Your entry is kept; try Refresh.", false);
    });
  }

  // "Hand 3 is over: Ann & Cid +155, Bob & Dee -55 (totals 455 / 345)": the hand's score line.
  function handOver(n, line) {
    var teams = S.legal.state.teams || [], totals = S.legal.state.totals || [];
    var label = function (i) { return teams[i] && teams[i].length ? teams[i].map(name).join(" & ") : "column " + (i + 1); };
    var pts = (line.points || []).map(function (p, i) { return label(i) + " " + (p > 0 ? "+" : "") + p; });
    var text = "Hand " + n + " is over: " + pts.join(", ");
    if (line.double_victory) text += " (" + victoryWord() + ")";
    if (totals.length) text += "; totals " + totals.join(" / ");
    return text + ".";
  }

  // The game moved on without this page's doing (another scorer): say so, load the latest state.
  function changedElsewhere(seq) {
    root.setAttribute("data-conflict", String(seq));
    if (sheetFilled()) markStale(seq, "the hand typed in the score sheet", "save-hand", false);
    else alertBox("The game changed meanwhile: another scorer entered up to #" + seq + ". The latest state is shown; check it before entering.");
    return refresh();
  }

  // --- a refused write is never re-sent by accident ------------------------------------------------
  // After a 409 (or a change noticed while a score sheet was typed) every write is held: Save and
  // the card buttons are disabled and `send` refuses, until the scorer presses "Enter again" next
  // to the message, i.e. has seen the new state. The message stands next to the control that was
  // used (the score sheet's Save, or the card controls) and in the sticky bar.
  function sheetFilled() { return !!($("out-0") && $("out-0").value !== ""); }
  function markStale(seq, what, origin, refused) {
    S.stale = { seq: seq, what: what, origin: origin };
    var text = (refused ? "Not saved: " : "Not sent: ") + what + ". The game changed meanwhile (another scorer entered up to #" + seq +
      "); the latest state is shown. Check it, then press “Enter again” if the entry is still needed.";
    var where = origin === "save-hand" ? "sheet" : "cards";
    ["sheet", "cards"].forEach(function (w) {
      var box = $(w + "-stale");
      box.hidden = w !== where;
      box.querySelector(".stale-text").textContent = w === where ? text : "";
    });
    $("bar-stale").hidden = false;
    $("bar-stale-text").textContent = (refused ? "Not saved" : "Changed meanwhile") + ": game at #" + seq;
    $("hand-form").classList.toggle("stale", where === "sheet");
    root.setAttribute("data-stale", "1");
  }
  function acknowledgeStale() {
    var was = S.stale;
    S.stale = null;
    S.checkKey = null;  // the form is checked again at the new position before Save comes back
    ["sheet-stale", "cards-stale", "bar-stale"].forEach(function (id) { $(id).hidden = true; });
    $("hand-form").classList.remove("stale");
    root.setAttribute("data-stale", "0");
    say("");
    render();
    // back to where the entry is made again: the form's first field, or the card controls
    var back = was && was.origin === "save-hand" ? ($("call-0") || $("out-0"))
      : document.querySelector("#seats .picker .pick, #controls button:not([disabled])");
    if (back) back.focus();
  }

  // Keyboard users keep their place: after an entry the page is redrawn, so focus goes back to
  // the same control if it is still there, else to the first control of the card-by-card entry.
  function rememberFocus() {
    var a = document.activeElement;
    if (S.refocus || !a || a === document.body || !$("card-entry").contains(a)) return;
    S.refocus = a.id || "__controls";
  }
  function restoreFocus() {
    var want = S.refocus;
    S.refocus = null;
    if (!want) return;
    var el = want !== "__controls" ? $(want) : null;
    if (!el || el.disabled || !el.getClientRects().length) el = document.querySelector("#seats .picker .pick, #controls button:not([disabled]), #controls select, #controls input");
    if (el) el.focus();
  }

  function send(events, what, origin) {
    if (S.busy) return Promise.resolve(false);
    if (S.stale) {  // a tap after a refusal: nothing is sent, the message is pointed out again
      say("Not sent: the game changed meanwhile. Check the new state, then press “Enter again”.", "bad");
      return Promise.resolve(false);
    }
    var active = document.activeElement;
    rememberFocus();
    origin = origin || (active && $("hand-form").contains(active) ? "save-hand" : "cards");
    if (outbox.size() && origin !== "save-hand") {
      // a card entry needs the server's answer to know what comes next: it waits for the queue
      say("Not sent: the card controls come back once the entries kept in this browser are sent.", "bad");
      return Promise.resolve(false);
    }
    // queued entries come first: this one is built on the position after them
    var queued = outbox.items().reduce(function (n, it) { return n + JSON.parse(it.body).events.length; }, 0);
    var req = { body: JSON.stringify({ expected_seq: S.seq + queued, events: events }), key: newKey(), what: what, origin: origin };
    if (outbox.size() || navigator.onLine === false) {
      outbox.add(req);
      say("Kept in this browser, not yet sent: " + what + ".", "bad");
      renderOutbox();
      render();
      scheduleFlush();
      return Promise.resolve("queued");
    }
    return post(req);
  }

  // --- offline at the table: the outbox (static/entry/outbox.js) ---------------------------------------
  // Entries made without a connection wait in order, shown as "not yet sent", and go out one by one
  // (each with its own key and expected_seq) when the connection returns. A refusal then (409: the
  // game moved on; 422: the rules) stops the flush: what is left is held and shown, never re-sent
  // by itself and never overwriting anything, until the scorer discards it.
  function renderOutbox() {
    var list = outbox.items(), box = $("outbox");
    box.hidden = !list.length;
    root.setAttribute("data-outbox", String(list.length));
    $("bar-outbox").hidden = !list.length;
    if (!list.length) return;
    var held = list.some(function (it) { return it.held; });
    $("outbox-head").textContent = held
      ? list.length + " not sent: refused when sent (" + list[0].held + "); kept here, check the state, then discard"
      : list.length + " not yet sent: " + (navigator.onLine === false ? "offline; they go out in order when the connection returns" : "sending…");
    $("outbox-list").innerHTML = list.map(function (it) {
      return '<li data-key="' + esc(it.key) + '"' + (it.held ? ' class="held"' : "") + ">" + esc(it.what) +
        ' <span class="hint">(at #' + esc(JSON.parse(it.body).expected_seq) + ")</span></li>";
    }).join("");
    $("outbox-discard").hidden = !held;
    $("bar-outbox").textContent = list.length + (held ? " held" : " not yet sent");
  }
  function scheduleFlush() {
    clearTimeout(S.flushTimer);
    if (outbox.size()) S.flushTimer = setTimeout(flush, navigator.onLine === false ? 4000 : 800);
  }
  function flush() {
    var head = outbox.items()[0];
    if (!head || head.held || S.busy) { if (head && !head.held) scheduleFlush(); return; }
    if (navigator.onLine === false) { scheduleFlush(); return; }
    post(head).then(function (ok) { if (ok === true && outbox.size()) flush(); });
  }
  window.addEventListener("online", function () { renderOutbox(); flush(); });
  window.addEventListener("offline", function () { renderOutbox(); });

  function post(req) {
    S.busy = true;
    S.pending = req;
    root.setAttribute("data-busy", "1");
    setDisabled(true);
    say("Saving: " + req.what + "…");
    return fetch(C.events_url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf(), "Idempotency-Key": req.key },
      body: req.body,
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      S.busy = false; S.pending = null; root.setAttribute("data-busy", "0");
      if (res.status === 201) {
        outbox.drop(req.key);
        renderOutbox();
        alertBox("");
        return refresh("Saved: " + req.what + " (#" + res.body.seq + ").").then(function () { return true; });
      }
      if (res.status === 409 || res.status === 422) holdOutbox(req, res.status === 409 ? "the game changed meanwhile" : "refused by the rules");
      if (res.status === 409) {
        markStale(res.body.current_seq, req.what, req.origin, true);
        root.setAttribute("data-conflict", String(res.body.current_seq));
        return refresh("Not saved: " + req.what + ".", "bad").then(function () { return false; });
      }
      if (res.status === 401 || res.body.code === "not_authenticated") {
        say("Not saved: " + req.what + ".", "bad");
        sessionEnded();
      } else if (res.status === 422) {
        var err = res.body.error || res.body;
        say("Not saved: " + req.what + ".", "bad");
        var words = "Refused by the rules (" + (err.code || "invalid") + "): " + (reasonWords(err) || res.body.message || "");
        alertBox(words);
        if (req.origin === "save-hand") setCheck("✗ " + reasonWords(err), false);
        else if ($("play-hint")) $("play-hint").textContent = words;
      } else {
        say("Not saved: " + req.what + ".", "bad");
        alertBox("Not saved (" + res.status + "): " + (res.body.message || "unexpected answer"));
      }
      setDisabled(false);
      render();
      return false;
    }).catch(function () {
      S.busy = false; root.setAttribute("data-busy", "0");
      outbox.addFirst(req);
      say("Kept in this browser, not yet sent: " + req.what + ".", "bad");
      alertBox("Network error: " + req.what + " may not be saved. It is kept in this browser and sent again (with the same key: it cannot be stored twice) when the connection returns; Retry sends it now.", true);
      setDisabled(false);
      renderOutbox();
      render();
      scheduleFlush();
      return false;
    });
  }

  // A queued entry the server refused: it and everything after it (built on it) stay, held.
  function holdOutbox(req, why) {
    if (!outbox.items().some(function (it) { return it.key === req.key; })) return;
    outbox.hold(why);
    renderOutbox();
  }

  function setDisabled(on) {
    root.querySelectorAll("#controls button, #penalty-box button, #undo, #save-hand").forEach(function (b) {
      if (on) { b.setAttribute("data-was-disabled", b.disabled ? "1" : "0"); b.disabled = true; }
      else if (b.hasAttribute("data-was-disabled")) { b.disabled = b.getAttribute("data-was-disabled") === "1"; b.removeAttribute("data-was-disabled"); }
    });
  }

  // --- rendering ----------------------------------------------------------------------------------

  function actionsOf(type) { return (S.legal.actions || []).filter(function (a) { return a.type === type; }); }

  function phaseText() {
    var L = S.legal, st = L.state;
    if (L.status === "finished" || L.phase === "game_over") return "game over";
    var parts = [];
    if (L.phase === "between_hands") {
      var played = (st.score_sheet || []).length;
      parts.push("between hands", played + " hand" + (played === 1 ? "" : "s") + " played");
      if (typeof st.next_shuffler === "number") parts.push(name(st.next_shuffler) + " shuffles next");
      return parts.join(" · ");
    }
    if (st.hand_number) parts.push("hand " + st.hand_number);
    parts.push((L.phase || "").replace(/_/g, " "));
    if (L.phase === "deal" && L.deal && L.deal.next_drawer !== null) parts.push(name(L.deal.next_drawer) + " draws next");
    else if (typeof L.turn === "number") parts.push(name(L.turn) + " to " + (L.phase === "dragon_gift" ? "give the Dragon trick" : "play"));
    return parts.join(" · ");
  }

  function render() {
    var L = S.legal;
    if (!L) return;
    $("seq").textContent = String(L.seq);
    $("phase-text").textContent = phaseText();
    $("undo").disabled = !L.can_undo || !!S.stale;
    renderSheetForm();
    renderSeats();
    renderTrick();
    renderControls();
    renderPenalty();
    if (S.stale || outbox.size()) root.querySelectorAll("#controls button, #penalty-box button").forEach(function (b) { b.disabled = true; });
    if (outbox.size()) {
      $("undo").disabled = true;
      $("controls").insertAdjacentHTML("afterbegin", '<p class="note outbox-wait" id="outbox-wait">' + esc(outbox.items()[outbox.size() - 1].what) +
        ": kept in this browser, not yet sent. The next entry is offered once the server has it.</p>");
    }
    if (!S.tab) selectTab(C.sheet.enabled && (L.phase === "between_hands" || L.phase === "game_over") ? "sheet" : "cards", false);
  }

  function renderSeats() {
    var st = S.legal.state, L = S.legal;
    var teams = st.teams || [], teamOf = {};
    teams.forEach(function (t, i) { t.forEach(function (s) { teamOf[s] = i; }); });
    var order = st.order || players.map(function (_, i) { return i; });
    var html = "";
    order.forEach(function (s) {
      var hand = (st.hands || [])[s] || [];
      var acting = L.turn === s || (L.phase === "deal" && L.deal && L.deal.next_drawer === s);
      var call = (st.calls || {})[String(s)];
      var outRank = (st.out || []).indexOf(s);
      var pickable = pickSource() === "hand:" + s;
      html += '<div class="seat-box' + (acting ? " turn" : "") + (teamOf[s] !== undefined ? " team-" + teamOf[s] : "") +
        (outRank >= 0 ? " is-out" : "") + '" data-seat="' + s + '"' + (acting ? ' aria-current="true"' : "") + ">";
      html += '<div class="seat-head"><span class="seat-name">' + esc(name(s)) + "</span>";
      if (call) html += ' <span class="badge call call-' + call + '" data-call="' + call + '">' + (call === "tichu" ? "Tichu" : "Grand Tichu") + "</span>";
      if (outRank >= 0) html += ' <span class="badge out">out #' + (outRank + 1) + "</span>";
      if (acting) html += ' <span class="badge to-act">' + (L.phase === "deal" ? "draws" : L.phase === "dragon_gift" ? "gives the Dragon" : "to play") + "</span>";
      if (st.received && L.phase === "deal") html += ' <span class="count">' + st.received[s] + " cards</span>";
      html += "</div>";
      if (pickable) html += pickerHtml(hand, "hand:" + s, name(s) + "'s hand");
      else html += '<div class="hand" aria-label="' + esc(name(s)) + "'s hand: " + hand.length + ' cards">' + cardsHtml(hand) + "</div>";
      html += "</div>";
    });
    $("seats").innerHTML = html;
  }

  function renderTrick() {
    var st = S.legal.state, log = st.trick_log || [], html = "";
    if (st.wish) html += '<p class="wish">Wish: <b data-wish="' + esc(st.wish) + '">' + esc(rankName(st.wish)) + "</b></p>";
    if (log.length) {
      html += '<div class="trick-log">';
      log.forEach(function (e) {
        html += '<div class="play" data-seat="' + e.seat + '"><span class="who">' + esc(name(e.seat)) + "</span> " +
          (e.pass ? '<span class="pass">pass</span>' : cardsHtml(e.cards) + ' <span class="combo">' + esc((e.combination || "").replace(/_/g, " ")) + "</span>") + "</div>";
      });
      html += "</div>";
    }
    $("trick-box").innerHTML = html;
  }

  // The cards the scorer picks from: the hand of the seat to play, or the pile during a deal.
  function pickSource() {
    var L = S.legal;
    if (L.phase === "play" && typeof L.turn === "number") return "hand:" + L.turn;
    if (L.phase === "deal" && L.deal && S.dealMode === "hand") return "pile";
    return null;
  }
  function pickCards() {
    var src = pickSource(), st = S.legal.state;
    if (src === "pile") return S.legal.deal.pile;
    if (src && src.indexOf("hand:") === 0) return (st.hands || [])[Number(src.slice(5))] || [];
    return [];
  }
  function pickedCards() {
    var cards = pickCards();
    return S.picked.map(function (i) { return cards[i]; }).filter(function (c) { return c !== undefined; });
  }
  function pickerHtml(cards, src, label) {
    if (S.pickFrom !== src) { S.pickFrom = src; S.picked = []; }
    var html = '<div class="hand picker" role="group" aria-label="' + esc(label) + ': pick cards" data-source="' + esc(src) + '">';
    cards.forEach(function (c, i) {
      var on = S.picked.indexOf(i) >= 0;
      html += '<button type="button" class="pick" data-index="' + i + '" data-card="' + esc(c) + '" aria-pressed="' + on + '">' + cardHtml(c) + "</button>";
    });
    return html + "</div>";
  }

  function button(id, label, event, cls) {
    return '<button type="button" class="btn act' + (cls ? " " + cls : "") + '"' + (id ? ' id="' + id + '"' : "") +
      " data-event='" + esc(JSON.stringify(event)) + "'>" + label + "</button>";
  }

  function renderControls() {
    var L = S.legal, html = "", handled = {};
    var mark = function (list) { list.forEach(function (a) { handled[JSON.stringify(a)] = true; }); };
    if (L.status === "finished" || L.phase === "game_over") {
      html += '<p class="over">The game is over. An undo is still possible.</p>';
    }
    var shuffles = actionsOf("shuffle");
    if (shuffles.length) {
      html += '<div class="group" id="shuffle-group"><h3>New hand: who shuffles?</h3>';
      shuffles.forEach(function (a) { html += button("shuffle-" + a.seat, esc(name(a.seat)) + " shuffles", a); });
      html += "</div>";
      mark(shuffles);
    }
    if (L.phase === "deal" && L.deal) html += dealHtml(mark);
    if (L.phase === "exchange" && L.pushes) html += pushHtml();
    if (L.phase === "play" && typeof L.turn === "number") html += playHtml(mark);
    var gifts = actionsOf("dragon_gift");
    if (gifts.length) {
      html += '<div class="group" id="gift-group"><h3>' + esc(name(gifts[0].seat)) + " gives the Dragon trick to</h3>";
      gifts.forEach(function (a) { html += button("gift-" + a.to, esc(name(a.to)), a); });
      html += "</div>";
      mark(gifts);
    }
    var bombSeats = Object.keys(L.bombs_out_of_turn || {});
    if (bombSeats.length) {
      html += '<div class="group" id="bomb-group"><h3>Bombs out of turn</h3>';
      bombSeats.forEach(function (s) {
        L.bombs_out_of_turn[s].forEach(function (a, i) {
          html += button("bomb-" + s + "-" + i, esc(name(a.seat)) + " bombs " + cardsHtml(a.cards), a, "bomb");
        });
      });
      html += "</div>";
    }
    var calls = actionsOf("tichu").concat(actionsOf("grand_tichu"));
    if (calls.length) {
      html += '<div class="group" id="call-group"><h3>Calls</h3>';
      calls.forEach(function (a) {
        html += button(a.type + "-" + a.seat, esc(name(a.seat)) + ": " + (a.type === "tichu" ? "Tichu" : "Grand Tichu"), a, "call");
      });
      html += "</div>";
      mark(calls);
    }
    var others = (L.actions || []).filter(function (a) { return !handled[JSON.stringify(a)]; });
    if (others.length) {
      html += '<div class="group" id="other-group"><h3>Other legal events</h3>';
      others.slice(0, 200).forEach(function (a, i) { html += button("other-" + i, esc(describe(a)), a); });
      html += "</div>";
    }
    if (!html) html = '<p class="note">Nothing to enter here now' + (L.phase === "between_hands" ? "." : ": see the score sheet.") + "</p>";
    $("controls").innerHTML = html;
    updatePlay();
    updateDeal();
  }

  // --- the penalty: apart from the other controls, behind a disclosure and a confirm step -------------

  function penaltiesNow() { return (S.legal && S.legal.penalties) || []; }
  function penaltyId(e) { return "penalty-" + e.seat + (e.reason === "missed_wish" ? "" : "-" + e.reason); }
  function samePenalty(a, b) { return !!a && !!b && a.seat === b.seat && a.reason === b.reason; }

  function renderPenalty() {
    var box = $("penalty-box"), list = penaltiesNow();
    if (!list.some(function (e) { return samePenalty(e, S.penaltyPick); })) S.penaltyPick = null;
    box.hidden = !list.length;
    if (!list.length) box.open = false;
    $("penalty-seats").innerHTML = list.map(function (e, i) {
      return '<button type="button" class="btn penalty-seat" id="' + esc(penaltyId(e)) + '" data-index="' + i +
        '" aria-controls="penalty-confirm" aria-pressed="' + samePenalty(e, S.penaltyPick) + '">' + esc(penaltyLabel(e)) + "</button>";
    }).join(" ");
    var e = S.penaltyPick;
    $("penalty-confirm").hidden = !e;
    if (!e) { $("penalty-question").textContent = ""; return; }
    var st = S.legal.state, opponents = (st.teams || []).filter(function (t) { return t.indexOf(e.seat) < 0; });
    $("penalty-question").innerHTML = "<b>" + esc(penaltyLabel(e)) + ": end hand " + esc(st.hand_number || "") + " now?</b> " +
      (opponents.length ? esc(opponents.map(function (t) { return t.map(name).join(" & "); }).join(", ")) + " win the hand. " : "") +
      "Undo can retract it afterwards.";
  }
  function choosePenalty(i) {
    S.penaltyPick = penaltiesNow()[i] || null;
    renderPenalty();
    if (S.penaltyPick) $("penalty-no").focus();  // the safe choice first: Tab goes on to the confirm button
  }
  function cancelPenalty(focus) {
    var was = S.penaltyPick;
    S.penaltyPick = null;
    renderPenalty();
    if (focus && was && $(penaltyId(was))) $(penaltyId(was)).focus();
  }
  function closePenalty() { S.penaltyPick = null; $("penalty-box").open = false; }
  function confirmPenalty() {
    var e = S.penaltyPick;
    if (!e || S.busy || !penaltiesNow().some(function (p) { return samePenalty(p, e); })) return;
    send([e], describe(e));
  }

  function dealHtml(mark) {
    var D = S.legal.deal, html = '<div class="group" id="deal-group">';
    var draws = actionsOf("draw");
    mark(draws);
    html += '<h3>The deal</h3><div class="mode" role="radiogroup" aria-label="Deal entry">' +
      '<label><input type="radio" name="deal-mode" value="hand"' + (S.dealMode === "hand" ? " checked" : "") + "> whole hands</label> " +
      '<label><input type="radio" name="deal-mode" value="card"' + (S.dealMode === "card" ? " checked" : "") + "> card by card</label></div>";
    if (S.dealMode === "card") {
      html += '<p>' + esc(name(D.next_drawer)) + ' draws (' + D.pile.length + ' cards left): pick the card.</p>';
      html += '<label class="row">Type the card <input id="draw-code" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e.g. Ts, ph" size="8"></label>';
      html += '<div class="hand picker" id="draw-cards">';
      draws.forEach(function (a) {
        html += '<button type="button" class="pick act" data-card="' + esc(a.card) + "\" data-event='" + esc(JSON.stringify(a)) + "'>" + cardHtml(a.card) + "</button>";
      });
      html += "</div>";
    } else {
      var seats = Object.keys(D.remaining).map(Number).filter(function (s) { return D.remaining[String(s)] > 0; });
      if (S.dealSeat === null || seats.indexOf(S.dealSeat) < 0) S.dealSeat = seats.indexOf(D.next_drawer) >= 0 ? D.next_drawer : seats[0];
      html += '<label class="row">Cards for <select id="deal-seat">' + seats.map(function (s) {
        return '<option value="' + s + '"' + (s === S.dealSeat ? " selected" : "") + ">" + esc(name(s)) + " (" + D.remaining[String(s)] + " to deal)</option>";
      }).join("") + "</select></label>";
      html += '<label class="row">Type cards <input id="card-codes" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e.g. Ts 9r ph"></label>';
      html += pickerHtml(D.pile, "pile", "The cards not dealt yet");
      html += '<p><button type="button" class="btn primary" id="deal-btn" disabled>Deal</button> <button type="button" class="btn" id="deal-clear">Clear picks</button></p>';
    }
    return html + "</div>";
  }

  function updateDeal() {
    var btn = $("deal-btn");
    if (!btn) return;
    var D = S.legal.deal, picked = pickedCards(), want = D.remaining[String(S.dealSeat)] || 0;
    btn.disabled = S.busy || !!S.stale || picked.length === 0 || picked.length > want;
    btn.textContent = "Deal " + picked.length + " of " + want + " cards to " + name(S.dealSeat);
  }

  function pushHtml() {
    var P = S.legal.pushes, st = S.legal.state, html = '<div class="group" id="push-group"><h3>The exchange</h3>';
    var seats = Object.keys(P).map(Number);
    if (!seats.length) return "";
    seats.forEach(function (s) {
      var hand = st.hands[s] || [];
      html += '<fieldset class="push" data-seat="' + s + '"><legend>' + esc(name(s)) + " pushes</legend>";
      Object.keys(P[String(s)]).forEach(function (t) {
        for (var k = 0; k < P[String(s)][t]; k++) {
          html += '<label class="row">to ' + esc(name(Number(t))) + ' <select class="push-card" data-to="' + t + '"><option value="">—</option>' +
            hand.map(function (c) { return '<option value="' + esc(c) + '">' + esc(cardName(c)) + "</option>"; }).join("") + "</select></label>";
        }
      });
      html += '<button type="button" class="btn push-btn" id="push-' + s + '" data-seat="' + s + '">Push</button></fieldset>';
    });
    return html + "</div>";
  }

  function playHtml(mark) {
    var L = S.legal, seat = L.turn, html = '<div class="group" id="play-group">';
    var plays = actionsOf("play").filter(function (a) { return a.seat === seat; });
    var passes = actionsOf("pass");
    mark(plays); mark(passes);
    html += "<h3>" + esc(name(seat)) + " to play: pick the cards above</h3>";
    html += '<label class="row">Type cards <input id="card-codes" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e.g. 9r 9j, ph, ma"></label>';
    html += '<div id="play-options"></div>';
    html += '<p><button type="button" class="btn primary" id="play-btn" disabled>Play</button> ';
    passes.forEach(function (a) { html += button("pass-btn", "Pass", a) + " "; });
    html += '<button type="button" class="btn" id="pick-clear">Clear picks</button></p>';
    var rest = passes.length ? passesToTheWinner(passes[0]) : null;
    if (rest) {
      html += '<p><button type="button" class="btn" id="pass-all" disabled data-events=\'' + esc(JSON.stringify(rest)) + "'>" +
        esc(rest.map(function (e) { return name(e.seat); }).join(", ")) + " pass: " + esc(name(S.legal.state.trick_winner)) + " wins the trick</button></p>";
      confirmPassAll(rest);
    }
    html += '<p id="play-hint" class="hint" aria-live="polite"></p>';
    return html + "</div>";
  }

  // "Everyone else passes" in one tap: the passes from the seat to act round to the trick's
  // winner, offered only once the engine has accepted the whole list (?check=) at this position.
  function passesToTheWinner(pass) {
    var st = S.legal.state, order = st.order || [], out = st.out || [], winner = st.trick_winner;
    if (typeof winner !== "number" || !(st.trick || []).length || order.indexOf(S.legal.turn) < 0) return null;
    var list = [], seat = S.legal.turn;
    for (var guard = 0; seat !== winner && guard < order.length; guard++) {
      if (out.indexOf(seat) < 0) { var e = JSON.parse(JSON.stringify(pass)); e.seat = seat; list.push(e); }
      seat = order[(order.indexOf(seat) + 1) % order.length];
    }
    return seat === winner && list.length >= 2 ? list : null;
  }
  function confirmPassAll(list) {
    var seq = S.seq;
    getJson(C.legal_url + "?check=" + encodeURIComponent(JSON.stringify(list))).then(function (res) {
      var btn = $("pass-all"), check = res.body && res.body.check;
      if (!btn || S.seq !== seq || !check || !check.ok) return;
      btn.disabled = S.busy || !!S.stale || outbox.size() > 0;
      btn.setAttribute("data-checked", "1");
    }).catch(function () {});
  }

  // The legal plays made of exactly the picked cards, and the choices that tell them apart.
  function matchingPlays() {
    var seat = S.legal.turn, k = key(pickedCards());
    return actionsOf("play").filter(function (a) { return a.seat === seat && key(a.cards) === k; });
  }
  var CHOICE_KEYS = ["wish", "phoenix", "to"];
  function chosenPlay() {
    var plays = matchingPlays();
    if (!plays.length) return null;
    var want = {};
    CHOICE_KEYS.forEach(function (k) {
      var el = $("choice-" + k);
      if (el) want[k] = el.value;
    });
    return plays.filter(function (a) {
      return CHOICE_KEYS.every(function (k) {
        if (!(k in want)) return true;
        var v = a[k] === undefined ? "" : String(a[k]);
        return v === want[k];
      });
    })[0] || null;
  }
  function updatePlay() {
    var btn = $("play-btn");
    if (!btn) return;
    var plays = matchingPlays(), box = $("play-options"), html = "";
    var prev = {};
    CHOICE_KEYS.forEach(function (k) { var el = $("choice-" + k); if (el) prev[k] = el.value; });
    CHOICE_KEYS.forEach(function (k) {
      var values = [];
      plays.forEach(function (a) { var v = a[k] === undefined ? "" : String(a[k]); if (values.indexOf(v) < 0) values.push(v); });
      if (values.length < 2 && !(k === "wish" && values.length === 1 && values[0] !== "")) return;
      var label = k === "wish" ? "Wish" : k === "phoenix" ? "Phoenix stands for" : "Lead goes to";
      html += '<label class="row">' + label + ' <select id="choice-' + k + '">' + values.map(function (v) {
        var text = v === "" ? (k === "wish" ? "no wish" : "the highest reading") : (k === "to" ? name(Number(v)) : rankName(v));
        return '<option value="' + esc(v) + '"' + (prev[k] === v ? " selected" : "") + ">" + esc(text) + "</option>";
      }).join("") + "</select></label>";
    });
    box.innerHTML = html;
    var play = chosenPlay(), picked = pickedCards();
    btn.disabled = S.busy || !!S.stale || !play;
    btn.textContent = play ? "Play " + cardsText(play.cards) : "Play";
    var hint = $("play-hint");
    if (hint) hint.textContent = !picked.length ? "" : play ? "" : "Not a legal play here: " + cardsText(picked) + ".";
    if (picked.length && !plays.length) explainRefusal({ type: "play", seat: S.legal.turn, cards: picked });
  }

  // Why the engine refuses the picked cards: asked with ?check= (the engine's reason, e.g. the
  // wish), shown next to the Play button. Only the latest question's answer is shown.
  function explainRefusal(event) {
    var k = JSON.stringify(event), seq = S.seq;
    S.explaining = k;
    getJson(C.legal_url + "?check=" + encodeURIComponent(k)).then(function (res) {
      var hint = $("play-hint"), check = res.body && res.body.check;
      if (S.explaining !== k || S.seq !== seq || !hint || !check || check.ok) return;
      hint.textContent = "Not a legal play here: " + cardsText(event.cards) + ": " + reasonWords(check.error) + ".";
      hint.setAttribute("data-code", check.error.code);
    });
  }

  // --- the score-sheet form -----------------------------------------------------------------------

  function sheetTeams() { return S.legal.state.teams || []; }

  function renderSheetForm() {
    var L = S.legal, open = L.phase === "between_hands";
    $("hand-blocked").hidden = open || L.phase === "game_over";
    var teams = sheetTeams();
    [0, 1].forEach(function (i) {
      var label = $("points-label-" + i);
      if (!label) return;
      if (C.sheet.dealer) label.textContent = i === 0 ? "Dealer & dummy" : "Opponents";
      else if (teams[i]) label.textContent = teams[i].map(name).join(" & ");
    });
    $("hand-form").querySelectorAll("select, input").forEach(function (el) { el.disabled = !open; });
    if (open) syncDoubleVictory();
    checkHand();
  }

  function dvChecked() { return !!($("double-victory") && $("double-victory").checked); }

  // A double (Tichu) or triple (Tientsin) victory: the first out's team-mates follow in seat order.
  function syncDoubleVictory() {
    var dv = dvChecked();
    if ($("points-0")) $("points-0").disabled = $("points-1").disabled = dv || S.legal.phase !== "between_hands";
    if (!dv) return;
    var first = $("out-0").value;
    if (first === "") return;
    var mates = teamMates(Number(first));
    for (var k = 0; k < mates.length && k + 1 < C.sheet.sweep; k++) if ($("out-" + (k + 1))) $("out-" + (k + 1)).value = String(mates[k]);
  }
  function teamMates(seat) {
    if (C.sheet.dealer && $("dealer")) {  // Threechu: the dealer plays with the dummy (seat 3)
      var d = Number($("dealer").value), dummy = seatCount - 1;
      var side = seat === d || seat === dummy ? [d, dummy] : [0, 1, 2].filter(function (s) { return s !== d; });
      return side.filter(function (s) { return s !== seat; });
    }
    var team = sheetTeams().filter(function (t) { return t.indexOf(seat) >= 0; })[0] || [];
    return team.filter(function (s) { return s !== seat; });
  }

  function handEvent() {
    var calls = {};
    for (var s = 0; s < nSeats; s++) {
      var c = $("call-" + s);
      if (c && c.value) calls[String(s)] = c.value;
    }
    var out = [];
    document.querySelectorAll(".out-select").forEach(function (sel) { if (sel.value !== "") out.push(Number(sel.value)); });
    var dv = dvChecked();
    if (dv) out = out.slice(0, C.sheet.sweep);
    else if (out.length === seatCount - 1) {
      for (var t = 0; t < seatCount; t++) if (out.indexOf(t) < 0) { out.push(t); break; }
    }
    var event = { type: "hand_result", calls: calls, out: out };
    if (!dv && $("points-0")) {
      var p0 = $("points-0").value, p1 = $("points-1").value;
      if (p0 !== "" && p1 !== "") event.points = [Number(p0), Number(p1)];
    }
    if ($("dealer")) event.dealer = Number($("dealer").value);
    return event;
  }

  // What the browser itself can say at once (the field's declared bounds), before the engine's answer.
  function fieldProblem() {
    if ($("out-0").value === "") return "Who went out first?";
    var seen = {};
    var dup = false;
    document.querySelectorAll(".out-select").forEach(function (sel) { if (sel.value !== "") { if (seen[sel.value]) dup = true; seen[sel.value] = true; } });
    if (dup) return "A player goes out only once.";
    if (finishingOrder()) {
      var empty = Array.prototype.filter.call(document.querySelectorAll(".out-select"), function (sel) { return sel.value === ""; });
      if (empty.length) return "The whole finishing order is needed: who was " + empty[0].closest("label").firstChild.textContent.trim() + "?";
      return null;
    }
    if (dvChecked() || !$("points-0")) return null;
    var p = [$("points-0"), $("points-1")];
    for (var i = 0; i < 2; i++) {
      if (p[i].value === "") return "Card points: type one team's points.";
      if (!p[i].checkValidity()) {
        if (p[i].validity.stepMismatch) return "Card points are a multiple of 5 (" + p[i].value + " is not).";
        if (p[i].validity.rangeUnderflow || p[i].validity.rangeOverflow) return "Card points lie between -25 and 125 (" + p[i].value + " does not).";
        return "Card points: " + p[i].validationMessage;
      }
    }
    return null;
  }

  function setCheck(text, ok) {
    var line = $("hand-check");
    line.textContent = text;
    line.className = "check-line " + (ok === true ? "ok" : ok === false ? "bad" : "");
    // enabled while the engine is asked (Enter then saves once it agrees), disabled when it refused
    $("save-hand").disabled = ok === false || S.busy || !!S.stale || !S.legal || S.legal.phase !== "between_hands";
  }

  function checkHand() {
    clearTimeout(S.checkTimer);
    if (!S.legal || S.legal.phase !== "between_hands") { S.checkKey = null; S.submitWhenChecked = false; setCheck("", null); return; }
    if (S.stale && S.stale.origin === "save-hand") {  // no "✓ accepted" on a form built on an old state
      S.checkKey = null; S.submitWhenChecked = false;
      setCheck("This form was filled before the game changed: compare it with the new state first.", false);
      return;
    }
    var problem = fieldProblem();
    if (problem) { S.checkKey = null; S.submitWhenChecked = false; setCheck(problem, false); return; }
    if (offlineForm()) { S.checkKey = null; setCheck("Not checked yet: the rules check it when it is sent (entries are waiting to go out).", null); return; }
    var event = handEvent(), k = JSON.stringify(event);
    if (k === S.checkKey) return;  // approved already at this seq
    S.checkKey = null;
    setCheck("Checking…", null);
    S.checkTimer = setTimeout(function () {
      getJson(C.legal_url + "?check=" + encodeURIComponent(k)).then(function (res) {
        if (JSON.stringify(handEvent()) !== k) return;  // typed on meanwhile
        var check = res.body.check;
        if (res.status !== 200 || !check) { setCheck(res.body.message || "Could not check.", false); return; }
        if (res.body.seq !== S.seq) { changedElsewhere(res.body.seq); return; }
        if (check.ok) {
          S.checkKey = k;
          setCheck("✓ The rules accept this hand: " + summary(event), true);
          if (S.submitWhenChecked) { S.submitWhenChecked = false; submitHand(); }
        } else { S.submitWhenChecked = false; setCheck("✗ " + reasonWords(check.error), false); }
      });
    }, 150);
  }

  function summary(e) {
    var parts = ["out " + e.out.map(name).join(" › ")];
    Object.keys(e.calls).forEach(function (s) { parts.push(name(Number(s)) + " " + (e.calls[s] === "tichu" ? "Tichu" : "Grand Tichu")); });
    parts.push(e.points ? "card points " + e.points.join(" / ") : finishingOrder() ? "finishing order" : victoryWord());
    return parts.join("; ");
  }

  function finishingOrder() { return !C.sheet.points && !C.sheet.sweep; }
  function victoryWord() { return C.sheet.sweep === 3 ? "triple victory" : "double victory"; }

  function otherTeamPoints(ev) {
    var me = ev.target, other = $("points-" + (me.getAttribute("data-team") === "0" ? "1" : "0"));
    if (me.value === "") { other.value = ""; return; }
    var v = Number(me.value);
    if (isFinite(v)) other.value = String(100 - v);  // the two teams' card points make 100
  }

  // --- typed card codes ---------------------------------------------------------------------------

  // The words a scorer may type for a card are the engine's (games/engine/faces.py CARD_WORDS,
  // lower-cased): the API reads the same words, so the page and the API cannot differ.
  function codeOf(word) {
    var w = word.trim();
    if (!w) return null;
    return C.card_words[w.toLowerCase()] || w;
  }
  function pickTyped(text) {
    var cards = pickCards(), picked = [], missing = [];
    text.split(/[\s,]+/).forEach(function (w) {
      var code = codeOf(w);
      if (!code) return;
      for (var i = 0; i < cards.length; i++) {
        if (cards[i] === code && picked.indexOf(i) < 0) { picked.push(i); return; }
      }
      missing.push(w);
    });
    S.picked = picked;
    return missing;
  }

  // --- events from the page -----------------------------------------------------------------------

  function selectTab(which, focus) {
    S.tab = which;
    var sheet = which === "sheet";
    $("tab-sheet").setAttribute("aria-selected", String(sheet));
    $("tab-cards").setAttribute("aria-selected", String(!sheet));
    $("sheet-entry").hidden = !sheet;
    $("card-entry").hidden = sheet;
    if (focus) $(sheet ? "tab-sheet" : "tab-cards").focus();
  }
  document.querySelector(".tabs").addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    ev.preventDefault();
    if (!$("tab-sheet").hidden) selectTab(S.tab === "sheet" ? "cards" : "sheet", true);
  });
  $("tab-sheet").addEventListener("click", function () { selectTab("sheet"); });
  $("tab-cards").addEventListener("click", function () { selectTab("cards"); });

  function rerenderPicks() {
    document.querySelectorAll(".picker .pick[data-index]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(S.picked.indexOf(Number(b.getAttribute("data-index"))) >= 0));
    });
    updatePlay();
    updateDeal();
  }

  root.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest("button") : null;
    if (!t || !root.contains(t) || S.busy) return;
    if (t.classList.contains("stale-ack")) { acknowledgeStale(); return; }
    if (S.stale && t.id !== "refresh" && !t.closest(".tabs") && !t.classList.contains("pick")) { send([], ""); return; }
    if (t.classList.contains("pick") && t.hasAttribute("data-index")) {
      var i = Number(t.getAttribute("data-index")), at = S.picked.indexOf(i);
      if (at >= 0) S.picked.splice(at, 1); else S.picked.push(i);
      rerenderPicks();
      return;
    }
    if (t.hasAttribute("data-event")) {
      var e = JSON.parse(t.getAttribute("data-event"));
      send([e], describe(e));
      return;
    }
    if (t.classList.contains("penalty-seat")) { choosePenalty(Number(t.getAttribute("data-index"))); return; }
    if (t.id === "penalty-no") { cancelPenalty(true); return; }
    if (t.id === "penalty-yes") { confirmPenalty(); return; }
    if (t.id === "pass-all") { var all = JSON.parse(t.getAttribute("data-events")); send(all, t.textContent); return; }
    if (t.id === "play-btn") { var play = chosenPlay(); if (play) send([play], describe(play)); return; }
    if (t.id === "pick-clear" || t.id === "deal-clear") { S.picked = []; rerenderPicks(); return; }
    if (t.id === "deal-btn") {
      var cards = pickedCards();
      if (cards.length) send([{ type: "deal", seat: S.dealSeat, cards: cards }], name(S.dealSeat) + " is dealt " + cards.length + " cards");
      return;
    }
    if (t.classList.contains("push-btn")) {
      var seat = Number(t.getAttribute("data-seat")), given = {}, problem = null;
      t.closest("fieldset").querySelectorAll(".push-card").forEach(function (sel) {
        if (!sel.value) { problem = "Pick a card for each seat."; return; }
        var to = sel.getAttribute("data-to");
        if (given[to] === undefined) given[to] = sel.value;
        else given[to] = [].concat(given[to], sel.value);
      });
      if (problem) { alertBox(problem); return; }
      var push = { type: "push", seat: seat, cards: given };
      send([push], describe(push));
      return;
    }
  });

  root.addEventListener("change", function (ev) {
    var t = ev.target;
    if (t.name === "deal-mode") { S.dealMode = t.value; S.picked = []; renderSeats(); renderControls(); return; }
    if (t.id === "deal-seat") { S.dealSeat = Number(t.value); updateDeal(); return; }
    if (t.id && t.id.indexOf("choice-") === 0) { updatePlay(); return; }
    if (t.closest && t.closest("#hand-form")) {
      if (t.id === "double-victory" || t.id === "out-0" || t.id === "dealer") syncDoubleVictory();
      checkHand();
    }
  });
  root.addEventListener("input", function (ev) {
    var t = ev.target;
    if (t.id === "points-0" || t.id === "points-1") { otherTeamPoints(ev); checkHand(); return; }
    if (t.id === "card-codes") {
      var missing = pickTyped(t.value);
      rerenderPicks();
      var hint = $("play-hint");
      if (missing.length && hint) hint.textContent = "Not among the cards: " + missing.join(", ");
    }
  });
  root.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && S.penaltyPick) { ev.preventDefault(); cancelPenalty(true); return; }
    if (ev.target.id === "draw-code" && ev.key === "Enter") {
      ev.preventDefault();
      var code = codeOf(ev.target.value || "");
      var draw = actionsOf("draw").filter(function (a) { return a.card === code; })[0];
      if (draw) { S.refocus = "draw-code"; send([draw], describe(draw)); }
      else say("Not in the pile: " + ev.target.value);
      return;
    }
    if (ev.target.id === "card-codes" && ev.key === "Enter") {
      ev.preventDefault();
      S.refocus = "card-codes";
      var b = $("play-btn") || $("deal-btn");
      if (b && !b.disabled) b.click();
    }
  });

  function submitHand() {
    var event = handEvent();
    if (S.busy) return;
    if (S.stale) { send([], ""); return; }
    if (offlineForm()) {  // no engine to ask: the field checks only; the engine judges it when sent
      if (fieldProblem()) return;
      send([event], "hand " + ((S.legal.state.hand_number || 0) + 1 + queuedHands()) + " from the score sheet", "save-hand").then(afterHandSaved);
      return;
    }
    if (S.checkKey !== JSON.stringify(event)) { S.submitWhenChecked = true; checkHand(); return; }
    send([event], "hand " + ((S.legal.state.hand_number || 0) + 1) + " from the score sheet", "save-hand").then(afterHandSaved);
  }
  function afterHandSaved(ok) {
    if (ok) { $("hand-form").reset(); syncDoubleVictory(); checkHand(); ($("call-0") || $("out-0")).focus(); }
  }
  function offlineForm() { return navigator.onLine === false || outbox.size() > 0; }
  function queuedHands() {
    return outbox.items().filter(function (it) { return JSON.parse(it.body).events.some(function (e) { return e.type === "hand_result"; }); }).length;
  }
  $("penalty-box").addEventListener("toggle", function () { if (!$("penalty-box").open && S.penaltyPick) cancelPenalty(false); });
  $("hand-form").addEventListener("submit", function (ev) { ev.preventDefault(); submitHand(); });
  $("hand-form").addEventListener("reset", function () { setTimeout(function () { syncDoubleVictory(); checkHand(); }, 0); });
  $("undo").addEventListener("click", function () { if (!S.busy) send([{ type: "undo" }], "undo"); });
  $("refresh").addEventListener("click", function () { alertBox(""); refresh("Latest state loaded."); });
  $("retry").addEventListener("click", function () { if (!S.busy) flush(); });
  $("outbox-discard").addEventListener("click", function () {
    outbox.clear();
    renderOutbox();
    say("The held entries were discarded; nothing of them was stored.");
    refresh();
  });

  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target.tagName || "").toLowerCase();
    if (ev.ctrlKey || ev.altKey || ev.metaKey || tag === "input" || tag === "select" || tag === "textarea") return;
    if (ev.key === "u") { ev.preventDefault(); $("undo").click(); }
    else if (ev.key === "r") { ev.preventDefault(); $("refresh").click(); }
    else if (ev.key === "s") { ev.preventDefault(); selectTab("sheet", true); }
    else if (ev.key === "c") { ev.preventDefault(); selectTab("cards", true); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || S.busy) return;
    getJson(C.legal_url).then(function (res) { if (res.status === 200 && res.body.seq !== S.seq) changedElsewhere(res.body.seq); });
  });

  window.tichuEntry = { state: S, refresh: refresh, send: send, outbox: outbox };
  renderOutbox();
  refresh().then(function () { scheduleFlush(); });  // entries kept from an earlier visit go out
})();
