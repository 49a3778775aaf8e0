// The server's page: its packs (from /index.json, searched as typed, each README rendered by
// the server, each archive to download) and its matches (from the lobby: where each stands,
// its link, its log once over, each to watch live as a spectator over the seat WebSocket: the
// public view, every rack hidden). Opened as `/?match=ID`, it watches that match. A match's
// link (`/matches/ID`) opens the browser client, where it is played. No build step.
"use strict";

const packList = document.getElementById("pack-list");
const search = document.getElementById("search");
const packCount = document.getElementById("pack-count");
let packs = [];

document.getElementById("source-command").textContent =
  "scryptic pack source add " + location.origin;

function element(tag, attributes, text) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    made.setAttribute(name, value);
  }
  if (text !== undefined) made.textContent = text;
  return made;
}

function newest(pack) {
  return pack.releases[0];
}

function packItem(pack) {
  const release = newest(pack);
  const item = element("li", { class: "pack", "data-id": pack.id });
  if (pack.thumbnail) {
    item.append(element("img", { class: "thumbnail", src: "/" + pack.thumbnail, alt: "" }));
  }
  const heading = element("h3", {});
  heading.append(element("a", { class: "page", href: "/packs/" + encodeURIComponent(pack.id) }, pack.title),
    " ", element("span", { class: "version" }, pack.id + " " + release.version));
  item.append(heading);
  item.append(element("p", { class: "description" }, pack.description));
  if (pack.tags.length) {
    const tags = element("p", { class: "tags" });
    for (const tag of pack.tags) {
      const link = element("a", { class: "tag", href: "/?tag=" + encodeURIComponent(tag) }, tag);
      link.addEventListener("click", (event) => {
        event.preventDefault();
        tagFilter.value = tag;
        showPacks();
      });
      tags.append(link, " ");
    }
    item.append(tags);
  }
  const signed = release.key ? "signed by " + release.key.slice(0, 16) + "..." : "unsigned";
  const kib = Math.ceil(release.size / 1024);
  item.append(element("p", { class: "version" },
    "needs scripting API " + release.scryptic + " · " + kib + " KiB · " + signed));
  const name = release.url.split("/").pop();
  item.append(element("a", { class: "download", href: "/" + release.url, download: name,
    "data-sha256": release.sha256 }, "Download " + name));
  item.append(document.createTextNode(" "));
  const button = element("button", { class: "readme", type: "button" }, "README");
  const body = element("div", { class: "readme-body", hidden: "" });
  button.addEventListener("click", async () => {
    if (body.hidden && !body.dataset.loaded) {
      const answer = await fetch("/packs/" + encodeURIComponent(pack.id) + "/readme");
      // The server renders the README and leaves out any HTML of its own.
      body.innerHTML = answer.ok ? await answer.text() : "<p>No README.</p>";
      body.dataset.loaded = "yes";
    }
    body.hidden = !body.hidden;
  });
  item.append(button, body);
  return item;
}

function matches(pack, words) {
  const text = [pack.id, pack.title, pack.description, pack.tags.join(" ")]
    .join(" ").toLowerCase();
  return words.every((word) => text.includes(word));
}

// Filtered by tag (`/?tag=TAG` opens the list so), sorted by name or newest release first.
const tagFilter = document.getElementById("tag-filter");
const sortBy = document.getElementById("sort-by");
let releaseDates = {};

function showPacks() {
  const words = search.value.toLowerCase().split(/\s+/).filter((w) => w);
  const tag = tagFilter.value;
  const shown = packs.filter((pack) => matches(pack, words) && (!tag || pack.tags.includes(tag)));
  if (sortBy.value === "newest") {
    shown.sort((a, b) => (releaseDates[b.id] || 0) - (releaseDates[a.id] || 0));
  } else {
    shown.sort((a, b) => a.title.localeCompare(b.title));
  }
  packList.replaceChildren(...shown.map(packItem));
  packCount.textContent = packs.length
    ? shown.length + " of " + packs.length + " packs"
    : "This server publishes no pack archives (its owner publishes a folder of them with scryptic serve --publish DIR).";
}

async function loadPacks() {
  const answer = await fetch("/index.json");
  const index = await answer.json();
  packs = index.packs;
  const dates = await fetch("/api/published/dates");
  if (dates.ok) releaseDates = await dates.json();
  const tags = [...new Set(packs.flatMap((p) => p.tags))].sort();
  const wanted = new URLSearchParams(location.search).get("tag") || tagFilter.value;
  tagFilter.replaceChildren(element("option", { value: "" }, "every tag"),
    ...tags.map((t) => element("option", { value: t }, t)));
  if (tags.includes(wanted)) tagFilter.value = wanted;
  showPacks();
}

