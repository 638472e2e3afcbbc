// The rig's page: the status, report lines and sound level from /events,
// actions to /actions, the framing from /preview.mjpg while it is shown.
"use strict";

const $ = (id) => document.getElementById(id);
const logLimit = 50;
// The daemon's loop sends a heartbeat every 0.5 s: with none for this long the
// rig is shown lost (grey, what it was last seen doing), never as recording.
// Only heartbeats count: the status and the lines a new stream starts with
// come from the page's server, which may live on while the loop is stuck.
const heartbeatLimit = 2000;
// While it is lost, the stream is opened again this often.
const retryEvery = 1000;
let status = null;
let events = null;
let lastBeat = performance.now();
let beating = false; // a heartbeat came since the page loaded or the rig was lost
let freshStream = false; // the stream's first status is still to come
let lastTry = 0;
let lost = null; // {at: Date, status} from when the rig stopped answering
let statusClock = 0; // performance.now() when status.now was the server's time
let takesKey = "";
let filterChosen = false; // once the user picks an export filter, the rig's no longer overrides it

function seconds(value) {
  const total = Math.max(0, value);
  const minutes = Math.floor(total / 60);
  const rest = total - minutes * 60;
  return `${String(minutes).padStart(2, "0")}:${rest.toFixed(1).padStart(4, "0")}`;
}

