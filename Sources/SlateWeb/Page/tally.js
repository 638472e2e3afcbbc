// The tally: the whole screen in the colour of the rig's state (the status's
// `tally`), for a phone or tablet taped beside the lens: red while a take
// records, with its number and time; green standby, blue exporting, amber
// blinking on an error; grey and "not responding" when the rig stops
// answering, never red unless a live rig says it records.
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
let lost = true;

function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(whole / 3600);
  return (hours ? `${hours}:${pad(Math.floor(whole / 60) % 60)}` : `${Math.floor(whole / 60)}`) + `:${pad(whole % 60)}`;
}

function render() {
  const body = document.body;
  const state = lost || !status ? "lost" : status.tally || "standby";
  body.className = state;
  if (state === "error" && Math.floor(performance.now() / 500) % 2 === 1) body.classList.add("dim");
  document.getElementById("word").textContent = state === "lost" ? "rig not responding" : words[state] || state;
  let detail = "";
  if (state === "recording" && status.take) {
    const now = status.now + (performance.now() - receivedAt) / 1000;
    detail = `take ${status.take.number} · ${clock(now - status.take.started)}`;
  } else if (state === "exporting" && status.export) {
    detail = `${status.export.takes} takes · ${Math.round(status.export.done * 100)} %`;
  } else if (state === "standby" && status) {
    detail = `${status.takes.length} take${status.takes.length === 1 ? "" : "s"}`;
  }
  document.getElementById("detail").textContent = detail;
  const camera = status && status.camera ? status.camera.name : "";
  document.getElementById("note").textContent = state === "lost" ? "the last state is not shown: the rig may not be recording" : camera;
}

function connect() {
  if (events) events.close();
  lastTry = performance.now();
  events = new EventSource("/events");
  events.addEventListener("status", (event) => {
    status = JSON.parse(event.data);
    receivedAt = performance.now();
    render();
  });
  events.addEventListener("heartbeat", () => {
    lastBeat = performance.now();
    if (lost) {
      lost = false;
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
