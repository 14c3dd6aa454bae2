// pokerbot web table. Play: this page is a seat of our dealer and speaks the ACPC protocol
// to it over a WebSocket; the server's /api/describe turns each MATCHSTATE line into a table
// (names, blinds and button, bets in this round, stacks, cards, what a showdown's hands make,
// every action in players' words, the legal actions with their amounts and the usual bet
// sizes), so the rules stay in one engine. Amounts are shown as players count them, within
// the round ("bet 100", "raise to 600"); a raise goes out in the protocol's units, the total
// for the whole hand (the view's `base` plus the amount). Watch: the server streams the
// match's actions and finished hands over /feed/ID.
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = {c: "♣", d: "♦", h: "♥", s: "♠"};
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
const QUERY = new URLSearchParams(location.search);
const PAUSE_MS = Number(QUERY.get("pause") ?? 1800);
// How long a finished hand stays on the table before the next one is dealt (?pause=MS).
let match = null;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n) => Number(n).toLocaleString("en-US", {maximumFractionDigits: 2});
const signed = (n, digits = 1) => `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n).toFixed(digits)}`;
const plural = (count, noun) => `${fmt(count)} ${noun}${count === 1 ? "" : "s"}`;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

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

// ------------------------------------------------------------------ the table
function cardHtml(card) {
  if (card === null) return '<div class="card back" title="hidden card"></div>';
  if (card === undefined) return '<div class="card empty"></div>';
  const rank = card[0] === "T" ? "10" : card[0];
  return `<div class="card ${card[1]}" data-card="${card}"><span class="rank">${rank}</span>`
    + `<span class="suit">${SUITS[card[1]]}</span></div>`;
}

function bottomPosition(view) {
  // You sit at the bottom; a spectator sees the first player named there.
  if (match.mode === "play") return view.viewer;
  const found = view.seats.find((seat) => seat.name === match.names[0]);
  return found ? found.position : 0;
}

function seatHtml(view, seat, cards) {
  const shown = cards ? cards.map(cardHtml).join("") : cardHtml(null).repeat(view.hole_cards);
  const tags = [seat.blind, seat.all_in ? "all-in" : null, seat.folded ? "folded" : null].filter(Boolean).join(" · ");
  const stack = seat.behind === null ? "" : `<span class="stack">${fmt(seat.behind)}</span>`;
  return `<div class="cards">${shown}</div>`
    + `<div class="plate"><span class="name">${esc(seat.name)}</span>${stack}<span class="tags">${esc(tags)}</span></div>`
    + `<div class="hand-name">${esc(seat.hand || "")}</div>`
    + (seat.button ? '<div class="button-disc" title="dealer button">D</div>' : "");
}

function render(view, known) {
  const felt = $("felt");
  felt.hidden = false;
  felt.dataset.hand = String(view.hand_number + 1);
  felt.dataset.finished = view.finished ? "1" : "";
  felt.dataset.showdown = view.showdown ? "1" : "";
  const bottom = bottomPosition(view);
  const others = view.seats.filter((seat) => seat.position !== bottom);
  const places = [["bottom", view.seats[bottom]], ["top", others[0]]];
  for (const [where, seat] of places) {
    const element = $(`seat-${where}`);
    const cards = seat.cards || (known && known[seat.position]) || null;
    element.innerHTML = seatHtml(view, seat, cards);
    element.dataset.position = String(seat.position);
    element.dataset.name = seat.name;
    element.classList.toggle("to-act", !view.finished && view.to_act === seat.position);
    element.classList.toggle("winner", view.finished && view.winners.includes(seat.position));
    element.classList.toggle("folded", seat.folded);
    $(`bet-${where}`).innerHTML = seat.in_round && !view.finished
      ? `<span class="chip"></span>${fmt(seat.in_round)}` : "";
  }
  const board = view.board.map(cardHtml);
  while (board.length < view.board_cards) board.push(cardHtml(undefined));
  $("board").innerHTML = board.join("");
  $("pot").innerHTML = `<span class="chip"></span>Pot ${fmt(view.pot)}`;
  $("round").textContent = `hand ${view.hand_number + 1} · ${view.finished ? "over" : view.round_name}`;
}