// `9 h 17 min`, `17 min`: a time left that cannot be read as minutes:seconds.
function hoursMinutes(totalSeconds) {
  const minutes = Math.floor(totalSeconds / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

function serverNow() {
  return status ? status.now + (performance.now() - statusClock) / 1000 : 0;
}

function renderState() {
  const header = $("state");
  const recording = Boolean(status && status.recording) && beating && !lost;
  header.classList.toggle("recording", recording);
  header.classList.toggle("idle", !recording && !lost);
  header.classList.toggle("lost", Boolean(lost));
  document.body.classList.toggle("lost", Boolean(lost));
  header.dataset.recording = recording ? "true" : "false";
  $("state-word").textContent = lost
    ? "NOT RESPONDING"
    : status && beating ? (recording ? "RECORDING" : "STANDBY") : "connecting";
  $("lost-detail").hidden = !lost;
  if (lost) $("lost-detail").textContent = lostText();
  $("toggle").textContent = recording ? "Stop" : "Record";
  $("toggle").classList.toggle("stop", recording);
  $("mark").hidden = !recording;
  for (const id of ["toggle", "delete-last", "export"]) $(id).disabled = !reachable();
  for (const element of document.querySelectorAll("[data-action]")) element.disabled = !reachable();
  if (lost) {
    for (const id of ["elapsed", "take-number", "dropped"]) $(id).textContent = "";
    return;
  }
  const take = status && status.take;
  $("take-number").textContent = take ? `take ${take.number}` : status ? `${status.takes.length} takes` : "";
  $("dropped").textContent = take ? `${take.frames} frames, ${take.dropped} dropped` : "";
  $("dropped").classList.toggle("failed", Boolean(take && take.dropped));
  renderElapsed();
}

// `rig not responding since 10:02:31 — last seen recording take 3 at 00:31`.
function lostText() {
  const since = lost.at.toLocaleTimeString([], { hour12: false });
  const seen = lost.status;
  if (!seen) return `rig not responding since ${since}`;
  const take = seen.take;
  const doing = take
    ? `recording take ${take.number} at ${seconds(seen.now - take.started)}`
    : `in standby, ${seen.takes.length} takes`;
  return `rig not responding since ${since} — last seen ${doing}`;
}

function renderElapsed() {
  if (lost) return;
  const take = status && status.take;
  $("elapsed").textContent = take ? seconds(serverNow() - take.started) : "";
  renderPrompter();
}

// The prompter's card, shown when the profile has one: its cue and state as it scrolls.
function renderPrompter() {
  const prompter = status && status.prompter;
  $("prompter-box").hidden = !prompter;
  if (!prompter) return;
  $("prompter-state").textContent = prompterSummary(prompter, prompterPosition(prompter, serverNow()))
    + ` · a take starts ${{ cue: "at its cue", top: "at the top", stay: "where it stands" }[prompter.start]}`;
  $("prompter-pause").textContent = prompter.paused ? "Go on" : "Pause";
  $("script-edit").hidden = !prompter.editable;
  $("prompter-pause").setAttribute("aria-pressed", String(prompter.paused));
}

function renderFacts() {
  const camera = status.camera;
  const recorded = camera && camera.mode ? `, ${camera.mode} → ${camera.encoder}` : "";
  $("camera").textContent = camera
    ? `${camera.name}, ${camera.position}${recorded}, ${camera.fps} fps, zoom ${camera.zoom.toFixed(1)}×${camera.torch ? ", torch" : ""}`
    : "none";
  $("fps-toggle").textContent = camera ? `${camera.fps} fps` : "fps";
  $("camera-toggle").textContent = camera ? `${camera.position === "back" ? "Back" : "Front"} camera` : "Camera";
  $("torch-toggle").setAttribute("aria-pressed", String(Boolean(camera && camera.torch)));
  for (const factor of [1, 2]) $(`zoom-${factor}`).classList.toggle("on", Boolean(camera) && camera.zoom === factor);
  renderInputs();
  $("filter").textContent = status.filter;
  if (!filterChosen) $("export-filter").value = status.filter;
  const disk = status.disk;
  if (disk) {
    const gigabytes = (disk.free_bytes / 1e9).toFixed(1);
    $("disk").textContent = disk.seconds_left != null
      ? `${hoursMinutes(disk.seconds_left)} of recording left (${gigabytes} GB)`
      : `${gigabytes} GB free`;
  }
  $("sound-row").hidden = !status.sound;
  if (status.sound) $("sound").textContent = status.sound.device;
  $("export-row").hidden = !status.export;
  if (status.export) {
    $("export-progress").value = status.export.done;
    $("export-text").textContent = `${status.export.takes} takes, ${Math.floor(status.export.done * 100)}%`;
  }
}

// Each input of the profile: connected (to which device) or not, and when it was last used.
function renderInputs() {
  const inputs = status.inputs || [];
  $("inputs-row").hidden = inputs.length === 0;
  $("inputs").replaceChildren(...inputs.map((input) => {
    const item = document.createElement("li");
    item.className = input.device ? "connected" : "missing";
    const used = input.used != null ? `, last used ${ago(serverNow() - input.used)}` : "";
    item.textContent = input.device ? `${input.name}: ${input.device}${used}` : `${input.name}: not connected`;
    return item;
  }));
}

// `4 s ago`, `3 min ago`.
function ago(secondsAgo) {
  const whole = Math.max(0, Math.round(secondsAgo));
  return whole < 60 ? `${whole} s ago` : whole < 3600 ? `${Math.floor(whole / 60)} min ago` : `${hoursMinutes(whole)} ago`;
}

function renderTakes() {
  const exporting = status.export ? status.export.items : [];
  const trash = status.trash || [];
  const key = JSON.stringify([status.takes, exporting, trash]);
  if (key === takesKey) return;
  takesKey = key;
  const cards = exporting.map((take) => takeCard(take, true)).concat(status.takes.map((take) => takeCard(take, false)));
  $("takes").replaceChildren(...cards);
  $("trash-box").hidden = trash.length === 0;
  $("trash").replaceChildren(...trash.slice().reverse().map(trashItem));
}

// `10:02:31`: a UTC time as the local time of day.
function timeOfDay(utc) {
  return new Date(utc).toLocaleTimeString([], { hour12: false });
}

function button(text, className, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = text;
  element.addEventListener("click", onClick);
  return element;
}

// A take's card: its thumbnail, number, time of day, length and sound; Play,
// Download, and a Delete that names the take by its file, so a list changed
// meanwhile deletes no other take, and asks first. A take an export is
// joining is marked so, and cannot be deleted.
function takeCard(take, exporting) {
  const item = document.createElement("li");
  item.dataset.take = take.number;
  if (take.thumbnail) {
    const image = document.createElement("img");
    image.src = take.thumbnail;
    image.alt = `take ${take.number}`;
    item.append(image);
  }
  const caption = document.createElement("div");
  caption.className = "caption";
  const length = `${seconds(take.duration)}${take.dropped ? `  ${take.dropped} dropped` : ""}`;
  const facts = [take.start ? timeOfDay(take.start) : "", length, take.sound === undefined ? "no sound" : "sound"];
  caption.textContent = exporting ? `being exported  ${length}` : `${take.number}  ${facts.filter(Boolean).join(" · ")}`;
  item.append(caption);
  if (exporting) {
    item.classList.add("exporting");
    return item;
  }
  const actions = document.createElement("div");
  actions.className = "take-actions";
  if (take.video) {
    actions.append(button("Play", "play", () => play(take)));
    const download = document.createElement("a");
    download.className = "download";
    download.href = `${take.video}&download`;
    download.download = take.file;
    download.textContent = "Download";
    actions.append(download);
  }
  actions.append(button("Delete", "delete", () => {
    if (confirm(`Delete take ${take.number}? ${afterDelete()}`)) {
      act(`take.delete ${take.file}`);
    }
  }));
  item.append(actions);
  return item;
}

// What becomes of a take deleted now, as the rig keeps its trash.
function afterDelete() {
  const hours = status ? status.trash_hours : 24;
  return hours > 0
    ? `It waits in the trash for ${hours} h, where Restore brings it back.`
    : "Its file is deleted at once: this rig keeps no trash (camera.trash-hours: 0).";
}

// A take in the trash: when it was deleted, when it goes for good, and Restore.
function trashItem(take) {
  const item = document.createElement("li");
  item.dataset.file = take.file;
  const text = document.createElement("span");
  text.textContent = `${take.file}  ${seconds(take.duration)} · deleted ${timeOfDay(take.deleted)}`
    + ` · deleted for good ${new Date(take.expires).toLocaleString([], { hour12: false })}`;
  item.append(text, button("Restore", "restore", () => act(`take.undelete ${take.file}`)));
  return item;
}

// The player: the take's file through /takes/N/video, which answers range
// requests, so the player seeks.
function play(take) {
  const video = $("player-video");
  video.src = take.video;
  $("player-title").textContent = `Take ${take.number}`;
  $("player").showModal();
  video.play().catch(() => {});
}

function renderOverlay() {
  const controls = status.controls;
  const overlay = $("overlay");
  overlay.dataset.shown = controls.shown;
  overlay.hidden = controls.items.length === 0;
  if (controls.items.length === 0) return;
  overlay.classList.toggle("hidden", controls.shown === "hidden");
  const item = controls.items[controls.current];
  overlay.classList.toggle("disabled", !item.enabled);
  $("overlay-title").textContent = item.enabled ? item.name : `${item.name} (${item.reason})`;
  $("overlay-value").textContent = item.text;
  renderRuler(item);
  const picker = $("picker");
  picker.hidden = controls.shown !== "picker";
  picker.replaceChildren(...controls.items.map((control, index) => {
    const entry = document.createElement("li");
    entry.textContent = control.name;
    entry.classList.toggle("highlight", index === controls.highlight);
    entry.classList.toggle("disabled", !control.enabled);
    return entry;
  }));
}

function renderRuler(item) {
  const ruler = $("ruler");
  const span = item.maximum - item.minimum;
  const at = (value) => `${span > 0 ? ((value - item.minimum) / span) * 100 : 50}%`;
  const parts = [];
  const prominent = new Set(item.prominent);
  const marks = item.kind === "picker" ? (item.titles || []).map((_, index) => index) : item.detents || [];
  for (const value of marks) {
    const tick = document.createElement("div");
    tick.className = prominent.has(value) ? "tick prominent" : "tick";
    tick.style.left = at(value);
    parts.push(tick);
  }
  for (const value of item.prominent) {
    const label = document.createElement("div");
    label.className = "tick-label";
    label.style.left = at(value);
    label.textContent = String(value);
    parts.push(label);
  }
  if (item.kind === "picker") {
    (item.titles || []).forEach((title, index) => {
      const label = document.createElement("div");
      label.className = "tick-label";
      label.style.left = at(index);
      label.textContent = title;
      parts.push(label);
    });
  }
  const needle = document.createElement("div");
  needle.className = "needle";
  needle.style.left = at(item.value);
  parts.push(needle);
  ruler.replaceChildren(...parts);
}

// The meter's range and scale, in dBFS.
const meterFloor = -60;
const meterScale = [-60, -40, -20, -12, -6, 0];
// A channel's highest peak of this long (ms) is held, as a sound desk's meter holds it.
const peakHold = 2000;
const recentPeaks = []; // per channel, [{peak, at}] of the last peakHold

function meterAt(decibels) {
  return `${Math.min(100, Math.max(0, (decibels - meterFloor) / -meterFloor * 100))}%`;
}

// The sound's level: a bar a channel, RMS filled, the peak a mark and the
// highest peak of the last 2 s held; under the bars, the scale in dB.
function renderMeter(reading) {
  const meter = $("meter");
  const rows = reading.channels.length;
  while (meter.children.length > rows + 1) meter.lastElementChild.previousElementSibling.remove();
  if (!meter.querySelector(".meter-scale")) meter.append(meterScaleRow());
  while (meter.children.length < rows + 1) {
    const row = document.createElement("div");
    row.className = "meter-channel";
    row.innerHTML = '<span class="meter-label"></span><div class="meter-bar"><div class="meter-rms"></div><div class="meter-peak"></div><div class="meter-hold"></div></div><span class="meter-text"></span>';
    meter.insertBefore(row, meter.lastElementChild);
  }
  const now = performance.now();
  reading.channels.forEach((channel, index) => {
    const row = meter.children[index];
    const recent = (recentPeaks[index] || []).filter((reading) => now - reading.at <= peakHold);
    recent.push({ peak: channel.peak, at: now });
    recentPeaks[index] = recent;
    const hold = Math.max(...recent.map((reading) => reading.peak));
    row.dataset.peak = channel.peak;
    row.dataset.hold = hold;
    row.classList.toggle("hot", channel.peak > -6);
    row.classList.toggle("clipped", channel.clipped > 0);
    row.querySelector(".meter-label").textContent = channel.label;
    row.querySelector(".meter-rms").style.width = meterAt(channel.rms);
    row.querySelector(".meter-peak").style.left = meterAt(channel.peak);
    row.querySelector(".meter-hold").style.left = meterAt(hold);
    row.querySelector(".meter-text").textContent = `${hold.toFixed(1)} dB`;
  });
}

function meterScaleRow() {
  const row = document.createElement("div");
  row.className = "meter-scale";
  row.setAttribute("aria-hidden", "true");
  const marks = document.createElement("div");
  marks.className = "meter-marks";
  for (const decibels of meterScale) {
    const mark = document.createElement("span");
    mark.style.left = meterAt(decibels);
    mark.textContent = String(decibels);
    marks.append(mark);
  }
  row.append(document.createElement("span"), marks, document.createElement("span"));
  return row;
}

function lineText(line) {
  const t = line.t.toFixed(3).padStart(9);
  switch (line.type) {
    case "capture": return `${t}  capture  ${line.input} ${line.code} ${line.role} ${line.phase}`;
    case "action": {
      const origin = [line.macro && `macro ${line.macro}`, line.input && `${line.input} ${line.code}`, line.source && `from ${line.source}`]
        .filter(Boolean).join("; ");
      const value = line.value != null ? ` ${line.value}` : "";
      return `${t}  action   ${line.action}${value}${line.result ? ` -> ${line.result}` : ""}${origin ? `  (${origin})` : ""}`;
    }
    case "take": {
      const what = line.take != null ? ` take ${line.take}` : line.takes != null ? ` ${line.takes} takes` : "";
      const duration = line.duration != null ? ` ${line.duration.toFixed(3)} s` : "";
      const done = line.done != null ? ` ${Math.floor(line.done * 100)}%` : "";
      return `${t}  take     ${line.event}${what}${duration}${done}${line.message ? `: ${line.message}` : ""}`;
    }
    case "control": return `${t}  control  ${line.control} ${line.event || ""} ${line.text || ""}`.trimEnd();
    case "sound": return `${t}  sound    ${line.sound}${line.error ? ` failed: ${line.error}` : ""}`;
    case "ignored": return `${t}  ignored  ${line.input} ${line.code} ${line.reason}`;
    case "debounced": return `${t}  debounced ${line.input} ${line.code} bounce ${line.bounce_ms} ms`;
    default: return `${t}  ${line.type}`;
  }
}

// A knob's detents within this many seconds of each other are one gesture: one line.
const gestureGap = 1.0;

function addLine(line) {
  const log = $("log");
  if (foldControl(log.firstElementChild, line)) return;
  const entry = document.createElement("li");
  entry.textContent = lineText(line);
  entry.className = line.type + (line.event === "failed" ? " failed" : "");
  if (line.type === "control" && !line.event) {
    const prefix = line.t.toFixed(3).padStart(9);
    Object.assign(entry.dataset, { control: line.control, first: line.text || "", t: line.t, detents: 1, prefix });
  }
  log.prepend(entry);
  while (log.children.length > logLimit) log.lastElementChild.remove();
}

// A control's new value soon after its last one, as a knob turns, goes into
// that line, from the value its first detent gave to its last:
// `control  Zoom 1.1× … 2.0× (10 detents)`.
function foldControl(entry, line) {
  if (line.type !== "control" || line.event || !entry || entry.dataset.control !== line.control) return false;
  const gap = line.t - Number(entry.dataset.t);
  if (gap < 0 || gap > gestureGap) return false;
  const detents = Number(entry.dataset.detents) + 1;
  Object.assign(entry.dataset, { t: line.t, detents });
  entry.textContent =
    `${entry.dataset.prefix}  control  ${line.control} ${entry.dataset.first} … ${line.text || ""} (${detents} detents)`;
  return true;
}

// A heartbeat: the daemon's loop is alive.
function heartbeat() {
  lastBeat = performance.now();
  if (beating && !lost) return;
  beating = true;
  lost = null;
  renderState();
}

// Whether an action can reach a live rig now.
function reachable() {
  return Boolean(status) && beating && !lost;
}

// The rig stopped answering (or its stream ended): what it was last seen
// doing, at its last heartbeat, is kept, and it is no longer shown as recording.
function markLost() {
  if (lost) return;
  const seen = status ? { ...status, now: status.now + (lastBeat - statusClock) / 1000 } : null;
  lost = { at: new Date(Date.now() - (performance.now() - lastBeat)), status: seen };
  beating = false;
  renderState();
}

function onStatus(next) {
  // A new stream repeats the recent lines after its first status: the log starts again.
  if (freshStream) $("log").replaceChildren();
  freshStream = false;
  status = next;
  statusClock = performance.now();
  renderState();
  renderFacts();
  renderTakes();
  renderOverlay();
}

function connect() {
  if (events) events.close();
  lastTry = performance.now();
  freshStream = true;
  events = new EventSource("/events");
  events.addEventListener("status", (event) => onStatus(JSON.parse(event.data)));
  events.addEventListener("line", (event) => addLine(JSON.parse(event.data)));
  events.addEventListener("meter", (event) => renderMeter(JSON.parse(event.data)));
  events.addEventListener("heartbeat", heartbeat);
  // A stream that ends or cannot be opened: the rig is not known to be alive,
  // or this browser's pairing was revoked (then it is sent to pair again).
  events.addEventListener("error", () => {
    if (status) markLost();
    checkPairing();
  });
}

async function checkPairing() {
  const response = await fetch("/pair/me").catch(() => null);
  if (!response || !response.ok) return;
  me = await response.json();
  renderPairing();
  if (!me.acts && !me.loopback) location.href = "/pair";
}

// No heartbeat for heartbeatLimit: the rig is lost; its stream is asked for
// again every retryEvery until it answers.
function watchRig() {
  const now = performance.now();
  if (now - lastBeat < heartbeatLimit) return;
  if (status) markLost();
  if (now - lastTry >= retryEvery) connect();
}

// The screen kept awake while the page is open: the Screen Wake Lock where the
// browser offers it (a secure context: https, or this machine), else a silent
// video looping out of sight, which phones also keep the screen on for. The
// page says which, or that the screen may sleep.
let wakeLock = null;

async function keepAwake() {
  if (wakeLock && !wakeLock.released) return;
  if ("wakeLock" in navigator) {
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      $("awake").textContent = "screen kept awake (Wake Lock)";
      $("awake").dataset.how = "wake-lock";
      return;
    } catch (error) {
      wakeLock = null;
    }
  }
  try {
    await $("awake-video").play();
    $("awake").textContent = "screen kept awake (a silent video; no Wake Lock on plain http)";
    $("awake").dataset.how = "video";
  } catch (error) {
    $("awake").textContent = "the screen may sleep: touch the page to keep it awake";
    $("awake").dataset.how = "none";
  }
}

// What this browser may do (GET /pair/me): it acts once paired.
let me = { acts: false };

function renderPairing() {
  $("paired-as").textContent = me.id
    ? `This browser is paired as ${me.name}.`
    : me.acts ? "This browser acts with the rig's token." : "This browser is not paired: it cannot act.";
  $("pair-link").hidden = me.acts || !me.pairing;
  $("pair-another").hidden = !me.acts || !me.pairing;
}

async function act(action) {
  const message = $("action-message");
  if (!reachable()) {
    message.textContent = "the rig is not responding: nothing was sent";
    return;
  }
  if (!me.acts) {
    message.textContent = "pair this browser to act from it (slate pair prints a code)";
    return;
  }
  const response = await fetch("/actions", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action }),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401) checkPairing();
  message.textContent = response.ok
    ? (answer.lines || []).filter((line) => line.type === "action").map((line) => line.result || line.action).join(", ")
    : answer.error || `${response.status}`;
}

