// pokerbot web table. Play: this page is a seat of our dealer and speaks the ACPC protocol
// to it over a WebSocket; the server's /api/describe turns each MATCHSTATE line into a table
// (pot, stacks, cards, history, legal actions), so the rules stay in one engine. Watch: the
// server streams the match's actions and finished hands over /feed/ID.
"use strict";
const $ = (id) => document.getElementById(id);
let match = null;

async function api(path, params) {
  const response = await fetch(path + "?" + new URLSearchParams(params));
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function setStatus(text, state) {
  $("status").textContent = text;
  $("status").dataset.state = state;
  // Counts every status shown, so that a reader (or a test) sees each new turn as new.
  $("status").dataset.seq = String(Number($("status").dataset.seq || 0) + 1);
}

function cardHtml(card) {
  if (!card) return '<span class="card back">??</span>';
  return `<span class="card ${card[1]}">${card[0]}${{c: "♣", d: "♦", h: "♥", s: "♠"}[card[1]]}</span>`;
}

function nameAt(position, handNumber) {
  // Seats rotate as in the reference dealer: position p of hand h is seat (p + h) % players.
  return match.names[(position + handNumber) % match.names.length];
}

function log(text) {
  const line = document.createElement("div");
  line.textContent = text;
  $("history").appendChild(line);
  $("history").scrollTop = $("history").scrollHeight;
}

function render(view, known) {
  $("felt").hidden = false;
  $("hand-number").textContent = view.hand_number + 1;
  $("round").textContent = view.round_name;
  $("pot").textContent = view.pot;
  $("board").innerHTML = view.board.map(cardHtml).join("") || "-";
  $("seats").innerHTML = view.seats.map((seat) => {
    const cards = seat.cards || (known && known[seat.position]) || null;
    const shown = cards ? cards.map(cardHtml).join("") : cardHtml(null) + cardHtml(null);
    const behind = seat.behind === null ? "unlimited" : seat.behind;
    const flags = seat.folded ? " (folded)" : seat.all_in ? " (all-in)" : "";
    const acting = view.to_act === seat.position ? " to-act" : "";
    return `<div class="seat${acting}" data-position="${seat.position}"><b>${nameAt(seat.position, view.hand_number)}</b>`
      + ` ${shown} in pot ${seat.in_pot}, behind ${behind}${flags}</div>`;
  }).join("");
}

function addResult(handNumber, values, names) {
  match.hands += 1;
  names.forEach((name, position) => {
    match.totals[name] = (match.totals[name] || 0) + values[position];
  });
  for (const name of match.names) {
    (match.series[name] = match.series[name] || [0]).push(match.totals[name] / match.bigBlind);
  }
  const table = ["<tr><th>player</th><th>chips</th><th>big blinds</th><th>mbb/hand</th></tr>"];
  for (const name of match.names) {
    const total = match.totals[name] || 0;
    const rate = (1000 * total / match.bigBlind / match.hands).toFixed(0);
    table.push(`<tr data-name="${name}" data-total="${total}"><td>${name}</td><td>${total}</td>`
      + `<td>${(total / match.bigBlind).toFixed(1)}</td><td>${rate}</td></tr>`);
  }
  $("totals").innerHTML = table.join("");
  drawBankroll();
}

function drawBankroll() {
  const canvas = $("bankroll"), context = canvas.getContext("2d");
  const width = canvas.width, height = canvas.height, pad = 30;
  context.clearRect(0, 0, width, height);
  const all = Object.values(match.series).flat();
  const low = Math.min(0, ...all), high = Math.max(0, ...all), span = high - low || 1;
  const count = Math.max(1, match.hands);
  const x = (i) => pad + (width - 2 * pad) * i / count;
  const y = (v) => height - pad - (height - 2 * pad) * (v - low) / span;
  context.strokeStyle = "#999";
  context.beginPath(); context.moveTo(pad, y(0)); context.lineTo(width - pad, y(0)); context.stroke();
  context.fillStyle = "#333";
  context.fillText("big blinds won, by hand", pad, 12);
  const colours = ["#1f77b4", "#d62728", "#2ca02c"];
  match.names.forEach((name, index) => {
    const series = match.series[name] || [0];
    context.strokeStyle = colours[index % colours.length];
    context.beginPath();
    series.forEach((value, i) => (i ? context.lineTo(x(i), y(value)) : context.moveTo(x(i), y(value))));
    context.stroke();
    context.fillStyle = colours[index % colours.length];
    context.fillText(`${name} ${series[series.length - 1].toFixed(1)}`, width - pad - 140, 14 + 14 * index);
  });
}

function start(data) {
  match = {...data, totals: {}, series: {}, hands: 0, bigBlind: 1, line: null, view: null, known: {}};
  $("history").innerHTML = "";
  $("totals").innerHTML = "";
  $("setup").disabled = true;
}

// ------------------------------------------------------------------- play
async function play() {
  const game = $("game").value;
  try {
    const data = await api("/api/start", {mode: "play", game, opponent: $("opponent").value, hands: $("hands").value});
    start(data);
  } catch (error) {
    setStatus(`Cannot start: ${error.message}`, "error");
    return;
  }
  let queue = Promise.resolve();
  const socket = new WebSocket(match.seat_url);
  match.socket = socket;
  socket.onopen = () => { socket.send("VERSION:2.0.0"); setStatus("Waiting for the dealer", "wait"); };
  socket.onmessage = (event) => { queue = queue.then(() => received(event.data)).catch(failed); };
  socket.onclose = () => { queue = queue.then(finished); };
}

function failed(error) {
  log(`error: ${error.message}`);
  setStatus(`Error: ${error.message}`, "error");
}

async function received(line) {
  if (line.startsWith("#") || line.startsWith(";")) {
    if (line.toLowerCase().includes("error")) log(line);
    return;
  }
  const view = await api("/api/describe", {game: match.game, line});
  match.bigBlind = view.big_blind;
  match.line = line;
  match.view = view;
  render(view, null);
  if (view.finished) {
    const mine = view.values ? view.values[view.viewer] : 0;
    const names = view.seats.map((seat) => nameAt(seat.position, view.hand_number));
    const shown = view.seats.filter((s) => s.cards && !s.folded).map((s) => `${names[s.position]} ${s.cards.join(" ")}`);
    log(`hand ${view.hand_number + 1} over: you ${mine >= 0 ? "won" : "lost"} ${Math.abs(mine)}`
      + (shown.length > 1 ? ` (showdown: ${shown.join(", ")}; board ${view.board.join(" ")})` : ""));
    addResult(view.hand_number, view.values || view.seats.map(() => 0), names);
    showActions(null);
    setStatus("Waiting for the next hand", "wait");
  } else if (view.to_act === view.viewer) {
    showActions(view.choices);
    setStatus("Your turn", "turn");
  } else {
    showActions(null);
    setStatus("Waiting for the opponent", "wait");
  }
}

function showActions(choices) {
  $("actions").hidden = !choices;
  if (!choices) return;
  $("fold").hidden = !choices.can_fold;
  $("call").textContent = choices.call_amount ? `Call ${choices.call_amount}` : "Check";
  for (const id of ["raise", "allin", "amount"]) $(id).hidden = !choices.can_raise;
  $("raise").textContent = choices.nolimit ? `${choices.raise_word} to` : `${choices.raise_word} to ${choices.min_raise_to}`;
  $("amount").hidden = !choices.can_raise || !choices.nolimit;
  $("allin").hidden = !choices.can_raise || !choices.nolimit;
  $("amount").min = choices.min_raise_to;
  $("amount").max = choices.max_raise_to;
  $("amount").value = choices.min_raise_to;
}

function act(wire, words) {
  if (!match || !match.line || $("status").dataset.state !== "turn") return;
  match.socket.send(`${match.line}:${wire}`);
  showActions(null);
  setStatus("Waiting for the opponent", "wait");
  log(`hand ${match.view.hand_number + 1}: you ${words}`);
}

function raise() {
  const choices = match.view.choices;
  if (!choices.nolimit) return act("r", `${choices.raise_word}`);
  const amount = Number($("amount").value);
  if (!Number.isInteger(amount) || amount < choices.min_raise_to || amount > choices.max_raise_to) {
    setStatus(`A raise goes to ${choices.min_raise_to}..${choices.max_raise_to}`, "turn");
    return;
  }
  act(`r${amount}`, `${choices.raise_word} to ${amount}`);
}

function finished() {
  showActions(null);
  $("setup").disabled = false;
  const total = match.totals.you || 0;
  const rate = match.hands ? (1000 * total / match.bigBlind / match.hands).toFixed(0) : 0;
  setStatus(`Match over: ${match.hands} hands; you ${total >= 0 ? "won" : "lost"} ${Math.abs(total)} chips`
    + ` (${rate} mbb/hand)`, "over");
}

// ------------------------------------------------------------------ watch
async function watch() {
  const game = $("game").value;
  const players = `${$("watch-a").value},${$("watch-b").value}`;
  try {
    const data = await api("/api/start", {mode: "watch", game, players, hands: $("hands").value, pace: $("pace").value});
    start(data);
  } catch (error) {
    setStatus(`Cannot start: ${error.message}`, "error");
    return;
  }
  setStatus(`Watching ${match.names.join(" vs ")}`, "watch");
  const feed = new WebSocket(`ws://${location.host}${match.feed}`);
  feed.onmessage = (event) => watched(JSON.parse(event.data));
}

function watched(event) {
  if (event.type === "action") {
    const view = event.view;
    match.bigBlind = view.big_blind;
    const known = (match.known[view.hand_number] = match.known[view.hand_number] || {});
    known[event.position] = view.seats[event.position].cards;
    render(view, known);
    const step = view.history[view.history.length - 1];
    log(`hand ${view.hand_number + 1}: ${nameAt(step.position, view.hand_number)} ${step.words}`);
  } else if (event.type === "hand") {
    render(event.view, null);
    addResult(event.view.hand_number, event.view.values, event.names);
    const parts = event.names.map((name, p) => `${name} ${event.view.values[p] >= 0 ? "+" : ""}${event.view.values[p]}`);
    log(`hand ${event.view.hand_number + 1} over: ${parts.join(", ")}`);
  } else if (event.type === "over") {
    $("setup").disabled = false;
    const parts = Object.entries(event.totals).map(([name, total]) => `${name} ${total}`);
    setStatus(`Match over: ${event.hands} hands; ${parts.join(", ")}` + (event.error ? ` (${event.error})` : ""), "over");
  }
}

// ------------------------------------------------------------------ setup
async function setup() {
  const options = await api("/api/options", {});
  const fill = (select, items, chosen) => {
    select.innerHTML = items.map((item) => `<option${item === chosen ? " selected" : ""}>${item}</option>`).join("");
  };
  fill($("game"), options.games, "holdem-nolimit-2p");
  fill($("opponent"), options.strategies, "random");
  fill($("watch-a"), options.strategies, "always-raise");
  fill($("watch-b"), options.strategies, "random");
  $("play").onclick = play;
  $("watch").onclick = watch;
  $("fold").onclick = () => act("f", "fold");
  $("call").onclick = () => act("c", match.view.choices.call_amount ? `call ${match.view.choices.call_amount}` : "check");
  $("raise").onclick = raise;
  $("allin").onclick = () => { $("amount").value = match.view.choices.max_raise_to; raise(); };
}
setup();