search.addEventListener("input", showPacks);
tagFilter.addEventListener("change", showPacks);
sortBy.addEventListener("change", showPacks);

// The packs the server plays (from /api/packs), each with its modes and settings.
function settingWords(setting) {
  const [kind, spec] = Object.entries(setting.kind)[0];
  if (kind === "Bool") return setting.title + ": on or off (" + (spec.default ? "on" : "off") + ")";
  if (kind === "Int") {
    const step = spec.step && spec.step > 1 ? " in steps of " + spec.step : "";
    return setting.title + ": " + spec.min + " to " + spec.max + step + " (" + spec.default + ")";
  }
  return setting.title + ": " + spec.options.join(", ") + " (" + spec.default + ")";
}

function playedItem(pack) {
  const item = element("li", { class: "pack played", "data-id": pack.id });
  const heading = element("h3", {});
  heading.append(element("a", { class: "page", href: "/packs/" + encodeURIComponent(pack.id) }, pack.title),
    " ", element("span", { class: "version" }, pack.id + " " + pack.version));
  item.append(heading);
  item.append(element("p", { class: "description" }, pack.description));
  const modes = element("ul", { class: "modes" });
  for (const mode of pack.modes) {
    const seats = mode.min_seats === mode.max_seats
      ? mode.min_seats + " players"
      : mode.min_seats + " to " + mode.max_seats + " players";
    const line = element("li", { class: "mode", "data-id": mode.id });
    line.append(element("strong", {}, mode.title), " (" + seats + ")");
    if (mode.description) line.append(": " + mode.description);
    modes.append(line);
  }
  item.append(modes);
  if (pack.settings.length) {
    item.append(element("p", { class: "settings" }, pack.settings.map(settingWords).join(" · ")));
  }
  return item;
}

async function loadPlayed() {
  const answer = await fetch("/api/packs");
  if (!answer.ok) return;
  const list = await answer.json();
  document.getElementById("played-list").replaceChildren(...list.packs.map(playedItem));
  offerToHost(list.packs);
}

// Host a match: a pack's mode, its settings within their ranges, each seat open or the AI.
const hostPack = document.getElementById("host-pack");
const hostMode = document.getElementById("host-mode");
let hostable = [];

function offerToHost(packs) {
  hostable = packs;
  hostPack.replaceChildren(...packs.map((p) => element("option", { value: p.id }, p.title)));
  showModes();
}

function chosenPack() {
  return hostable.find((p) => p.id === hostPack.value);
}

function showModes() {
  const pack = chosenPack();
  if (!pack) return;
  hostMode.replaceChildren(...pack.modes.map((m) => element("option", { value: m.id }, m.title)));
  showSettings(pack);
  showSeats();
}

// A field for each setting, bounded as the pack declares it.
function showSettings(pack) {
  const fields = pack.settings.map((setting) => {
    const [kind, spec] = Object.entries(setting.kind)[0];
    const label = element("label", { class: "setting" }, setting.title + " ");
    let input;
    if (kind === "Bool") {
      input = element("input", { type: "checkbox" });
      input.checked = spec.default;
    } else if (kind === "Int") {
      input = element("input", { type: "number", min: spec.min, max: spec.max,
        step: spec.step || 1, value: spec.default, required: "" });
    } else {
      input = element("select", {});
      input.replaceChildren(...spec.options.map((o) => element("option", { value: o }, o)));
      input.value = spec.default;
    }
    input.dataset.setting = setting.id;
    label.append(input);
    return label;
  });
  document.getElementById("host-settings").replaceChildren(...fields);
}

function showSeats() {
  const pack = chosenPack();
  const mode = pack && pack.modes.find((m) => m.id === hostMode.value);
  if (!mode) return;
  // The first seat is the host's own ("me"), the others open; one seat at most is "me".
  const seats = mode.seat_names.map((name, i) => {
    const label = element("label", { class: "seat" }, name + " ");
    const who = element("select", { "data-seat": name });
    who.replaceChildren(...[["me", "me"], ["open", "open"], ["easy", "AI easy"],
      ["normal", "AI normal"], ["hard", "AI hard"]].map(([value, text]) => element("option", { value }, text)));
    who.value = i === 0 ? "me" : "open";
    who.addEventListener("change", () => {
      if (who.value !== "me") return;
      for (const other of document.querySelectorAll("#host-seat-list [data-seat]")) {
        if (other !== who && other.value === "me") other.value = "open";
      }
    });
    label.append(who);
    return label;
  });
  document.getElementById("host-seat-list").replaceChildren(...seats);
}

