// Where the teleprompter stands, from the status's `prompter`: where it was
// at `since` (on the status's clock), counted on at its speed while it runs;
// and which cue that is. The prompter and the rig's page both count so.
"use strict";

// Points scrolled at `now` (seconds on the status's clock).
function prompterPosition(prompter, now) {
  const raw = prompter.running ? prompter.anchor + prompter.speed * Math.max(0, now - prompter.since) : prompter.anchor;
  if (prompter.end === "loop") {
    const lap = prompter.length + prompter.gap;
    return lap > 0 ? raw % lap : 0;
  }
  return Math.min(raw, prompter.length);
}

// The cue `point` is in, from 0 (its first line counts as in it); -1 before
// the first (looping, the blank after the end is before it).
function prompterCue(prompter, point) {
  const cues = prompter.cues || [];
  let cue = -1;
  if (prompter.end === "loop" && point > prompter.length) return cue;
  while (cue + 1 < cues.length && cues[cue + 1] <= point + prompter.line_height / 2) cue += 1;
  return cue;
}

// `cue 2 of 5 · scrolling · 20 pt/s`.
function prompterSummary(prompter, point) {
  const cues = (prompter.cues || []).length;
  const cue = prompterCue(prompter, point);
  const where = cues === 0 ? "no cues" : cue < 0 ? `before cue 1 of ${cues}` : `cue ${cue + 1} of ${cues}`;
  const state = !prompter.recording ? "standby" : prompter.paused ? "paused" : "scrolling";
  return `${where} · ${state} · ${prompter.speed} pt/s`;
}