// The script's editor: it reads the text and its version, and saves over that
// version only (another page or editor may have saved since: then it says so,
// and keeps this text until Reload).
let editedVersion = null;
let editedText = "";
let saving = false;

function editorSays(text, failed = false) {
  $("editor-message").textContent = text;
  $("editor-message").classList.toggle("failed", failed);
}

async function openEditor() {
  const response = await fetch("/prompter/source", { cache: "no-store" }).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response || !response.ok) {
    $("action-message").textContent = answer.error || "the script could not be read";
    return;
  }
  editedVersion = answer.version;
  $("editor-text").value = answer.text;
  // As the text box holds it (its line ends are \n), so an unchanged text reads as unchanged.
  editedText = $("editor-text").value;
  $("editor-file").textContent = answer.file;
  editorSays(me.acts ? "" : "pair this browser to save from it", !me.acts);
  if (!$("editor").open) $("editor").showModal();
  $("editor-text").focus();
}

// One save at a time: Save and Reload wait for its answer.
function setSaving(on) {
  saving = on;
  $("editor-save").disabled = on;
  $("editor-reload").disabled = on;
}

async function saveScript() {
  if (saving) return;
  if (!reachable()) return editorSays("the rig is not responding: nothing was saved", true);
  if (!me.acts) return editorSays("pair this browser to save from it (slate pair prints a code)", true);
  const text = $("editor-text").value;
  editorSays("saving…");
  setSaving(true);
  const response = await fetch("/prompter/source", {
    method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text, version: editedVersion }),
  }).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  setSaving(false);
  if (!response || !response.ok) {
    if (response && response.status === 401) checkPairing();
    return editorSays(answer.error || "the rig did not answer: nothing was saved", true);
  }
  editedVersion = answer.version;
  editedText = text;
  const time = new Date().toLocaleTimeString([], { hour12: false });
  editorSays(`saved at ${time}: ${answer.lines} lines, ${answer.cues} cues`);
}