document.getElementById("host-name").value = localStorage.getItem("scryptic.name") || "";
hostPack.addEventListener("change", showModes);
hostMode.addEventListener("change", showSeats);

document.getElementById("host-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const result = document.getElementById("host-result");
  const settings = {};
  for (const input of document.querySelectorAll("#host-settings [data-setting]")) {
    settings[input.dataset.setting] = input.type === "checkbox" ? String(input.checked) : input.value;
  }
  const seats = {};
  let mine = null;
  for (const who of document.querySelectorAll("#host-seat-list [data-seat]")) {
    if (who.value === "me") mine = who.dataset.seat;
    else if (who.value !== "open") seats[who.dataset.seat] = { kind: "ai", level: who.value };
  }
  const name = document.getElementById("host-name").value.trim();
  // The browser client keeps the name under the same key: typed once, known there too.
  if (name) localStorage.setItem("scryptic.name", name);
  const request = { protocol: 1, pack: hostPack.value, mode: hostMode.value, settings, seats,
    log_after_end: document.getElementById("host-log").checked };
  // A seed deals the same game again (empty: the server draws one).
  const seed = document.getElementById("host-seed").value.trim();
  if (seed !== "") {
    if (!/^[0-9]+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      result.textContent = "Not hosted: a seed is a whole number from 0 to " + Number.MAX_SAFE_INTEGER;
      return;
    }
    request.seed = Number(seed);
  }
  const answer = await fetch("/api/matches", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
  const body = await answer.json();
  if (!answer.ok) {
    result.textContent = "Not hosted: " + body.error;
    return;
  }
  const link = location.origin + "/matches/" + body.id;
  result.replaceChildren("Match " + body.id + " hosted. Send this link: ",
    element("a", { href: "/matches/" + body.id, class: "hosted" }, link));
  if (mine) {
    // The host's seat is open until the host takes it: in the browser client, by its link.
    const play = "/matches/" + body.id + "?seat=" + encodeURIComponent(mine) +
      (name ? "&name=" + encodeURIComponent(name) : "");
    result.append(" ", element("a", { href: play, class: "play" }, "Play your seat (" + mine + ")"));
  }
  loadMatches();
});

// Matches, and one watched.
const matchList = document.getElementById("match-list");
// The watched match's panel: shown inside the match's item, where the eye is.
const watchingPanel = document.getElementById("watching");
let watching = null;
let watchedId = null;

// Puts the panel under the watched match's item (again, after the list is made anew).
function placeWatchingPanel() {
  const item = watchedId && matchList.querySelector('li.match[data-id="' + watchedId + '"]');
  if (item && watchingPanel.parentElement !== item) item.append(watchingPanel);
}

function seatWords(seat) {
  const who = seat.occupant;
  if (who.kind === "open") return seat.seat + ": open";
  if (who.kind === "ai") return seat.seat + ": AI " + who.level;
  return seat.seat + ": " + who.name + (who.connected ? "" : " (away)");
}

// Where a match stands, in words: waiting for players, whose turn, or how it ended.
function standing(m) {
  if (m.state === "waiting") {
    const open = m.seats.filter((s) => s.occupant.kind === "open").length;
    return "waiting for " + open + (open === 1 ? " player" : " players");
  }
  // A scripted game's rules keep their own count: no scores then.
  const scores = m.scores.length
    ? "; " + m.seats.map((s, i) => s.seat + " " + m.scores[i]).join(" · ")
    : "";
  if (m.ended && m.state === "over") {
    const who = m.ended.winner ? m.ended.winner + " won" : "a draw";
    return "over: " + who + " (" + m.ended.why + ")" + scores;
  }
  const acting = m.to_act.length ? m.to_act.join(" and ") + " to play" : "played at once";
  const clock = m.move_due_ms ? " (" + timeLeft(m.move_due_ms) + " left for the move)" : "";
  return "turn " + m.turn + ", " + acting + clock + scores;
}

