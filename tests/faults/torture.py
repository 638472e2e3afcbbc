#!/usr/bin/env python3
"""Slate's torture tests: real `slate` processes on real files, killed or
failed at chosen file operations through the slate-faults library
(LD_PRELOAD), two processes on one work folder, a clock set back between two
exports, and takes damaged at their fragment boundaries.

After every run the work folder is read again as a restarted Slate reads it
(`slate takes list --json`, which recovers takes left recording) and checked:
every take is still listed and plays with its frames, or is held whole by a
finished export; takes.json lists exactly the take files and thumbnails there
are. Frames are compared by the MD5 of each packet (ffprobe), so an export is
known to hold exactly the takes it claims.

Usage and what each check does: tests/faults/README.md."""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

ROOT = harness.ROOT
SLATE = harness.binary()
SHIM = harness.faults_library()
DEMO_SESSION = os.path.join(ROOT, "recordings", "demo-session.evemu")
# The rig VM's pedal rig (the demo's pedals), for `slate run`.
PEDALS = {"KEY_B": "primary", "KEY_A": "secondary", "KEY_C": "take.delete-last"}
CAPTURE = ("capture:\n  primary:\n    click: take.toggle\n    hold: take.start\n    release: take.stop\n"
           "  secondary:\n    click: takes.export\n")

FPS = 30
RECORD = ["--camera", "testpattern", "--size", "320x180", "--fps", str(FPS), "--codec", "h264"]
TIMEOUT = 120

VIDEO = re.compile(r"^take-.*\.(mp4|mov)$")
THUMBNAIL = re.compile(r"^take-.*\.jpg$")
# RIG-YYYYMMDD-HHMMSS.mp4, or -2, -3 after it (camera.export-name's default).
EXPORT = re.compile(r"^(?!take-).*-\d{8}-\d{6}(-\d+)?\.mp4$")


ERRORS = {
    "EIO": ("Input/output error",),
    "ENOSPC": ("No space left on device", "disk is full"),
}
# The operations whose Linux manual pages (or POSIX, for fsync) list EINTR.
EINTR_OPS = ("open", "openat", "read", "write", "pwrite", "fsync", "fdatasync", "ftruncate", "fallocate",
             "posix_fallocate")
RENAMES = ("rename", "renameat", "renameat2", "link", "linkat")
WRITES = ("write", "pwrite")
SYNCS = ("open", "openat", "fsync", "fdatasync")
# The steps the SIGKILL points are grouped in, a check each.
EXPORT_STEPS = ("writing the export", "syncing the export", "the verify reads", "naming the export",
                "syncing the output folder", "after naming the export", "reading the takes", "rewriting takes.json",
                "deleting the takes", "syncing the work folder", "other steps in the work folder")
RECORD_STEPS = ("reserving space", "creating the take", "writing the take", "syncing the take",
                "cutting or closing the take", "writing the thumbnail", "rewriting takes.json",
                "syncing the work folder", "other steps in the work folder")


# Running Slate

class Result:
    """A finished `slate` process: its JSON lines and its standard error."""

    def __init__(self, args, pid, returncode, lines, stderr, timed_out=False):
        self.args, self.pid, self.returncode = args, pid, returncode
        self.lines, self.stderr, self.timed_out = lines, stderr, timed_out

    @property
    def killed(self):
        return self.returncode == -signal.SIGKILL

    @property
    def said(self):
        """The last line of its error output, for reports (not the pointer to --help)."""
        lines = [line.strip() for line in self.stderr.splitlines()
                 if line.strip() and "--help" not in line and not line.startswith("Usage:")]
        errors = [line for line in lines if line.startswith("Error:")]
        return (errors or lines or ["(nothing on stderr)"])[-1]

    def json_lines(self):
        return self.lines


def environment(faults=None, only=None, trace=None, clock=None):
    env = {name: value for name, value in os.environ.items() if not name.startswith("SLATE_FAULTS")}
    env.pop("LD_PRELOAD", None)
    settings = {"SLATE_FAULTS": faults, "SLATE_FAULTS_PATH": only, "SLATE_FAULTS_TRACE": trace,
                "SLATE_FAULTS_CLOCK_OFFSET": None if clock is None else "%.6f" % clock}
    settings = {name: value for name, value in settings.items() if value is not None}
    if settings:
        env["LD_PRELOAD"] = SHIM
        env.update(settings)
    return env


def start(args, **faults):
    """`slate ARGS` with `faults` (environment()); its standard error in a temporary file, which no
    SLATE_FAULTS_PATH of a trial's folder matches."""
    return harness.Slate(args, env=environment(**faults), binary_path=SLATE)


def finish(process, args, timeout=TIMEOUT):
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        pass
    return Result(args, process.pid, process.returncode, list(process.lines), process.log(), process.timed_out)


def slate(args, timeout=TIMEOUT, **faults):
    return finish(start(args, **faults), args, timeout)


def trace_calls(path, pid):
    """The calls a traced run counted, in order: (op, number, path, action)."""
    calls = []
    if not os.path.exists(path):
        return calls
    with open(path) as trace:
        for line in trace:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 5 and fields[0] == str(pid):
                calls.append(Call(fields[1], int(fields[2]), fields[3], fields[4]))
    return calls


Call = collections.namedtuple("Call", "op number path action")


# Reading media

Stream = collections.namedtuple("Stream", "hashes decoded")
_streams = {}