function closeEditor() {
  if ($("editor-text").value !== editedText && !confirm("Close the editor and lose the changes not saved?")) return;
  $("editor").close();
}

// A paired browser opens a code for another device, and shows it with the addresses to enter it at.
async function pairAnother() {
  const response = await fetch("/pair/code", { method: "POST" });
  const answer = await response.json().catch(() => ({}));
  const offer = $("pair-offer");
  offer.hidden = false;
  if (!response.ok) {
    offer.textContent = answer.error || `${response.status}`;
    return;
  }
  offer.replaceChildren();
  const code = document.createElement("div");
  code.className = "pair-code";
  code.textContent = answer.code;
  const where = document.createElement("div");
  where.textContent = `On the other device, open ${answer.links.map((link) => link + "pair").join(" or ")} `
    + `and enter this code, good for ${answer.minutes} min.`;
  offer.append(code, where);
}

$("pair-another").addEventListener("click", pairAnother);
for (const element of document.querySelectorAll("[data-action]")) {
  element.addEventListener("click", () => act(element.dataset.action));
}
$("grid-toggle").addEventListener("click", () => {
  const shown = $("grid").hidden;
  $("grid").hidden = !shown;
  $("grid-toggle").setAttribute("aria-pressed", String(shown));
  if (shown && $("preview-box").hidden) $("preview-toggle").click();
});
$("script-edit").addEventListener("click", openEditor);
$("editor-save").addEventListener("click", saveScript);
$("editor-reload").addEventListener("click", () => {
  if ($("editor-text").value === editedText || confirm("Reload the script and lose the changes not saved?")) openEditor();
});
$("editor-close").addEventListener("click", closeEditor);
$("editor").addEventListener("cancel", (event) => {
  event.preventDefault();
  closeEditor();
});
$("editor").addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
    event.preventDefault();
    if (!event.repeat) saveScript();
  }
});
$("player-close").addEventListener("click", () => $("player").close());
$("player").addEventListener("close", () => {
  const video = $("player-video");
  video.pause();
  video.removeAttribute("src");
  video.load();
});
$("toggle").addEventListener("click", () => act("take.toggle"));
$("delete-last").addEventListener("click", () => {
  if (confirm(`Delete the last take? ${afterDelete()}`)) act("take.delete-last");
});
$("export").addEventListener("click", () => act(`takes.export ${$("export-filter").value}`));
$("export-filter").addEventListener("focus", () => { filterChosen = true; });
$("preview-toggle").addEventListener("click", () => {
  const shown = $("preview-box").hidden;
  $("preview-box").hidden = !shown;
  $("preview-toggle").setAttribute("aria-pressed", String(shown));
  $("preview-toggle").textContent = shown ? "Hide framing" : "Show framing";
  // Without a source the picture's connection closes, and the rig stops making them.
  if (shown) $("preview").src = "/preview.mjpg"; else $("preview").removeAttribute("src");
});
document.addEventListener("keydown", (event) => {
  const typing = event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement;
  const modified = event.ctrlKey || event.metaKey || event.altKey;
  if (event.key.toLowerCase() === "m" && !event.repeat && !modified && !typing && !$("mark").hidden && !$("editor").open) {
    act("take.mark");
    return;
  }
  if (event.code !== "Space" || event.repeat || event.target instanceof HTMLInputElement) return;
  if (event.target instanceof HTMLTextAreaElement || $("editor").open) return;
  if (event.target instanceof HTMLButtonElement) return;
  event.preventDefault();
  act("take.toggle");
});
setInterval(renderElapsed, 100);
setInterval(watchRig, 250);
checkPairing();
keepAwake();
// A phone lets a page play its video only after a touch: the first one tries again.
document.addEventListener("pointerdown", keepAwake, { once: true });
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") keepAwake(); });
connect();
