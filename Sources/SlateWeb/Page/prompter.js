// The teleprompter: the script scrolls by the rig's clock, so every screen
// shows the same line. Slate sends where the script was at an instant and
// its speed; this page counts on from there. A red frame tells the talent a
// take records; a rig that stops answering is shown so, never as recording.
// A script saved from the rig's page (or read again on SIGHUP) comes with a
// new version in the status, and is read again at once.
"use strict";

const pointsToPixels = 4 / 3;
// The daemon's loop sends a heartbeat every 0.5 s: none for this long and the rig is lost.
const heartbeatLimit = 2000;
// While it is lost, the stream is opened again this often.
const retryEvery = 1000;
let prompter = null;
let serverNow = 0;     // the status's `now`
let receivedAt = 0;    // performance.now() when it came
let scale = 1;         // the column shrunk to fit a narrow screen
let layoutKey = "";
let events = null;
let lastBeat = performance.now();
let lastTry = 0;
let lost = false;
let beating = false;     // a heartbeat came since the stream was opened
let shownVersion = null; // the script's version on screen
let shownKey = null;     // its version and width: the lines on screen
let loading = false;     // the script is being read

function position() {
  if (!prompter) return 0;
  return prompterPosition(prompter, serverNow + (performance.now() - receivedAt) / 1000);
}

function layout() {
  const script = document.getElementById("script");
  const key = `${prompter.font} ${prompter.width} ${window.innerWidth} ${shownKey}`;
  if (key === layoutKey) return;
  layoutKey = key;
  const font = prompter.font * pointsToPixels;
  script.style.fontSize = `${font}px`;
  script.style.lineHeight = `${prompter.line_height * pointsToPixels}px`;
  script.style.width = `${prompter.width}ch`;
  script.style.transform = "none";
  const width = script.getBoundingClientRect().width;
  scale = Math.min(1, (window.innerWidth * 0.94) / width);
  document.getElementById("stage").classList.toggle("mirror", prompter.mirror);
}

function frame() {
  document.body.classList.toggle("tally", Boolean(prompter && prompter.recording) && beating && !lost);
  document.body.classList.toggle("lost", lost);
  if (lost) {
    document.getElementById("state").textContent = "rig not responding";
  } else if (prompter) {
    layout();
    const readingLine = window.innerHeight * 0.33;
    const point = position();
    const script = document.getElementById("script");
    script.style.transform = `translateX(-50%) translateY(${readingLine - point * pointsToPixels * scale}px) scale(${scale})`;
    script.style.transformOrigin = "50% 0";
    document.getElementById("state").textContent = prompterSummary(prompter, point);
  }
  requestAnimationFrame(frame);
}

// What tests read: the line at the reading line, from 0, and what is shown.
window.slatePrompter = {
  line: () => (prompter ? Math.floor(position() / prompter.line_height) : null),
  position,
  version: () => shownVersion,
  tally: () => document.body.classList.contains("tally"),
  lost: () => lost,
};

async function readScript(key) {
  const response = await fetch("/prompter/script.json", { cache: "no-store" });
  if (!response.ok) throw new Error(`the script could not be read (${response.status})`);
  const script = await response.json();
  document.getElementById("script").replaceChildren(...script.lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line.text || " ";
    if (line.heading) item.className = "heading";
    else if (line.cue) item.className = "cue-mark";
    return item;
  }));
  shownVersion = script.version;
  shownKey = key;
}

// Reads the script when the status names another version or width than the
// lines shown; one that could not be read is tried again a second later.
function followScript() {
  if (loading || !prompter) return;
  const key = `${prompter.version} ${prompter.width}`;
  if (key === shownKey) return;
  loading = true;
  readScript(key).then(() => {
    loading = false;
    followScript();
  }, (error) => {
    document.getElementById("state").textContent = error.message;
    setTimeout(() => {
      loading = false;
      followScript();
    }, retryEvery);
  });
}

function heartbeat() {
  lastBeat = performance.now();
  beating = true;
  lost = false;
}

function connect() {
  if (events) events.close();
  lastTry = performance.now();
  beating = false;
  events = new EventSource("/events");
  events.addEventListener("status", (event) => {
    const status = JSON.parse(event.data);
    serverNow = status.now;
    receivedAt = performance.now();
    prompter = status.prompter || null;
    if (!prompter) document.getElementById("state").textContent = "this rig's profile has no prompter";
    followScript();
  });
  events.addEventListener("heartbeat", heartbeat);
  events.addEventListener("error", () => { lost = true; });
}

// No heartbeat for heartbeatLimit: the rig is lost; its stream is asked for again every retryEvery.
setInterval(() => {
  const now = performance.now();
  if (now - lastBeat < heartbeatLimit) return;
  lost = true;
  if (now - lastTry >= retryEvery) connect();
}, 250);

connect();
requestAnimationFrame(frame);