def probe(path):
    """The MD5 of each video packet of `path` and the frames that decode, by ffprobe."""
    try:
        info = os.stat(path)
    except OSError:
        return Stream([], 0)
    key = (path, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _streams:
        reading = harness.probe(path, "v:0", packets=True)
        hashes = [packet.get("data_hash") for packet in reading["packets"]]
        _streams[key] = Stream(hashes, harness.media.decoded(reading))
    return _streams[key]


def top_level_boxes(path):
    """(offset, type) of each top-level MP4 box of `path`."""
    boxes = []
    with open(path, "rb") as file:
        data = file.read()
    offset = 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size == 1:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        elif size == 0:
            size = len(data) - offset
        if size < 8:
            break
        boxes.append((offset, kind.decode("latin-1")))
        offset += size
    return boxes


def fragment_offsets(path):
    return [offset for offset, kind in top_level_boxes(path) if kind == "moof"]


# Work folders

Take = collections.namedtuple("Take", "file thumbnail frames hashes")


def read_manifest(work):
    with open(os.path.join(work, "takes.json")) as manifest:
        return json.load(manifest)["takes"]


class Template:
    """Takes recorded once with `slate record`; each trial works on a copy."""

    def __init__(self, base, name, seconds):
        self.folder = os.path.join(base, "template-" + name)
        self.problems = []
        for length in seconds:
            result = slate(["record"] + RECORD + ["--seconds", str(length), "--work", self.folder])
            if result.returncode != 0:
                self.problems.append("slate record --seconds %s: %s" % (length, result.said))
        self.takes = []
        for entry in read_manifest(self.folder) if not self.problems else []:
            hashes = probe(os.path.join(self.folder, entry["file"])).hashes
            if len(hashes) != entry["frames"] or not hashes:
                self.problems.append("%s lists %d frames, ffprobe reads %d" % (entry["file"], entry["frames"], len(hashes)))
            self.takes.append(Take(entry["file"], entry.get("thumbnail"), entry["frames"], hashes))

    def copy_to(self, work):
        for name in os.listdir(self.folder):
            if VIDEO.match(name) or THUMBNAIL.match(name) or name == "takes.json":
                shutil.copy2(os.path.join(self.folder, name), os.path.join(work, name))


class Trial:
    """A work folder and an output folder of their own, from a template or empty."""

    def __init__(self, base, name, template=None):
        self.root = tempfile.mkdtemp(prefix=name + "-", dir=base)
        self.work = os.path.join(self.root, "takes")
        self.output = os.path.join(self.root, "out")
        os.makedirs(self.work)
        os.makedirs(self.output)
        self.takes = list(template.takes) if template else []
        if template:
            template.copy_to(self.work)

    @property
    def only(self):
        return self.root + "/"

    def export_args(self, *extra):
        # Cleaning up: the takes an export joined leave the work folder (for its trash).
        return ["takes", "export", "--clean-up", "--work", self.work, "--output", self.output, "--json"] + list(extra)

    def record_args(self, seconds):
        return ["record"] + RECORD + ["--seconds", str(seconds), "--work", self.work, "--json"]

    def restart(self):
        """`slate takes list --json`: the takes as a restarted Slate sees them, or the failure."""
        result = slate(["takes", "list", "--json", "--work", self.work])
        if result.returncode != 0:
            return None, "slate takes list failed after the run: %s" % result.said
        return result.json_lines(), None

    def exports(self):
        return sorted(name for name in os.listdir(self.output) if EXPORT.match(name))


def recorded_take(result):
    """The take a `slate record --json` reported, read from its file now."""
    lines = [line for line in result.json_lines() if "path" in line]
    if result.args[0] != "record" or result.returncode != 0 or not lines:
        return None
    line = lines[-1]
    thumbnail = os.path.basename(line["thumbnail"]) if line.get("thumbnail") else None
    return Take(os.path.basename(line["path"]), thumbnail, line["frames"], probe(line["path"]).hashes)


def contains(hashes, part):
    """Whether `part` is a run of consecutive packets of `hashes`."""
    count = len(part)
    return count > 0 and any(hashes[start:start + count] == part for start in range(len(hashes) - count + 1))


def held(hashes, takes):
    """The indices of `takes` an export holds whole, and whether it is exactly
    those takes joined in order."""
    indices = frozenset(index for index, take in enumerate(takes) if contains(hashes, take.hashes))
    return indices, bool(indices) and sum((takes[index].hashes for index in sorted(indices)), []) == hashes


class Verdict:
    """What is wrong with a trial's folders after the restart."""

    def __init__(self):
        self.problems = []
        self.lost = 0
        self.takes = 0
        self.exports = {}
        self.deleted = frozenset()
        self.listed = {}

    def complete_export(self, count):
        """Whether one export is exactly all `count` takes joined, and all were deleted."""
        whole = frozenset(range(count))
        return self.deleted == whole and (whole, True) in self.exports.values()


def examine(trial, originals=(), recorded=(), removed=(), damaged=(), kept_in_export=(), foreign_exports=()):
    """Checks the work and output folders against the takes that were there
    (`originals`, in export order): each is listed and plays with its packets,
    or is held whole by an export that holds exactly the deleted takes; every
    take file and thumbnail is listed, every listed file exists, nothing is
    still recording. `recorded`: takes made during the run, which must be
    listed whole (or be held by an export); `removed`: files the user deleted,
    which must stay gone; `damaged`: files made inconsistent with takes.json on
    purpose; `kept_in_export`: indices of `originals` that may be both exported
    and kept."""
    verdict = Verdict()
    listing, failure = trial.restart()
    if failure:
        verdict.problems.append(failure)
        listing = []
    entries = {}
    for entry in listing:
        name = os.path.basename(entry["path"])
        entries[name] = entry
        if entry.get("recording"):
            verdict.problems.append("%s is still listed as recording after a restart" % name)
        if not os.path.exists(entry["path"]):
            verdict.problems.append("%s is listed but its file does not exist" % name)
            continue
        if entry.get("thumbnail") and not os.path.exists(entry["thumbnail"]):
            verdict.problems.append("%s's thumbnail %s is listed but does not exist" % (
                name, os.path.basename(entry["thumbnail"])))
        stream = probe(entry["path"])
        if name not in damaged and (len(stream.hashes) != entry["frames"] or stream.decoded != len(stream.hashes)):
            verdict.problems.append("%s: takes.json says %d frames, the file holds %d readable packets (%d decode)" % (
                name, entry["frames"], len(stream.hashes), stream.decoded))
    verdict.listed = entries
    thumbnails = {os.path.basename(entry["thumbnail"]) for entry in listing if entry.get("thumbnail")}
    known_files = {take.file for take in list(originals) + list(recorded)}
    for name in sorted(os.listdir(trial.work)):
        if VIDEO.match(name):
            frames = len(probe(os.path.join(trial.work, name)).hashes)
            if name not in known_files and frames:
                verdict.takes += 1
            if name not in entries:
                verdict.problems.append("%s is in the work folder but not listed (%d readable frames)" % (name, frames))
                if name not in known_files and frames:
                    verdict.lost += 1
        elif THUMBNAIL.match(name) and name not in thumbnails:
            verdict.problems.append("thumbnail %s is in the work folder but no take lists it" % name)

    exported_frames = []
    for name in trial.exports():
        hashes = probe(os.path.join(trial.output, name)).hashes
        exported_frames.append(hashes)
        if name in foreign_exports:
            continue
        verdict.exports[name] = held(hashes, originals)
        if not verdict.exports[name][1]:
            verdict.problems.append("export %s (%d frames) is not whole takes joined (it holds %s)" % (
                name, len(hashes), describe_takes(verdict.exports[name][0])))

    deleted = set()
    for index, take in enumerate(originals):
        verdict.takes += 1
        path = os.path.join(trial.work, take.file)
        if take.file in removed:
            if take.file in entries or os.path.exists(path):
                verdict.problems.append("%s was deleted and came back (%s)" % (
                    take.file, "listed" if take.file in entries else "its file"))
            continue
        listed = take.file in entries
        intact = listed and (take.file in damaged and os.path.exists(path) or probe(path).hashes == take.hashes)
        exported = any(index in indices for indices, _ in verdict.exports.values())
        if not listed:
            deleted.add(index)
        if not intact and not exported:
            verdict.lost += 1
            verdict.problems.append("%s (%d frames) is lost: %s, and no export holds it" % (
                take.file, take.frames, "listed with other frames" if listed else "not listed"))
    for take in recorded:
        verdict.takes += 1
        listed = take.file in entries
        if listed and probe(os.path.join(trial.work, take.file)).hashes == take.hashes:
            continue
        if not any(contains(hashes, take.hashes) for hashes in exported_frames):
            verdict.lost += 1
            verdict.problems.append("%s (%d frames), recorded during the run, is lost: %s, and no export holds it" % (
                take.file, take.frames, "listed with other frames" if listed else "not listed"))
    verdict.deleted = frozenset(deleted)
    if deleted and not any(exact and indices - set(kept_in_export) == verdict.deleted
                           for indices, exact in verdict.exports.values()):
        several = len(deleted) > 1
        verdict.problems.append("%s %s %s deleted, but no export holds exactly the deleted takes (exports: %s)" % (
            "takes" if several else "take", ", ".join(str(index + 1) for index in sorted(deleted)),
            "were" if several else "was", describe_exports(verdict.exports)))
    return verdict


def describe_takes(indices):
    return "takes " + ",".join(str(index + 1) for index in sorted(indices)) if indices else "no whole take"


def describe_exports(exports):
    if not exports:
        return "no export"
    return "; ".join("%s holds %s%s" % (name, describe_takes(indices), "" if exact else " and other frames")
                     for name, (indices, exact) in exports.items())


def outcome_problems(result, name, must_succeed=False, errors=()):
    """A command's exit: finished, and failing only with a message that says why."""
    if result.timed_out:
        return ["%s did not finish within %d s" % (name, TIMEOUT)]
    if "Fatal error" in result.stderr or (result.returncode < 0 and not result.killed):
        return ["%s crashed (status %d): %s" % (name, result.returncode, result.said)]
    if result.returncode != 0 and must_succeed:
        return ["%s failed: %s" % (name, result.said)]
    if result.returncode != 0 and errors and not any(text in result.stderr for text in errors):
        return ["%s failed without saying why (%s): %s" % (name, " / ".join(errors), result.said)]
    return []


# The checks

class Outcome:
    """One run of a check: its problems, the takes it put at risk and lost."""

    def __init__(self, label, problems=(), takes=0, lost=0, reached=True):
        self.label, self.problems, self.takes, self.lost, self.reached = label, list(problems), takes, lost, reached


def from_verdict(label, verdict, extra=()):
    return Outcome(label, list(extra) + verdict.problems, verdict.takes, verdict.lost)


class Report:
    """Each check's outcomes over its runs, a check that passes or fails (harness.Checks), and the totals."""

    def __init__(self):
        self.checks = harness.Checks()
        self.points = 0
        self.runs = 0
        self.takes = 0
        self.lost = 0
        self.unreached = 0

    def check(self, name, outcomes, points=0):
        outcomes = list(outcomes)
        self.points += points
        self.runs += len(outcomes)
        self.takes += sum(outcome.takes for outcome in outcomes)
        self.lost += sum(outcome.lost for outcome in outcomes)
        self.unreached += sum(1 for outcome in outcomes if not outcome.reached)
        bad = [outcome for outcome in outcomes if outcome.problems]
        size = (counted(points, "point") + ", " if points else "") + counted(len(outcomes), "run")
        if self.checks(not bad, "%s (%s%s)" % (name, size, "; %d failed" % len(bad) if bad else "")):
            return
        shown = set()
        for outcome in bad:
            for problem in outcome.problems:
                if len(shown) >= 6:
                    break
                if problem not in shown:
                    shown.add(problem)
                    print("      %s: %s" % (outcome.label, problem))
        sys.stdout.flush()


def counted(number, noun):
    return "%d %s%s" % (number, noun, "" if number == 1 else "s")


def run_all(jobs, tasks):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda task: task(), tasks))