// The time until `ms` (milliseconds since 1970), in its two largest units: "2d 23h", "5m 20s".
function timeLeft(ms) {
  let left = Math.max(0, Math.ceil((ms - Date.now()) / 1000));
  const parts = [];
  for (const [name, size] of [["d", 86400], ["h", 3600], ["m", 60], ["s", 1]]) {
    if (left >= size || (parts.length === 0 && size === 1)) {
      parts.push(Math.floor(left / size) + name);
      left %= size;
    } else if (parts.length) {
      break;
    }
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

// The seat this browser keeps for match `id` (the client keeps it when it takes one).
function keptSeat(id) {
  const kept = localStorage.getItem("scryptic.seat." + id);
  return kept ? kept.split("\n")[0] : null;
}

// The ids of the matches whose seat this browser keeps (at most a page of them: the server
// answers 500 ids a request).
function keptIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("scryptic.seat.")) ids.push(key.slice("scryptic.seat.".length));
  }
  return ids.filter((id) => /^[0-9a-z]+$/.test(id)).slice(0, 500);
}

// The matches whose seat this browser keeps: those waiting on it first, the soonest to run out
// of time first; each links to its seat in the client.
async function loadMine() {
  const ids = keptIds();
  if (!ids.length) return showMine([]);
  const answer = await fetch("/api/matches?ids=" + ids.join(","));
  if (answer.ok) showMine((await answer.json()).matches);
}

function showMine(matches) {
  const mine = matches
    .map((m) => ({ m, seat: keptSeat(m.id) }))
    .filter(({ seat }) => seat)
    .map(({ m, seat }) => ({ m, seat, yours: m.state !== "over" && m.to_act.includes(seat) }));
  mine.sort((a, b) => (b.yours - a.yours) ||
    ((a.m.move_due_ms || Infinity) - (b.m.move_due_ms || Infinity)));
  const items = mine.map(({ m, seat, yours }) => {
    const item = element("li", { class: yours ? "mine yours" : "mine", "data-id": m.id });
    item.append(element("strong", {}, yours ? "Your turn " : m.state === "over" ? "Over " : "Waiting "));
    item.append(element("a", { href: "/matches/" + m.id }, m.title + " (" + seat + ")"));
    item.append(element("p", { class: "standing" }, standing(m)));
    return item;
  });
  document.getElementById("my-matches").replaceChildren(...items);
  document.getElementById("mine").hidden = items.length === 0;
}

// How long ago `ms` (milliseconds since 1970) was, in words.
function ago(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return seconds + " s ago";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes + " min ago";
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours + " h ago";
  return Math.round(hours / 24) + " days ago";
}

// The match the page was opened on (`/?match=ID`), if any.
const linked = new URLSearchParams(location.search).get("match") || undefined;
let linkedShown = false;

function matchItem(m) {
  // The match's address at the process that serves it, where several share a database.
  const link = (m.server || location.origin) + "/matches/" + m.id;
  const item = element("li", { class: "match", "data-id": m.id });
  if (m.id === linked) item.classList.add("chosen");
  item.append(element("strong", {}, m.title + " "));
  item.append(element("span", { class: "version" }, m.mode + " "));
  item.append(element("span", { class: "match-id" }, m.id));
  item.append(element("p", { class: "standing" }, standing(m)));
  item.append(element("p", { class: "seats" }, m.seats.map(seatWords).join(" · ")));
  item.append(element("p", { class: "times" },
    "started " + ago(m.started_ms) + " · last move " + ago(m.last_moved_ms) +
    " · " + m.actions + " actions"));
  if (m.state === "waiting") {
    item.append(element("p", { class: "join" }, "Play: scryptic join " + link + " --seat NAME"));
  }
  const button = element("button", { type: "button", class: "watch" }, "Watch");
  button.addEventListener("click", () => watch(m));
  item.append(button);
  // The match's link opens the browser client: a seat to take, or the match to watch there.
  item.append(element("a", { class: "link", href: "/matches/" + m.id },
    m.state === "over" ? "Open" : "Play"));
  if (m.state === "over" && m.log_after_end) {
    item.append(element("a", { class: "log", href: "/api/matches/" + m.id + "/save",
      download: m.id + ".ron" }, "Log"));
    item.append(element("a", { class: "replay", href: "/matches/" + m.id + "?replay" }, "Replay"));
  }
  return item;
}

// How many of the newest matches the list shows (More shows another page).
let shownMatches = 100;

