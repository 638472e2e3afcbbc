// The teleprompter: the script scrolls by the rig's clock, so every screen
// shows the same line. Slate sends where the script was at an instant and
// its speed; this page counts on from there.
"use strict";

const pointsToPixels = 4 / 3;
let prompter = null;
let serverNow = 0;     // the status's `now`
let receivedAt = 0;    // performance.now() when it came
let scale = 1;         // the column shrunk to fit a narrow screen
let layoutKey = "";

function position() {
  if (!prompter) return 0;
  const now = serverNow + (performance.now() - receivedAt) / 1000;
  const raw = prompter.running ? prompter.anchor + prompter.speed * Math.max(0, now - prompter.since) : prompter.anchor;
  if (prompter.end === "loop") {
    const lap = prompter.length + prompter.gap;
    return lap > 0 ? raw % lap : 0;
  }
  return Math.min(raw, prompter.length);
}

function layout() {
  const script = document.getElementById("script");
  const key = `${prompter.font} ${prompter.width} ${window.innerWidth}`;
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
  if (prompter) {
    layout();
    const readingLine = window.innerHeight * 0.33;
    const offset = position() * pointsToPixels * scale;
    const script = document.getElementById("script");
    script.style.transform = `translateX(-50%) translateY(${readingLine - offset}px) scale(${scale})`;
    script.style.transformOrigin = "50% 0";
    const state = !prompter.recording ? "standby" : prompter.paused ? "paused" : "scrolling";
    document.getElementById("state").textContent = `${state} · ${prompter.speed} pt/s`;
  }
  requestAnimationFrame(frame);
}

// The line at the reading line, from 0: what screens compare.
window.slatePrompter = {
  line: () => (prompter ? Math.floor(position() / prompter.line_height) : null),
  position,
};

async function loadScript() {
  const response = await fetch("/prompter/script.json");
  if (!response.ok) {
    document.getElementById("state").textContent = "this rig's profile has no prompter";
    return;
  }
  const script = await response.json();
  document.getElementById("script").replaceChildren(...script.lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line.text || " ";
    if (line.heading) item.className = "heading";
    return item;
  }));
}

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("status", (event) => {
    const status = JSON.parse(event.data);
    serverNow = status.now;
    receivedAt = performance.now();
    prompter = status.prompter || null;
  });
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
  });
}

loadScript().then(connect);
requestAnimationFrame(frame);
