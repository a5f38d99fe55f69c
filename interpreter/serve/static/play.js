// One seat's page: draws the board the server sends for this seat only, and sends its choices.
// The seat's token is in the link's fragment (never sent with the page request); the socket carries it.
"use strict";
const $ = (id) => document.getElementById(id);
const [, , table, seat] = location.pathname.split("/");
const token = decodeURIComponent(location.hash.slice(1));
const STEP_OVER = 12;          // longer option lists are chosen in steps
let board = null, chosen = [], socket = null;

// this browser remembers the seats it opened, so that the lobby can give them back (the link is shown once)
const SEATS_KEPT = "rulebook-seats";
function keepSeat(title, name) {
  if (!token) return;
  try {
    const kept = JSON.parse(localStorage.getItem(SEATS_KEPT) || "{}");
    kept[`${table}/${seat}`] = {table, seat: name || seat, title, url: location.pathname + location.hash,
                                at: Date.now()};
    localStorage.setItem(SEATS_KEPT, JSON.stringify(kept));
  } catch (e) { /* storage off (a private window): nothing is kept */ }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function hue(label) {            // the same colour for the same kind of card, another for every other kind
  const word = String(label).split(/[ \[]/)[0];
  if (board && board.palette && word in board.palette) return board.palette[word];
  let h = 0;
  for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

function tile(label, count, note) {
  const t = el("span", "card");
  t.style.setProperty("--h", hue(label));
  t.appendChild(el("span", "name", label));
  if (count > 1) t.appendChild(el("span", "count", "×" + count));
  if (note) t.appendChild(el("span", "note", note));
  t.dataset.card = label;
  return t;
}

function entry(m) {               // one zone: card tiles, grouped tiles, or how many
  const box = el("span", "cards");
  if (m.hidden) { box.appendChild(el("span", "muted", "hidden")); return box; }
  if (m.groups) m.groups.forEach((g) => box.appendChild(tile(g.label, g.count, g.note)));
  else if (m.cards) m.cards.forEach((c) => box.appendChild(tile(c, 1)));
  else {
    box.appendChild(el("span", "back", `${m.count} card${m.count === 1 ? "" : "s"}`));
    if (m.top) box.appendChild(tile(m.top, 1, "top"));
  }
  if (m.known) m.known.forEach(([i, c]) => box.appendChild(tile(c, 1, `#${i}, you know`)));
  if ((m.groups || m.cards) && m.count === 0) box.appendChild(el("span", "muted", "empty"));
  return box;
}

function drawZones(b) {
  const box = $("zones");
  box.innerHTML = "";
  for (const z of b.zones) {
    const sec = el("div", "panel zone");
    sec.appendChild(el("h2", "", z.label));
    for (const m of z.members) {
      const row = el("div", "row");
      if (m.key !== null) row.appendChild(el("span", "key", m.key));
      row.appendChild(entry(m));
      sec.appendChild(row);
    }
    box.appendChild(sec);
  }
}

function drawSeats(b) {
  const box = $("seats");
  box.innerHTML = "";
  const seats = [...b.seats].sort((x, y) => (y.you ? 1 : 0) - (x.you ? 1 : 0));
  for (const s of seats) {
    // whose move it is: the current player, or everyone a simultaneous decision asks
    const now = b.together ? b.together.includes(s.seat) : b.current === s.seat;
    const sec = el("div", "panel seat" + (s.you ? " you" : "") + (now && !b.result ? " turn" : ""));
    sec.dataset.seat = s.seat;
    const head = el("h2", "", (s.you ? "You, " : "") + s.seat + (s.name !== s.seat ? ` (${s.name})` : ""));
    const facts = [...s.vars.map((v) => `${v.name} ${v.value}`),
                   ...Object.entries(s.scores).map(([k, v]) => `${(b.score_names || {})[k] || k} ${v}`)];
    if (facts.length) head.appendChild(el("span", "facts", facts.join(" · ")));
    if (b.agents && b.agents[Number(s.seat.slice(1)) - 1] !== "human") head.appendChild(el("span", "bot", "bot"));
    sec.appendChild(head);
    for (const z of s.zones) {
      for (const m of z.members) {
        const row = el("div", "row");
        row.dataset.zone = z.zone;
        row.appendChild(el("span", "key", z.label + (m.key !== null ? " " + m.key : "") +
                                         (m.count !== null && (m.groups || m.cards) ? ` (${m.count})` : "")));
        row.appendChild(entry(m));
        sec.appendChild(row);
      }
    }
    box.appendChild(sec);
  }
}

function send(index) {
  chosen = [];
  // one answer per decision: the buttons wait for the server's next board (or its refusal)
  document.querySelectorAll("#decision button").forEach((b) => { b.disabled = true; });
  socket.send(JSON.stringify({choose: index, at: board.decision.at}));
}

function drawDecision(b) {
  const box = $("decision");
  box.innerHTML = "";
  if (b.result) { box.hidden = true; return; }
  box.hidden = false;
  if (b.chosen) { box.appendChild(el("p", "wait", `You chose: ${b.chosen}. Waiting for the others…`)); return; }
  const d = b.decision;
  if (!d) {
    const who = (b.waiting_for || []).join(", ");
    box.appendChild(el("p", "wait", who ? `Waiting for ${who}…` : "Waiting…"));
    return;
  }
  const parts = d.options.map((o) => o.parts);
  const left = d.options.map((o, i) => i).filter((i) => chosen.every((c, k) => parts[i][k] === c));
  const stepping = d.options.length > STEP_OVER;
  box.appendChild(el("h2", "", d.prompt + (chosen.length ? " — " + chosen.join(" ") : "") +
                              (d.now ? "" : " (everyone chooses at once)")));
  const buttons = el("div", "options");
  const next = [];
  if (stepping) left.forEach((i) => { const p = parts[i][chosen.length];
                                      if (p !== undefined && !next.includes(p)) next.push(p); });
  if (stepping && next.length > 1) {
    next.forEach((p) => {
      const btn = el("button", "option step", p);
      btn.onclick = () => {
        chosen.push(p);
        const rest = left.filter((i) => parts[i][chosen.length - 1] === p);
        if (rest.length === 1) send(rest[0]); else drawDecision(board);
      };
      buttons.appendChild(btn);
    });
  } else {
    left.forEach((i) => {
      const btn = el("button", "option", d.options[i].label);
      btn.onclick = () => send(i);
      buttons.appendChild(btn);
    });
  }
  box.appendChild(buttons);
  if (chosen.length) {
    const back = el("button", "back-step", "← back");
    back.onclick = () => { chosen.pop(); drawDecision(board); };
    box.appendChild(back);
  }
  if (b.can_undo) {
    const u = el("button", "undo", "↶ Undo your last move");
    u.title = "Take back your last move and the bots' moves after it (the cards you cannot see are shuffled again)";
    u.onclick = undo;
    box.appendChild(u);
  }
}

function showError(msg) {      // a refusal: its words, and the ruleset's line with a caret when the ruleset is at fault
  const box = $("error");
  box.textContent = msg.error || "";
  if (msg.source) {
    const pre = document.createElement("pre");
    pre.textContent = msg.source;
    box.appendChild(pre);
  }
}

let resultClosed = false;
$("show-result").onclick = () => { resultClosed = false; drawResult(board); };

async function post(what) {       // a request of this seat (its token in the header): the answer, or null
  const res = await fetch(`/api/tables/${table}/${seat}/${what}`,
    {method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`}, body: "{}"});
  const data = await res.json();
  if (!res.ok) { showError(data); return null; }
  showError({});
  return data;
}

async function rematch() {        // the next game like this one: made by the first who asks, joined by the others
  const data = await post("rematch");
  if (data) location.href = data.url;   // another table: another path, so the page loads anew
}

async function undo() {           // against bots: your last move and theirs after it taken back
  document.querySelectorAll("#decision button").forEach((b) => { b.disabled = true; });
  const data = await post("undo");
  if (data) draw(data); else if (board) drawDecision(board);
}

// the rules, beside the table: the rulebook the server writes for this game (rulebook explain)
$("rules-button").onclick = () => {
  const panel = $("rules");
  if (!$("rules-frame").src) $("rules-frame").src = `/t/${table}/rules`;
  panel.hidden = !panel.hidden;
};
$("rules-close").onclick = () => { $("rules").hidden = true; };

function named(b, seat) {        // "P2 (Bea)": a seat with the name typed for it
  const name = b.names[Number(seat.slice(1)) - 1];
  return name && name !== seat ? `${seat} (${name})` : seat;
}

function drawResult(b) {
  const box = $("result");
  if (!b.result) { box.hidden = true; $("show-result").hidden = true; return; }
  const r = b.result;
  box.innerHTML = "";
  const close = el("button", "close", "×");
  close.title = "Close: look at the board";
  close.onclick = () => { resultClosed = true; box.hidden = true; $("show-result").hidden = false; };
  box.appendChild(close);
  box.appendChild(el("h2", "", "Game over"));
  box.appendChild(el("p", "", `${r.reason} — after ${r.turns} turns.`));
  const others = r.winners.filter((w) => w !== b.seat).map((w) => named(b, w));
  let said;
  if (b.seat && r.winners.includes(b.seat)) said = others.length ? `You share the win with ${others.join(", ")}.` : "You win!";
  else if (r.winners.length) said = `${others.join(", ")} win${others.length > 1 ? "" : "s"}.`;
  else said = "Nobody wins (a draw).";
  box.appendChild(el("p", "winners", said));
  const t = el("table");
  const cols = r.parts.concat(r.parts.length > 1 ? ["total"] : []);
  const head = el("tr");
  const shown = Object.fromEntries(r.parts.map((p, i) => [p, (r.part_names || r.parts)[i]]));
  ["player", ...cols].forEach((c) => head.appendChild(el("th", "", shown[c] || c)));
  t.appendChild(head);
  r.scores.forEach((row, i) => {
    const tr = el("tr");
    const seat = "P" + (i + 1);
    tr.appendChild(el("td", "", seat === b.seat ? "you" : named(b, seat)));
    cols.forEach((c) => tr.appendChild(el("td", "", String(row[c]))));
    t.appendChild(tr);
  });
  box.appendChild(t);
  const links = box.appendChild(el("p", "after"));
  if (b.seat) {
    const again = el("button", "rematch", b.rematch ? "Join the next game" : "Play again");
    again.title = b.rematch ? "Someone at this table started the next game: take your seat in it"
      : "The same game, seats and bots, on a new deal (the others at the table are offered their seats)";
    again.onclick = rematch;
    links.appendChild(again);
    links.appendChild(document.createTextNode(" "));
  }
  const lobby = el("a", "lobby-link", "Back to the lobby: a new game");
  lobby.href = "/";
  links.appendChild(lobby);
  box.hidden = resultClosed;
  $("show-result").hidden = !resultClosed;
}

function draw(b) {
  if (board && board.version > b.version) return;   // an older board that arrived late
  if (!board) keepSeat(b.title, b.seat);
  board = b;
  document.title = `${b.title} — ${b.seat || "watching"}`;
  $("title").textContent = b.title;
  $("status").textContent = `round ${b.round} · turn ${b.turn} · ` +
    (b.seat ? `you are ${b.seat}` : "watching") +
    (b.result ? "" : b.together ? " · everyone chooses at once" : ` · ${b.current} to play`);
  $("piles").textContent = [...b.piles.map((p) => `${p.label} ${p.count ?? "?"}`),
                            ...b.vars.map((v) => `${v.name} ${v.value}`)].join(" · ");
  drawZones(b);
  drawSeats(b);
  drawDecision(b);
  const story = $("story");
  story.innerHTML = "";
  b.story.forEach((line) => story.appendChild(el("li", line.startsWith("turn ") ? "act" : "", line)));
  story.parentElement.scrollTop = story.parentElement.scrollHeight;
  drawResult(b);
  document.body.dataset.version = String(b.version);
}

let retries = 0;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = seat === "watch" ? "" : `?token=${encodeURIComponent(token)}`;
  socket = new WebSocket(`${proto}://${location.host}/ws/${table}/${seat}${query}`);
  let opened = false;
  socket.onopen = () => { opened = true; retries = 0; };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    showError(msg);
    if (msg.board) draw(msg.board);
    else if (msg.error && board) drawDecision(board);   // refused without a board: answer again
  };
  socket.onclose = () => {
    if (opened || (board && retries < 30)) {   // the server went away (a restart?): try again for a while
      $("error").textContent = "disconnected from the server: reconnecting…";
      retries += 1;
      setTimeout(connect, 1000);
      return;
    }
    $("error").textContent = board ? "disconnected from the server (reload the page to try again)"
      : "this page cannot open the game: the link's seat token is missing or wrong, or the game is not here";
  };
}

connect();