async function loadMatches() {
  loadMine();
  const answer = await fetch("/api/matches?limit=" + Math.min(shownMatches, 500));
  if (!answer.ok) return;
  const list = await answer.json();
  const shown = list.matches.slice();
  // The match linked to or watched, if older than the page, is asked for by itself and
  // listed first.
  const wanted = [linkedShown ? null : linked, watchedId];
  for (const id of new Set(wanted.filter((id) => id && !shown.some((m) => m.id === id)))) {
    const one = await fetch("/api/matches/" + encodeURIComponent(id));
    if (one.ok) shown.unshift(await one.json());
  }
  matchList.replaceChildren(...shown.map(matchItem));
  if (list.total > list.matches.length && shownMatches < 500) {
    const more = element("button", { type: "button", class: "more" },
      "More (" + list.matches.length + " of " + list.total + " shown)");
    more.addEventListener("click", () => { shownMatches += 100; loadMatches(); });
    matchList.append(element("li", { class: "hint" }, more));
  }
  if (!shown.length) {
    matchList.append(element("li", { class: "hint" }, "No matches yet: host one below."));
  }
  placeWatchingPanel();
  if (linked && !linkedShown) {
    linkedShown = true;
    const chosen = shown.find((m) => m.id === linked);
    const missing = document.getElementById("match-missing");
    if (chosen) {
      watch(chosen);
      watchingPanel.parentElement.scrollIntoView();
    } else {
      missing.textContent = "This server has no match " + linked + ".";
      missing.hidden = false;
    }
  }
}

function drawBoard(snapshot) {
  const board = watchingPanel.querySelector("#board");
  const terrain = snapshot.board.terrain;
  const letters = snapshot.board.letters.cells;
  const cities = new Set(snapshot.board.cities.map((c) => c.at.y * terrain.width + c.at.x));
  board.style.gridTemplateColumns = "repeat(" + terrain.width + ", 18px)";
  // A scripted game's pieces (Scryper's bricks): on their cells, with their value, or ? where
  // it is hidden from the spectator.
  const table = snapshot.table || {};
  const pieces = table.pieces || [];
  const pieceAt = table.at || [];
  const owned = (player) => (player === "Gold" || player === "Silver" ? player : "other");
  const cells = terrain.cells.map((kind, i) => {
    const cell = element("div", { class: "cell " + kind + (cities.has(i) ? " city" : "") });
    const tile = letters[i];
    const piece = pieceAt[i] !== null && pieceAt[i] !== undefined ? pieces[pieceAt[i]] : null;
    if (tile) {
      cell.classList.add("p-" + owned(tile.player));
      cell.textContent = tile.letter;
    } else if (piece) {
      cell.classList.add("piece", "p-" + owned(piece.owner));
      cell.textContent = piece.value === null || piece.value === undefined ? "?" : String(piece.value);
      cell.title = piece.kind;
    }
    return cell;
  });
  board.replaceChildren(...cells);
}

// A seat as the match's mode names it (`brown`), from the protocol's word for it (`Silver`,
// `Seat3`: seats in order).
function seatName(info, player) {
  const order = { Gold: 0, Silver: 1 };
  const index = player in order ? order[player] : Number((String(player).match(/\d+/) || [0])[0]) - 1;
  const seat = info.seats[index];
  return seat ? seat.seat : String(player).toLowerCase();
}

function watch(info) {
  if (watching) watching.close();
  // At the process that serves the match, where several share a database (a browser's
  // WebSocket follows no redirect).
  const base = (info.server || location.origin).replace(/^http/, "ws");
  const socket = new WebSocket(base + "/api/matches/" + info.id + "/play");
  watching = socket;
  watchedId = info.id;
  placeWatchingPanel();
  watchingPanel.hidden = false;
  watchingPanel.querySelector("#watching-title").textContent = info.title;
  const status = watchingPanel.querySelector("#watching-status");
  status.textContent = "connecting...";
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ protocol: 1, type: "hello", token: null, seen: null }));
  });
  socket.addEventListener("message", (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "view") {
      drawBoard(frame.snapshot);
      const snapshot = frame.snapshot;
      status.textContent = snapshot.result
        ? "over after " + frame.actions + " actions"
        : "turn " + snapshot.turn + ", " + seatName(info, snapshot.active) + " to play (" +
          frame.actions + " actions)";
    } else if (frame.type === "error" || frame.type === "refused") {
      status.textContent = frame.message;
    }
  });
  socket.addEventListener("close", () => {
    if (watching === socket) status.textContent += " (disconnected)";
  });
}

loadPacks();
loadPlayed();
loadMatches();
setInterval(loadMatches, 5000);