// ------------------------------------------------------------------ history
function handEntry(handNumber) {
  let entry = $("history").querySelector(`.hand[data-hand="${handNumber + 1}"]`);
  if (!entry) {
    entry = document.createElement("div");
    entry.className = "hand";
    entry.dataset.hand = String(handNumber + 1);
    entry.dataset.steps = "0";
    entry.innerHTML = `<div class="hand-title">Hand ${handNumber + 1}</div>`;
    $("history").appendChild(entry);
  }
  return entry;
}

function scrollHistory() {
  $("history").scrollTop = $("history").scrollHeight;
}

function logSteps(view) {
  // Every action of every player, by round, as it becomes known.
  const entry = handEntry(view.hand_number);
  for (const step of view.history.slice(Number(entry.dataset.steps))) {
    let street = entry.querySelector(`.street[data-round="${step.round}"]`);
    if (!street) {
      street = document.createElement("div");
      street.className = "street";
      street.dataset.round = String(step.round);
      street.innerHTML = `<b>${esc(view.round_names[step.round])}:</b> `;
      entry.appendChild(street);
    }
    const said = document.createElement("span");
    said.className = "step";
    said.dataset.name = step.name;
    said.textContent = (street.querySelector(".step") ? ", " : "") + step.text;
    street.appendChild(said);
  }
  entry.dataset.steps = String(view.history.length);
  scrollHistory();
}

function returnedText(view) {
  if (!view.returned || view.returned_to === null) return "";
  return `uncalled bet of ${fmt(view.returned)} returned to ${view.seats[view.returned_to].name}; `;
}

function winnersText(view) {
  const names = view.winners.map((position) => view.seats[position].name);
  const returned = returnedText(view);
  if (names.length > 1) return `${returned}${names.join(" and ")} split the pot of ${fmt(view.pot)}`;
  if (names.length === 0) return returned;
  const winner = view.seats[view.winners[0]];
  const verb = winner.name === "you" ? "win" : "wins";
  return `${returned}${winner.name} ${verb} the pot of ${fmt(view.pot)}` + (winner.hand ? ` with ${winner.hand}` : "");
}

function logResult(view) {
  const entry = handEntry(view.hand_number);
  if (entry.dataset.result) return;
  entry.dataset.result = "1";
  if (view.showdown) {
    const shown = view.seats.filter((seat) => !seat.folded && seat.cards).map((seat) => {
      const won = view.winners.includes(seat.position) ? ' class="winner"' : "";
      return `<span${won}>${esc(seat.name)} ${seat.cards.join(" ")}: ${esc(seat.hand || "")}</span>`;
    });
    const line = document.createElement("div");
    line.className = "showdown";
    line.innerHTML = `<b>showdown:</b> ${shown.join(", ")}; board ${esc(view.board.join(" ") || "-")}`;
    entry.appendChild(line);
  }
  const result = document.createElement("div");
  result.className = "result";
  let text = winnersText(view);
  if (view.viewer !== null && view.values) {
    const mine = view.values[view.viewer];
    result.classList.add(mine > 0 ? "won" : mine < 0 ? "lost" : "even");
    text += mine > 0 ? `: you won ${fmt(mine)}` : mine < 0 ? `: you lost ${fmt(-mine)}` : ": you neither won nor lost";
  }
  result.textContent = text;
  entry.appendChild(result);
  scrollHistory();
}

function note(text) {
  const line = document.createElement("div");
  line.className = "note";
  line.textContent = text;
  $("history").appendChild(line);
  scrollHistory();
}

// ------------------------------------------------------------------ running result
function unitName() {
  return match.antes ? "antes" : "big blinds";
}

function addResult(view) {
  match.hands += 1;
  match.bigBlind = view.big_blind;
  match.antes = view.antes;
  view.seats.forEach((seat) => {
    const name = seat.name === "you" ? match.you : seat.name;
    match.totals[name] = (match.totals[name] || 0) + (view.values ? view.values[seat.position] : 0);
  });
  for (const name of match.names) {
    (match.series[name] = match.series[name] || [0]).push((match.totals[name] || 0) / match.bigBlind);
  }
  const rows = [`<tr><th>player</th><th>chips</th><th>${unitName()}</th><th>${match.antes ? "m-antes" : "mbb"}/hand</th></tr>`];
  for (const name of match.names) {
    const total = match.totals[name] || 0;
    const rate = fmt(Math.round(1000 * total / match.bigBlind / match.hands));
    rows.push(`<tr data-name="${esc(name)}" data-total="${total}"><td>${esc(name)}</td><td>${fmt(total)}</td>`
      + `<td>${signed(total / match.bigBlind)}</td><td>${rate}</td></tr>`);
  }
  $("totals").innerHTML = rows.join("");
  $("result").hidden = false;
  drawBankroll();
}

