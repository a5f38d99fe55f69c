// The lobby: choose a game, who sits where, start it and hand out one link per seat.
"use strict";
const $ = (id) => document.getElementById(id);
let rulesets = [];

function seatRows() {
  const r = rulesets.find((x) => x.name === $("ruleset").value);
  const n = Number($("players").value);
  const box = $("seats");
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const row = document.createElement("div");
    row.className = "seatrow";
    const agent = i === 0 ? "human" : r.bot;
    row.innerHTML = `<span>P${i + 1}</span>
      <select class="agent">${["human", "random", "first", "greedy", "mcts"].map((a) =>
        `<option${a === agent ? " selected" : ""}>${a}</option>`).join("")}</select>
      <input class="name" placeholder="name (optional)" maxlength="24">`;
    box.appendChild(row);
  }
}

function players() {
  const r = rulesets.find((x) => x.name === $("ruleset").value);
  $("about").textContent = r.text;
  $("rules-link").href = `/rules/${encodeURIComponent(r.name)}`;
  $("players").innerHTML = "";
  for (let n = r.min; n <= r.max; n++) $("players").add(new Option(String(n), String(n)));
  seatRows();
}

async function start(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const body = {
    ruleset: $("ruleset").value,
    players: Number($("players").value),
    agents: [...document.querySelectorAll("#seats .agent")].map((s) => s.value),
    names: [...document.querySelectorAll("#seats .name")].map((s) => s.value.trim()),
    seed: $("seed").value === "" ? null : Number($("seed").value),
  };
  const res = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)});
  const data = await res.json();
  if (!res.ok) {                 // the words, and the ruleset's line with a caret when its setup failed
    $("error").textContent = data.error;
    if (data.source) {
      const pre = document.createElement("pre");
      pre.textContent = data.source;
      $("error").appendChild(pre);
    }
    return;
  }
  const list = $("seatlinks");
  list.innerHTML = "";
  for (const s of data.seats) {
    const li = document.createElement("li");
    li.innerHTML = s.agent === "human"
      ? `<a class="seatlink" href="${s.url}" target="_blank">${s.seat}: play</a> <code>${s.url}</code>`
      : `${s.seat}: ${s.agent} bot`;
    list.appendChild(li);
  }
  const w = document.createElement("li");
  w.innerHTML = `<a href="${data.watch}" target="_blank">watch</a> (sees what everyone sees)`;
  list.appendChild(w);
  $("links").hidden = false;
  games();
}

function keptSeats(rows) {        // the seats this browser opened, in games still here: their links again
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem("rulebook-seats") || "{}"); } catch (e) { kept = {}; }
  const here = new Map(rows.map((g) => [String(g.table), g]));
  const list = $("mine");
  list.innerHTML = "";
  const mine = Object.values(kept).filter((k) => here.has(String(k.table))).sort((a, b) => b.at - a.at);
  for (const k of mine) {
    const g = here.get(String(k.table));
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.className = "mylink";
    a.href = k.url;
    a.target = "_blank";
    a.textContent = `${k.title}: your seat ${k.seat}`;
    li.appendChild(a);
    li.appendChild(document.createTextNode(g.over ? " — over" : ` — ${g.moves} moves`));
    list.appendChild(li);
  }
  $("myseats").hidden = mine.length === 0;
}

async function games() {          // the games here: anyone may watch them; seat links are never listed
  const rows = await (await fetch("/api/tables")).json();
  keptSeats(rows);
  const list = $("games");
  list.innerHTML = "";
  for (const g of rows) {
    const li = document.createElement("li");
    const seats = g.agents.map((a, i) => `P${i + 1} ${g.names[i] || (a === "human" ? "person" : a + " bot")}`);
    const state = g.problem ? "cannot continue" : g.over ? "over" : `${g.moves} moves`;
    li.innerHTML = `<a href="${g.watch}" target="_blank">watch</a> <span></span>`;
    li.querySelector("span").textContent = `${g.ruleset}: ${seats.join(", ")} — ${state}`;
    if (g.problem) li.title = g.problem;
    list.appendChild(li);
  }
  $("gamelist").hidden = rows.length === 0;
}

(async () => {
  rulesets = await (await fetch("/api/rulesets")).json();
  for (const r of rulesets) $("ruleset").add(new Option(`${r.title} (${r.min}–${r.max})`, r.name));
  $("ruleset").addEventListener("change", players);
  $("players").addEventListener("change", seatRows);
  $("start").addEventListener("submit", start);
  players();
  games();
})();