def clean_trace(base, template, name, args_of, only_of=None):
    """A traced run without faults: its result and the calls it counted."""
    trial = Trial(base, name, template)
    trace = os.path.join(trial.root, "trace")
    args = args_of(trial)
    process = start(args, trace=trace, only=only_of(trial) if only_of else trial.only)
    result = finish(process, args)
    return trial, result, trace_calls(trace, process.pid)


def export_steps(calls, trial):
    """The calls of a clean export worth a SIGKILL, by step: every call from its
    first on the output folder on, and the calls before it that are not reads
    (reads of the takes: a kill there is a kill before the export)."""
    steps = collections.OrderedDict()
    started = named = False
    for call in calls:
        in_output = call.path == trial.output or call.path.startswith(trial.output + "/")
        started = started or in_output
        if call.op == "clock" or (call.op == "read" and not started):
            continue
        name = os.path.basename(call.path)
        if in_output and call.op in RENAMES:
            step = "naming the export"
            named = True
        elif call.path == trial.output and call.op in SYNCS:
            step = "syncing the output folder"
        elif in_output and named:
            step = "after naming the export"
        elif in_output:
            step = {"read": "the verify reads", "fsync": "syncing the export", "fdatasync": "syncing the export"}.get(
                call.op, "writing the export")
        elif name.startswith("takes.json"):
            step = "rewriting takes.json"
        elif call.op in ("unlink", "unlinkat"):
            step = "deleting the takes"
        elif call.path == trial.work and call.op in SYNCS:
            step = "syncing the work folder"
        elif call.op in ("read", "open", "openat") and (VIDEO.match(name) or name == "takes.json"):
            step = "reading the takes"
        else:
            step = "other steps in the work folder"
        steps.setdefault(step, []).append(call)
    return steps