function niceTicks(low, high, count) {
  const span = high - low || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || power * 10;
  const ticks = [];
  for (let value = Math.ceil(low / step) * step; value <= high + 1e-9; value += step) ticks.push(Math.round(value * 1e6) / 1e6);
  return ticks;
}

function drawBankroll() {
  const canvas = $("bankroll");
  const ratio = window.devicePixelRatio || 1;
  const cssWidth = canvas.clientWidth || 640;
  const cssHeight = Math.round(cssWidth * 0.55);
  canvas.width = cssWidth * ratio;
  canvas.height = cssHeight * ratio;
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  const left = 46, right = 10, top = 22, bottom = 34;
  const width = cssWidth - left - right, height = cssHeight - top - bottom;
  context.clearRect(0, 0, cssWidth, cssHeight);
  const all = Object.values(match.series).flat();
  const low = Math.min(0, ...all), high = Math.max(0, ...all);
  const pad = (high - low) * 0.08 || 1;
  const yLow = low - (low < 0 ? pad : 0), yHigh = high + (high > 0 ? pad : 0);
  const count = Math.max(1, match.hands);
  const x = (i) => left + width * i / count;
  const y = (v) => top + height - height * (v - yLow) / (yHigh - yLow);
  context.font = "11px system-ui, sans-serif";
  context.strokeStyle = "#e3e8e3";
  context.fillStyle = "#445";
  context.textAlign = "right";
  context.textBaseline = "middle";
  for (const tick of niceTicks(yLow, yHigh, 5)) {
    context.beginPath(); context.moveTo(left, y(tick)); context.lineTo(left + width, y(tick)); context.stroke();
    context.fillText(fmt(tick), left - 5, y(tick));
  }
  context.textAlign = "center";
  context.textBaseline = "top";
  for (const tick of niceTicks(0, count, Math.min(count, 6))) {
    if (!Number.isInteger(tick)) continue;
    context.beginPath(); context.moveTo(x(tick), top + height); context.lineTo(x(tick), top + height + 4);
    context.strokeStyle = "#889"; context.stroke();
    context.fillText(String(tick), x(tick), top + height + 6);
  }
  context.strokeStyle = "#889";
  context.beginPath(); context.moveTo(left, top); context.lineTo(left, top + height); context.lineTo(left + width, top + height); context.stroke();
  context.strokeStyle = "#99a";
  context.setLineDash([4, 3]);
  context.beginPath(); context.moveTo(left, y(0)); context.lineTo(left + width, y(0)); context.stroke();
  context.setLineDash([]);
  context.fillText("hand", left + width / 2, top + height + 20);
  context.save();
  context.translate(11, top + height / 2);
  context.rotate(-Math.PI / 2);
  context.textBaseline = "middle";
  context.fillText(`${unitName()} won`, 0, 0);
  context.restore();
  match.names.forEach((name, index) => {
    const series = match.series[name] || [0];
    const colour = COLOURS[index % COLOURS.length];
    context.strokeStyle = colour;
    context.lineWidth = 2;
    context.beginPath();
    series.forEach((value, i) => (i ? context.lineTo(x(i), y(value)) : context.moveTo(x(i), y(value))));
    context.stroke();
    context.lineWidth = 1;
    context.fillStyle = colour;
    context.textAlign = "left";
    context.textBaseline = "middle";
    context.fillText(`${name} ${signed(series[series.length - 1])}`, left + 8 + index * Math.max(110, width / 3), 10);
  });
}

