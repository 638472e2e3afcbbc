// The tally: the whole screen in the colour of the rig's state (the status's
// `tally`), for a phone or tablet taped beside the lens: red while a take
// records, with its number and time; green standby, blue exporting, amber
// blinking on an error; grey and "not responding" when the rig stops
// answering, never red unless a live rig says it records. A rig on a broker
// shows the other rigs too, a tile each, in their own colours.
"use strict";

// The daemon's loop sends a heartbeat every 0.5 s: none for this long and the rig is lost.
const heartbeatLimit = 2000;
const retryEvery = 1000;
const words = { standby: "standby", recording: "rec", exporting: "exporting", error: "error" };
let status = null;
let receivedAt = 0;
let events = null;
let lastBeat = performance.now();
let lastTry = 0;
let lost = false;     // no heartbeat for heartbeatLimit
let beating = false;  // a heartbeat came since the stream was opened: a status is shown only then
let shown = "connecting";
let shownSince = 0;

function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(whole / 3600);
  return (hours ? `${hours}:${pad(Math.floor(whole / 60) % 60)}` : `${Math.floor(whole / 60)}`) + `:${pad(whole % 60)}`;
}

// "1 take", "2 takes".
function takes(count) {
  return `${count} take${count === 1 ? "" : "s"}`;
}

// The word as large as the CSS makes it, or smaller where its longest word would be wider than the screen.
function fit(word) {
  word.style.fontSize = "";
  const room = document.documentElement.clientWidth * 0.92;
  if (word.scrollWidth > room) word.style.fontSize = `${(parseFloat(getComputedStyle(word).fontSize) * room) / word.scrollWidth}px`;
}

function render() {
  const body = document.body;
  const state = lost ? "lost" : !status || !beating ? "connecting" : status.tally || "standby";
  if (state !== shown) {
    shown = state;
    shownSince = performance.now();
  }
  body.className = state;
  // An error blinks as the rig's lights do: lit for half a second from its start, then dark.
  if (state === "error" && Math.floor((performance.now() - shownSince) / 500) % 2 === 1) body.classList.add("dim");
  const word = document.getElementById("word");
  const text = state === "lost" ? "rig not responding" : state === "connecting" ? "connecting" : words[state] || state;
  if (word.textContent !== text) {
    word.textContent = text;
    fit(word);
  }
  let detail = "";
  if (state === "recording" && status.take) {
    const now = status.now + (performance.now() - receivedAt) / 1000;
    detail = `take ${status.take.number} · ${clock(now - status.take.started)}`;
  } else if (state === "exporting" && status.export) {
    detail = `${takes(status.export.takes)} · ${Math.floor(status.export.done * 100)} %`;
  } else if (state === "standby" && status) {
    detail = takes(status.takes.length);
  }
  document.getElementById("detail").textContent = detail;
  const camera = status && status.camera ? status.camera.name : "";
  document.getElementById("note").textContent = state === "lost" ? "the last state is not shown: the rig may not be recording" : camera;
  renderTiles(state === "lost" || state === "connecting" ? [] : status.rigs || []);
}

// The other rigs on the broker: a tile each, in its tally's colour (grey when offline), with its take.
function renderTiles(rigs) {
  const tiles = document.getElementById("tiles");
  const key = JSON.stringify(rigs);
  if (tiles.dataset.key === key) return;
  tiles.dataset.key = key;
  tiles.replaceChildren(...rigs.map((rig) => {
    const tile = document.createElement("li");
    tile.className = rig.online ? rig.tally || "standby" : "offline";
    const name = document.createElement("strong");
    name.textContent = rig.rig;
    const state = document.createElement("span");
    state.textContent = !rig.online ? "offline" : rig.tally === "recording" && rig.take ? `rec · take ${rig.take}` : words[rig.tally] || "standby";
    tile.append(name, state);
    return tile;
  }));
}

function connect() {
  if (events) events.close();
  lastTry = performance.now();
  beating = false;
  events = new EventSource("/events");
  events.addEventListener("status", (event) => {
    status = JSON.parse(event.data);
    receivedAt = performance.now();
    render();
  });
  events.addEventListener("heartbeat", () => {
    lastBeat = performance.now();
    if (lost || !beating) {
      lost = false;
      beating = true;
      render();
    }
  });
  events.addEventListener("error", () => {
    lost = true;
    render();
  });
}

// No heartbeat for heartbeatLimit: the rig is lost; its stream is asked for again every retryEvery.
setInterval(() => {
  const now = performance.now();
  if (now - lastBeat >= heartbeatLimit) {
    lost = true;
    if (now - lastTry >= retryEvery) connect();
  }
  render();
}, 250);

window.addEventListener("resize", () => fit(document.getElementById("word")));

// Kept awake as the rig's page is: the Wake Lock where it exists, else the silent video.
if (navigator.wakeLock && window.isSecureContext) {
  const ask = () => navigator.wakeLock.request("screen").catch(() => {});
  ask();
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ask(); });
} else {
  document.addEventListener("click", () => document.getElementById("awake").play().catch(() => {}), { once: true });
  document.getElementById("awake").play().catch(() => {});
}

connect();