def record_steps(calls, trial):
    """The calls of a clean recording worth a SIGKILL (all but reads), by step."""
    steps = collections.OrderedDict()
    for call in calls:
        if call.op in ("clock", "read"):
            continue
        name = os.path.basename(call.path)
        if name.startswith("takes.json"):
            step = "rewriting takes.json"
        elif name.startswith(".takes.reserve"):
            step = "reserving space"
        elif ".jpg" in name:
            step = "writing the thumbnail"
        elif VIDEO.match(name) and call.op in ("open", "openat"):
            step = "creating the take"
        elif VIDEO.match(name) and call.op in WRITES:
            step = "writing the take"
        elif VIDEO.match(name) and call.op in ("fsync", "fdatasync"):
            step = "syncing the take"
        elif VIDEO.match(name):
            step = "cutting or closing the take"
        elif call.path == trial.work and call.op in SYNCS:
            step = "syncing the work folder"
        else:
            step = "other steps in the work folder"
        steps.setdefault(step, []).append(call)
    return steps


class Torture:
    def __init__(self, options):
        self.options = options
        self.base = tempfile.mkdtemp(prefix="slate-torture-")
        self.report = Report()
        self.repeat = options.repeat
        self.record_seconds = 1.5
        self.three = None
        self.long = None

    def selected(self, name):
        return not self.options.only or any(text in name for text in self.options.only)

    def check(self, name, tasks, points=0):
        if self.selected(name):
            self.report.check(name, run_all(self.options.jobs, tasks), points)

    def run(self):
        try:
            return self.run_checks()
        finally:
            if not self.options.keep:
                shutil.rmtree(self.base, ignore_errors=True)

    def run_checks(self):
        started = time.monotonic()
        templates = run_all(2, [lambda: Template(self.base, "three", [1.2, 0.5, 0.8]),
                                lambda: Template(self.base, "long", [0.6, 2.5, 0.6])])
        self.three, self.long = templates
        problems = self.three.problems + self.long.problems
        if problems:
            print("cannot record the takes the checks start from:\n  " + "\n  ".join(problems))
            return 2
        print("takes recorded: %s (export checks), %s (damage checks)" % (
            "+".join(str(take.frames) for take in self.three.takes),
            "+".join(str(take.frames) for take in self.long.takes)), flush=True)
        self.kill_during_export()
        self.kill_during_recording()
        self.read_errors()
        self.full_disk_during_export()
        self.full_disk_during_recording()
        self.short_and_interrupted()
        self.two_processes()
        self.clock_set_back()
        self.damaged_takes()
        report = self.report
        print()
        print("fault points tried: %d (%s; %d of them never reached their point)" % (
            report.points, counted(report.runs, "run"), report.unreached))
        print("takes lost: %d of %d (goal 0)" % (report.lost, report.takes))
        print("time: %.0f s" % (time.monotonic() - started))
        if self.options.keep:
            print("folders kept in %s" % self.base)
        print(report.checks.summary())
        return 1 if report.checks.failures else 0

    # SIGKILL at each step

    def kill_during_export(self):
        if not self.selected("a traced export without faults") and not any(
                self.selected("SIGKILL during an export: " + step) for step in EXPORT_STEPS):
            return
        trial, result, calls = clean_trace(self.base, self.three, "export-trace", lambda trial: trial.export_args())
        verdict = examine(trial, self.three.takes)
        clean = outcome_problems(result, "slate takes export", must_succeed=True) + verdict.problems
        if not clean and not verdict.complete_export(len(self.three.takes)):
            clean.append("the export did not hold and delete every take: %s" % describe_exports(verdict.exports))
        self.check("a traced export without faults", [lambda: from_verdict("clean export", verdict, clean)])
        for step, calls in export_steps(calls, trial).items():
            tasks = [lambda call=call: self.kill_export_at(call) for call in calls for _ in range(self.repeat)]
            self.check("SIGKILL during an export: " + step, tasks, points=len(calls))

    def kill_export_at(self, call):
        trial = Trial(self.base, "kill-export", self.three)
        label = "kill before %s #%d (%s)" % (call.op, call.number, os.path.basename(call.path))
        result = slate(trial.export_args(), faults="%s:%d:kill" % (call.op, call.number), only=trial.only)
        verdict = examine(trial, trial.takes)
        extra = outcome_problems(result, "slate takes export")
        if not result.killed and result.returncode == 0 and not verdict.complete_export(len(trial.takes)):
            extra.append("exit 0, but not every take was exported and deleted: %s" % describe_exports(verdict.exports))
        outcome = from_verdict(label, verdict, extra)
        outcome.reached = result.killed
        return outcome

    def kill_during_recording(self):
        if not self.selected("a traced recording without faults") and not any(
                self.selected("SIGKILL during a recording: " + step) for step in RECORD_STEPS):
            return
        trial, result, calls = clean_trace(self.base, None, "record-trace",
                                           lambda trial: trial.record_args(self.record_seconds))
        verdict = examine(trial)
        clean = outcome_problems(result, "slate record", must_succeed=True) + verdict.problems
        if recorded_take(result) is None or len(verdict.listed) != 1:
            clean.append("the recording did not list one take")
        self.check("a traced recording without faults", [lambda: from_verdict("clean recording", verdict, clean)])
        for step, calls in record_steps(calls, trial).items():
            tasks = [lambda call=call: self.kill_recording_at(call) for call in calls for _ in range(self.repeat)]
            self.check("SIGKILL during a recording: " + step, tasks, points=len(calls))

    def kill_recording_at(self, call):
        trial = Trial(self.base, "kill-record", None)
        label = "kill before %s #%d (%s)" % (call.op, call.number, os.path.basename(call.path))
        result = slate(trial.record_args(self.record_seconds), faults="%s:%d:kill" % (call.op, call.number),
                       only=trial.only)
        verdict = examine(trial)
        outcome = from_verdict(label, verdict, outcome_problems(result, "slate record"))
        outcome.reached = result.killed
        return outcome

    # I/O errors

    def read_errors(self):
        names = ("EIO once on a read of a take during an export",
                 "EIO on every read of a take from one point on, during an export")
        if not any(self.selected(name) for name in names):
            return
        damaged = self.long.takes[1].file
        trial, result, calls = clean_trace(self.base, self.long, "read-trace", lambda trial: trial.export_args(),
                                           only_of=lambda trial: os.path.join(trial.work, damaged))
        reads = [call for call in calls if call.op == "read"]
        for name, suffix in zip(names, ("", "+")):
            tasks = [lambda call=call, suffix=suffix: self.failing_export(
                self.long, "read:%d%s:EIO" % (call.number, suffix), "EIO", only_file=damaged,
                label="EIO on read #%d%s of %s" % (call.number, suffix, damaged)) for call in reads]
            self.check(name, tasks, points=len(reads))

    def failing_export(self, template, faults, error, label, only_file=None, must_succeed=False):
        """An export with `faults`: it succeeds with every take exported and
        deleted, or fails saying why; either way nothing is lost."""
        trial = Trial(self.base, "failing-export", template)
        only = os.path.join(trial.work, only_file) if only_file else trial.only
        result = slate(trial.export_args(), faults=faults, only=only)
        verdict = examine(trial, trial.takes)
        extra = outcome_problems(result, "slate takes export", must_succeed=must_succeed,
                                 errors=ERRORS.get(error, ()))
        if result.returncode == 0 and not verdict.complete_export(len(trial.takes)):
            extra.append("exit 0, but not every take was exported and deleted: %s" % describe_exports(verdict.exports))
        return from_verdict(label, verdict, extra)

    def full_disk_during_export(self):
        name = "ENOSPC on each write of an export"
        if not self.selected(name):
            return
        _, _, calls = clean_trace(self.base, self.three, "enospc-trace", lambda trial: trial.export_args())
        writes = [call for call in calls if call.op in WRITES]
        tasks = [lambda call=call: self.failing_export(
            self.three, "%s:%d:ENOSPC" % (call.op, call.number), "ENOSPC",
            label="ENOSPC on %s #%d (%s)" % (call.op, call.number, os.path.basename(call.path))) for call in writes]
        self.check(name, tasks, points=len(writes))

    def full_disk_during_recording(self):
        name = "ENOSPC on each write of a recording"
        if not self.selected(name):
            return
        _, clean, calls = clean_trace(self.base, None, "record-enospc-trace",
                                      lambda trial: trial.record_args(self.record_seconds))
        take = recorded_take(clean)
        frames = take.frames if take else int(self.record_seconds * FPS)
        writes = [call for call in calls if call.op in WRITES]
        tasks = [lambda call=call: self.failing_recording(
            "%s:%d:ENOSPC" % (call.op, call.number), "ENOSPC", frames,
            label="ENOSPC on %s #%d (%s)" % (call.op, call.number, os.path.basename(call.path))) for call in writes]
        self.check(name, tasks, points=len(writes))

    def failing_recording(self, faults, error, frames, label, must_succeed=False):
        """A recording with `faults`: its take is listed with the frames its
        file holds; frames missing are explained on stderr."""
        trial = Trial(self.base, "failing-record", None)
        result = slate(trial.record_args(self.record_seconds), faults=faults, only=trial.only)
        verdict = examine(trial)
        extra = outcome_problems(result, "slate record", must_succeed=must_succeed, errors=ERRORS.get(error, ()))
        listed = sum(entry["frames"] for entry in verdict.listed.values())
        if must_succeed and abs(listed - frames) > 1:
            extra.append("the take lists %d frames; a recording without faults has %d" % (listed, frames))
        elif listed < frames - 1 and not any(text in result.stderr for text in ERRORS.get(error, ())):
            extra.append("the take lists %d of about %d frames and nothing says why: %s" % (listed, frames, result.said))
        return from_verdict(label, verdict, extra)

    def short_and_interrupted(self):
        export_calls = record_calls = None
        export_ops = ("read", "write", "pwrite")
        if self.selected("short reads and writes during an export"):
            self.check("short reads and writes during an export", [lambda: self.failing_export(
                self.three, ",".join("%s:*:short" % op for op in export_ops), None, "every read and write short",
                must_succeed=True)])
        if self.selected("short writes during a recording"):
            self.check("short writes during a recording", [lambda: self.failing_recording(
                "write:*:short,pwrite:*:short", None, int(self.record_seconds * FPS), "every write short",
                must_succeed=True)])
        for op in EINTR_OPS:
            name = "EINTR on every %s during an export" % op
            if self.selected(name):
                if export_calls is None:
                    export_calls = clean_trace(self.base, self.three, "eintr-trace",
                                               lambda trial: trial.export_args())[2]
                if any(call.op == op for call in export_calls):
                    self.check(name, [lambda op=op: self.failing_export(
                        self.three, "%s:*:EINTR" % op, None, "EINTR on every %s" % op, must_succeed=True)])
            name = "EINTR on every %s during a recording" % op
            if self.selected(name):
                if record_calls is None:
                    record_calls = clean_trace(self.base, None, "record-eintr-trace",
                                               lambda trial: trial.record_args(self.record_seconds))[2]
                if any(call.op == op for call in record_calls):
                    self.check(name, [lambda op=op: self.failing_recording(
                        "%s:*:EINTR" % op, None, int(self.record_seconds * FPS), "EINTR on every %s" % op,
                        must_succeed=True)])

    # Two processes on one work folder

    def two_processes(self):
        checks = [
            ("two slate record on one work folder", lambda: self.second_daemon("record", "record")),
            ("slate run --replay, then slate record on its work folder", lambda: self.second_daemon("run", "record")),
            ("slate takes delete while slate record records", lambda: self.cli_during_recording("delete")),
            ("slate takes export while slate record records", lambda: self.cli_during_recording("export")),
        ]
        if self.options.full:
            checks.append(("two slate run --replay on one work folder", lambda: self.second_daemon("run", "run")))
        for name, task in checks:
            self.check(name, [task])

    def daemon_args(self, kind, trial, seconds):
        if kind == "record":
            return trial.record_args(seconds)
        # The rig VM's pedal rig, small, and exporting by stream copy so that the
        # export's packets can be matched with the takes'.
        profile = harness.write(os.path.join(trial.root, "rig.yaml"), harness.profile(
            None, PEDALS, size="320x180", inputs_more="    grab: always\n", camera_more="  clean-up: true\n", more=CAPTURE))
        return ["run", "--profile", profile, "--replay", DEMO_SESSION, "--camera", "testpattern", "--work",
                trial.work, "--output", trial.output, "--json"]

    @staticmethod
    def wait_for_recording(work, process, seconds=20):
        """Until takes.json lists a take being recorded (the first daemon holds the folder): whether it did
        before `seconds` passed and while `process` ran."""

        def recording():
            if not process.running():
                return "ended"
            try:
                return "recording" if any(take.get("recording") for take in read_manifest(work)) else None
            except (OSError, ValueError, KeyError):
                return None

        return harness.wait_for(recording, seconds, "a take recording", every=0.02, raises=False) == "recording"

    def second_daemon(self, first_kind, second_kind):
        """A second daemon on a folder a first one holds: it refuses, or waits,
        naming the first's process; either way the manifest ends up with every
        take each recorded and kept."""
        trial = Trial(self.base, "two-daemons", None)
        first_args = self.daemon_args(first_kind, trial, 3)
        first = start(first_args)
        label = "slate %s (pid %d), then slate %s" % (first_kind, first.pid, second_kind)
        problems = []
        if not self.wait_for_recording(trial.work, first):
            problems.append("the first slate %s never listed a take as recording" % first_kind)
        second = slate(self.daemon_args(second_kind, trial, 1))
        first_result = finish(first, first_args)
        problems += outcome_problems(first_result, "the first slate %s" % first_kind, must_succeed=True)
        problems += outcome_problems(second, "the second slate %s" % second_kind)
        if not re.search(r"\b%d\b" % first.pid, second.stderr):
            problems.append("the second slate %s %s without naming process %d, which holds the folder: %s" % (
                second_kind, "ran" if second.returncode == 0 else "failed", first.pid, second.said))
        takes = [take for take in (recorded_take(first_result), recorded_take(second)) if take]
        exports = {}
        for result in (first_result, second):
            for line in result.json_lines():
                if line.get("event") == "exported":
                    exports[os.path.basename(line["path"])] = line
        problems += self.run_accounting(first_result) + self.run_accounting(second)
        if second.returncode == 0 and second_kind == "record" and len(takes) == 2:
            first_end, second_start = self.take_times(trial, takes)
            if first_end is not None and second_start is not None and second_start < first_end:
                problems.append("the second take started %.3f s before the first one ended" % (
                    (first_end - second_start) / 1e6))
        verdict = examine(trial, recorded=takes, foreign_exports=exports)
        return from_verdict(label, verdict, problems)

    @staticmethod
    def take_times(trial, takes):
        """When the first take ended and the second started (µs, from takes.json)."""
        try:
            manifest = {entry["file"]: entry for entry in read_manifest(trial.work)}
        except (OSError, ValueError, KeyError):
            return None, None
        first, second = (manifest.get(take.file) for take in takes)
        if not first or not second:
            return None, None
        return first["started"] + int(first["duration"] * 1e6), second["started"]

    @staticmethod
    def run_accounting(result):
        """`slate run`'s own takes: its export holds the frames of the takes it
        stopped and did not delete."""
        lines = [line for line in result.json_lines() if line.get("type") == "take"]
        if not lines:
            return []
        stopped = {line["path"]: line["frames"] for line in lines if line.get("event") == "stopped"}
        for line in lines:
            if line.get("event") == "deleted":
                stopped.pop(line["path"], None)
        exported = [line for line in lines if line.get("event") == "exported"]
        problems = []
        if len(exported) != 1:
            return ["slate run exported %d times: %s" % (len(exported), [line.get("message") for line in lines
                                                                         if line.get("event") == "failed"])]
        frames = len(probe(exported[0]["path"]).hashes)
        if frames != sum(stopped.values()):
            problems.append("slate run's export holds %d frames; the takes it recorded and kept hold %d" % (
                frames, sum(stopped.values())))
        return problems

    def cli_during_recording(self, command):
        """`slate takes delete 1` or `slate takes export` while `slate record`
        holds the folder: the command works with the folder's lock or names the
        recorder; takes.json then neither loses nor brings back a take."""
        trial = Trial(self.base, "cli-" + command, self.three)
        record_args = trial.record_args(3)
        recorder = start(record_args)
        label = "slate takes %s while slate record (pid %d) records" % (command, recorder.pid)
        problems = []
        if not self.wait_for_recording(trial.work, recorder):
            problems.append("slate record never listed its take as recording")
        args = ["takes", "delete", "1", "--work", trial.work] if command == "delete" else trial.export_args()
        cli = slate(args)
        recorded = finish(recorder, record_args)
        problems += outcome_problems(recorded, "slate record", must_succeed=True)
        problems += outcome_problems(cli, "slate takes %s" % command)
        if cli.returncode != 0 and not re.search(r"\b%d\b" % recorder.pid, cli.stderr):
            problems.append("slate takes %s failed without naming process %d, which holds the folder: %s" % (
                command, recorder.pid, cli.said))
        take = recorded_take(recorded)
        removed = {trial.takes[0].file} if command == "delete" and cli.returncode == 0 else set()
        verdict = examine(trial, trial.takes, recorded=[take] if take else [], removed=removed)
        if command == "export" and cli.returncode == 0 and not verdict.complete_export(len(trial.takes)):
            problems.append("slate takes export succeeded, but the %d finished takes are not all exported and gone "
                            "from the list: %s" % (len(trial.takes), describe_exports(verdict.exports)))
        return from_verdict(label, verdict, problems)

    # The clock

    def clock_set_back(self):
        name = "two exports in one output folder, the clock set back between them"
        if not self.selected(name):
            return
        self.check(name, [self.exports_at_one_time])

    def exports_at_one_time(self):
        """Two exports whose clocks read the same second: both files exist
        afterwards, each holding its own takes."""
        for _ in range(3):
            first = Trial(self.base, "clock", self.three)
            second = Trial(self.base, "clock", self.long)
            second.output = first.output
            moment = int(time.time()) - 3600 + 0.05
            results, seconds = [], []
            for trial in (first, second):
                trace = os.path.join(trial.root, "trace")
                process = start(trial.export_args(), trace=trace, only=trial.only, clock=moment - time.time())
                results.append(finish(process, trial.export_args()))
                readings = [float(call.path) for call in trace_calls(trace, process.pid) if call.op == "clock"]
                seconds.append({int(reading) for reading in readings})
            if all(seconds) and len(seconds[0] | seconds[1]) == 1:
                break
        else:
            return Outcome("clock", ["the two exports' clocks could not be made to read the same second: %s" % seconds])
        label = "both exports at %s" % time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(moment))
        problems = []
        for number, result in enumerate(results, 1):
            problems += outcome_problems(result, "export %d" % number, must_succeed=True)
        names = [{os.path.basename(line["path"]) for line in result.json_lines() if "path" in line}
                 for result in results]
        verdicts = [examine(first, first.takes, foreign_exports=names[1] - names[0]),
                    examine(second, second.takes, foreign_exports=names[0] - names[1])]
        for number, (verdict, trial) in enumerate(zip(verdicts, (first, second)), 1):
            if not verdict.complete_export(len(trial.takes)):
                problems.append("export %d's takes are not held by an export: %s" % (
                    number, describe_exports(verdict.exports)))
        files = first.exports()
        if len(files) != 2:
            problems.append("the output folder holds %d exports (%s); two were made" % (len(files), ", ".join(files)))
        problems += [problem for verdict in verdicts for problem in verdict.problems]
        return Outcome(label, problems, sum(verdict.takes for verdict in verdicts),
                       sum(verdict.lost for verdict in verdicts))

    # Damaged takes

    def damaged_takes(self):
        names = {(damage, accept): "take %s at each fragment boundary: slate takes export%s" % (
            "truncated" if damage == "truncate" else "corrupted", " --accept-short" if accept else "")
            for damage in ("truncate", "corrupt") for accept in (False, True)}
        if not any(self.selected(name) for name in names.values()):
            return
        middle = self.long.takes[1]
        offsets = fragment_offsets(os.path.join(self.long.folder, middle.file))
        for (damage, accept), name in names.items():
            tasks = [lambda offset=offset, damage=damage, accept=accept: self.export_damaged(offset, damage, accept)
                     for offset in offsets]
            self.check(name, tasks, points=len(offsets))

    def export_damaged(self, offset, damage, accept):
        """The middle take truncated at, or overwritten from, a fragment's
        start. Without --accept-short the export holds every take whole or
        fails, keeping every take; with it, the export holds the readable part
        and the damaged take's file stays."""
        trial = Trial(self.base, "damaged", self.long)
        middle = trial.takes[1]
        path = os.path.join(trial.work, middle.file)
        if damage == "truncate":
            os.truncate(path, offset)
        else:
            with open(path, "r+b") as file:
                file.seek(offset)
                file.write(b"\xa5" * 64)
        readable = probe(path).hashes
        label = "%s at byte %d (%d of %d frames readable)" % (damage, offset, len(readable), middle.frames)
        result = slate(trial.export_args(*(["--accept-short"] if accept else [])))
        problems = outcome_problems(result, "slate takes export", must_succeed=accept)
        if accept:
            originals = [trial.takes[0], Take(middle.file, middle.thumbnail, len(readable), readable), trial.takes[2]]
            verdict = examine(trial, originals, damaged={middle.file}, kept_in_export={1})
            expected = trial.takes[0].hashes + readable + trial.takes[2].hashes
            exports = trial.exports()
            if len(exports) != 1 or probe(os.path.join(trial.output, exports[0])).hashes != expected:
                problems.append("the export should hold takes 1 and 3 and the %d readable frames of take 2: %s" % (
                    len(readable), describe_exports(verdict.exports)))
            if middle.file not in verdict.listed or not os.path.exists(path):
                problems.append("the damaged take %s was not kept" % middle.file)
            if verdict.deleted != frozenset({0, 2}):
                problems.append("takes 1 and 3 should be deleted; deleted: %s" % (
                    ", ".join(str(index + 1) for index in sorted(verdict.deleted)) or "none"))
        else:
            verdict = examine(trial, trial.takes, damaged={middle.file})
            if result.returncode != 0 and middle.file not in result.stderr:
                problems.append("the export failed without naming the damaged take: %s" % result.said)
            if result.returncode == 0 and not verdict.complete_export(len(trial.takes)):
                problems.append("exit 0, but the takes were not all exported whole: %s" % describe_exports(
                    verdict.exports))
        return from_verdict(label, verdict, problems)


def main():
    parser = argparse.ArgumentParser(description="Slate's torture tests (tests/faults/README.md).")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--short", dest="full", action="store_false", help="each fault point once (make test)")
    form.add_argument("--full", dest="full", action="store_true", help="each SIGKILL point 10 times (the default)")
    parser.set_defaults(full=True)
    parser.add_argument("--repeat", type=int, help="runs per SIGKILL point (default: 10, or 1 with --short)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="runs at once (default: the cores)")
    parser.add_argument("--only", action="append", metavar="TEXT", help="only the checks whose name contains TEXT")
    parser.add_argument("--keep", action="store_true", help="keep the trial folders")
    options = parser.parse_args()
    options.repeat = options.repeat or (10 if options.full else 1)
    for path, what in ((SLATE, "the slate binary (swift build, or SLATE names one)"),
                       (SHIM, "the fault library (make .build/faults/libslate-faults.so, or SLATE_FAULTS_LIBRARY names "
                              "one)")):
        if not os.path.exists(path):
            sys.exit("missing %s: %s" % (what, path))
    if shutil.which("ffprobe") is None:
        sys.exit("ffprobe is missing (apt-get install ffmpeg)")
    sys.exit(Torture(options).run())


if __name__ == "__main__":
    main()