function start(data) {
  match = {...data, totals: {}, series: {}, hands: 0, bigBlind: 1, antes: false, line: null, view: null,
    known: {}, you: data.mode === "play" ? data.names[0] : null};
  $("history").innerHTML = "";
  $("totals").innerHTML = "";
  $("result").hidden = true;
  $("setup").disabled = true;
  // While a match runs, the header is one line: what is played (the table gets the room).
  const who = data.mode === "play" ? `you vs ${data.names[1]}` : data.names.join(" vs ");
  $("match-info").textContent = `${data.game} · ${who} · ${plural(Number(data.hands), "hand")}`;
  $("new-match").hidden = true;
  document.body.classList.add("in-match");
}

function over() {
  $("setup").disabled = false;
  $("new-match").hidden = false;
}

function startParams() {
  const params = {game: $("game").value, hands: $("hands").value};
  if ($("seed").value !== "") params.seed = $("seed").value;
  return params;
}

// ------------------------------------------------------------------ play
async function play() {
  try {
    start(await api("/api/start", {...startParams(), mode: "play", opponent: $("opponent").value}));
  } catch (error) {
    setStatus(`Cannot start: ${error.message}`, "error");
    return;
  }
  let queue = Promise.resolve();
  const socket = new WebSocket(match.seat_url);
  match.socket = socket;
  socket.onopen = () => {
    socket.send("VERSION:2.0.0");
    setStatus(`Waiting for ${match.names[1]} to sit down`, "wait");
  };
  socket.onmessage = (event) => { queue = queue.then(() => received(event.data)).catch(failed); };
  socket.onclose = () => { queue = queue.then(finished); };
}

function failed(error) {
  note(`error: ${error.message}`);
  setStatus(`Error: ${error.message}`, "error");
}

function opponentName(view) {
  const other = view.seats.find((seat) => seat.position !== view.viewer);
  return other ? other.name : "the opponent";
}

async function received(line) {
  if (line.startsWith("#") || line.startsWith(";")) {
    if (line.toLowerCase().includes("error")) note(line);
    return;
  }
  const view = await api("/api/describe", {game: match.game, line, match: match.match});
  match.bigBlind = view.big_blind;
  match.antes = view.antes;
  match.line = line;
  match.view = view;
  render(view, null);
  logSteps(view);
  if (view.finished) {
    logResult(view);
    addResult(view);
    showActions(null);
    setStatus(`Hand ${view.hand_number + 1}: ${winnersText(view) || "over"}`, "result");
    await sleep(PAUSE_MS);  // the finished hand stays on the table a moment
  } else if (view.to_act === view.viewer) {
    showActions(view.choices);
    setStatus("Your turn", "turn");
  } else {
    showActions(null);
    setStatus(`Waiting for ${opponentName(view)}`, "wait");
  }
}

function raiseVerb(choices) {
  return choices.raise_word === "raise" ? "Raise to" : "Bet";
}

function showActions(choices) {
  $("actions").hidden = !choices;
  if (!choices) return;
  $("fold").hidden = !choices.can_fold;
  $("call").textContent = choices.call_amount ? `Call ${fmt(choices.call_amount)}` : "Check";
  $("raise").hidden = !choices.can_raise;
  $("sizing").hidden = !choices.can_raise || !choices.nolimit;
  if (!choices.can_raise) return;
  if (!choices.nolimit) {
    $("raise").textContent = `${raiseVerb(choices)} ${fmt(choices.min_amount)}`;
    return;
  }
  $("sizes").innerHTML = choices.sizes.map(([label, amount]) =>
    `<button type="button" class="size" data-label="${esc(label)}" data-amount="${amount}">${esc(label)} `
    + `<b>${fmt(amount)}</b></button>`).join("");
  for (const button of $("sizes").querySelectorAll("button")) {
    button.onclick = () => setAmount(Number(button.dataset.amount));
  }
  for (const box of [$("slider"), $("amount")]) {
    box.min = choices.min_amount;
    box.max = choices.max_amount;
    box.step = 1;
  }
  setAmount(choices.min_amount);
}

function setAmount(amount) {
  $("amount").value = amount;
  $("slider").value = amount;
  raiseLabel();
}

function raiseLabel() {
  const choices = match.view.choices;
  const amount = Number($("amount").value);
  $("raise").textContent = `${raiseVerb(choices)} ${fmt(amount)}` + (amount === choices.max_amount ? " (all-in)" : "");
}

function act(wire) {
  if (!match || !match.line || $("status").dataset.state !== "turn") return;
  match.socket.send(`${match.line}:${wire}`);
  showActions(null);
  setStatus(`Waiting for ${opponentName(match.view)}`, "wait");
}

function raise() {
  const choices = match.view.choices;
  if (!choices.nolimit) return act("r");
  const amount = Number($("amount").value);
  if (!Number.isInteger(amount) || amount < choices.min_amount || amount > choices.max_amount) {
    const what = choices.raise_word === "raise" ? "A raise goes to" : "A bet is";
    setStatus(`${what} ${choices.min_amount}..${choices.max_amount}`, "turn");
    return;
  }
  act(`r${choices.base + amount}`);  // the protocol's raise: the total for the whole hand
}

function finished() {
  showActions(null);
  over();
  if (!match.hands) {
    setStatus("The match ended before its first hand (the server's output says why)", "over");
    return;
  }
  const total = match.totals[match.you] || 0;
  const rate = match.hands ? (1000 * total / match.bigBlind / match.hands).toFixed(0) : 0;
  const how = total > 0 ? `you won ${fmt(total)} chips` : total < 0 ? `you lost ${fmt(-total)} chips` : "you broke even";
  setStatus(`Match over: ${plural(match.hands, "hand")}; ${how}`
    + ` (${signed(total / match.bigBlind)} ${unitName()}, ${rate} ${match.antes ? "m-antes" : "mbb"}/hand)`, "over");
}

// ------------------------------------------------------------------ watch
async function watch() {
  const players = `${$("watch-a").value},${$("watch-b").value}`;
  try {
    start(await api("/api/start", {...startParams(), mode: "watch", players, pace: $("pace").value}));
  } catch (error) {
    setStatus(`Cannot start: ${error.message}`, "error");
    return;
  }
  setStatus(`Watching ${match.names.join(" vs ")}`, "watch");
  const pause = Math.min(PAUSE_MS, Math.max(300, 3000 * Number($("pace").value)));
  let queue = Promise.resolve();
  const feed = new WebSocket(`ws://${location.host}${match.feed}`);
  feed.onmessage = (event) => { queue = queue.then(() => watched(JSON.parse(event.data), pause)).catch(failed); };
}

async function watched(event, pause) {
  if (event.type === "action") {
    const view = event.view;
    match.bigBlind = view.big_blind;
    match.antes = view.antes;
    const known = (match.known[view.hand_number] = match.known[view.hand_number] || {});
    known[event.position] = view.seats[event.position].cards;
    render(view, known);
    logSteps(view);
  } else if (event.type === "hand") {
    render(event.view, null);
    logSteps(event.view);
    logResult(event.view);
    addResult(event.view);
    setStatus(`Hand ${event.view.hand_number + 1}: ${winnersText(event.view) || "over"}`, "watch");
    await sleep(pause);
  } else if (event.type === "over") {
    over();
    const parts = Object.entries(event.totals).map(([name, total]) => `${name} ${fmt(total)}`);
    setStatus(`Match over: ${plural(event.hands, "hand")}; ${parts.join(", ")}` + (event.error ? ` (${event.error})` : ""), "over");
  }
}

// ------------------------------------------------------------------ setup
async function setup() {
  const options = await api("/api/options", {});
  const fill = (select, items, chosen) => {
    select.innerHTML = items.map((item) => `<option${item === chosen ? " selected" : ""}>${esc(item)}</option>`).join("");
  };
  fill($("game"), options.games, "holdem-nolimit-2p");
  fill($("opponent"), options.strategies, "adaptive");
  fill($("watch-a"), options.strategies, "always-raise");
  fill($("watch-b"), options.strategies, "random");
  $("new-match").onclick = () => {
    document.body.classList.remove("in-match");
    $("new-match").hidden = true;
    $("match-info").textContent = "";
  };
  $("play").onclick = play;
  $("watch").onclick = watch;
  $("fold").onclick = () => act("f");
  $("call").onclick = () => act("c");
  $("raise").onclick = raise;
  $("slider").oninput = () => { $("amount").value = $("slider").value; raiseLabel(); };
  $("amount").oninput = () => { $("slider").value = $("amount").value; raiseLabel(); };
  $("amount").onkeydown = (event) => { if (event.key === "Enter") raise(); };
  window.addEventListener("resize", () => { if (match && match.hands) drawBankroll(); });
}
setup();
