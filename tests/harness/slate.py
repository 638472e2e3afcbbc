"""The one way the host tests start `slate`: the binary named by SLATE (else
the debug build), its output lines collected on a thread as they come, its
standard error in a file, and a stop that sends SIGINT and kills it when it
does not end."""

import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time

from .core import ROOT, TimedOut, wait_for


def binary(build="debug"):
    """The slate binary the tests run: $SLATE, else .build/BUILD/slate."""
    return os.environ.get("SLATE") or os.path.join(ROOT, ".build", build, "slate")


def faults_library():
    """The torture tests' LD_PRELOAD library (tests/faults/slate-faults.c):
    $SLATE_FAULTS_LIBRARY, else faults/libslate-faults.so of the build the
    binary comes from (.build/faults beside .build/debug)."""
    built = os.path.dirname(os.path.dirname(os.path.abspath(binary())))
    return os.environ.get("SLATE_FAULTS_LIBRARY") or os.path.join(built, "faults", "libslate-faults.so")


def is_take(event, number=None):
    """A predicate for the `take` lines of an event (and of take `number`)."""
    return lambda line: line.get("type") == "take" and line.get("event") == event and (
        number is None or line.get("take") == number)


class Slate:
    """One `slate ARGS` process.

    stdout="json" (the default) collects its output lines on a thread: `lines`
    holds those that are JSON, `arrivals` when each was read (time.time(),
    time.monotonic()), `other` the lines that are not JSON. stdout="text"
    collects the bytes as they come (`raw`, `text`). Anything else (a file
    descriptor, a file, subprocess.DEVNULL) is handed to the process as it is.
    Its standard error goes to the file `stderr` (a temporary file unless
    named): a pipe nobody reads would fill and stall it. `wrap` goes before
    the binary (a network namespace, another user, a shell that sets a limit);
    `env` is the whole environment (default: this one's)."""

    def __init__(self, args, env=None, wrap=(), stdout="json", stderr=None, binary_path=None, cwd=None):
        self.args = list(args)
        self.env = env
        self.argv = list(wrap) + [binary_path or binary()] + self.args
        self.stdout_mode = stdout if stdout in ("json", "text") else None
        self.log_file = open(stderr, "w+b") if stderr else tempfile.TemporaryFile(prefix="slate-", suffix=".err")
        self.lines, self.arrivals, self.other = [], [], []
        self.raw = b""
        self.timed_out = False
        self.page = None
        self.output_ended = threading.Event()
        self.cursor = 0
        self.log_lock = threading.Lock()
        self.log_bytes = b""
        self.process = subprocess.Popen(
            self.argv, stdout=subprocess.PIPE if self.stdout_mode else stdout, stderr=self.log_file, env=env, cwd=cwd)
        self.reader = None
        if self.stdout_mode:
            target = self.read_json if self.stdout_mode == "json" else self.read_text
            self.reader = threading.Thread(target=target, daemon=True)
            self.reader.start()
        else:
            self.output_ended.set()

    def read_json(self):
        for raw in iter(self.process.stdout.readline, b""):
            wall, monotonic = time.time(), time.monotonic()
            text = raw.decode(errors="replace")
            try:
                line = json.loads(text)
            except ValueError:
                self.other.append(text)
                continue
            self.arrivals.append((wall, monotonic))
            self.lines.append(line)
        self.output_ended.set()

    def read_text(self):
        while True:
            chunk = self.process.stdout.read1(65536)
            if not chunk:
                break
            self.raw += chunk
        self.output_ended.set()

    @property
    def text(self):
        """What it printed so far (stdout="text")."""
        return self.raw.decode(errors="replace")

    @property
    def pid(self):
        return self.process.pid

    @property
    def returncode(self):
        return self.process.returncode

    def poll(self):
        return self.process.poll()

    def running(self):
        return self.process.poll() is None

    def send(self, number):
        self.process.send_signal(number)

    def wait(self, seconds=None):
        """Its exit status once it has ended and its output is read. One that
        outlives `seconds` is killed (`timed_out`), and TimeoutExpired raised."""
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.timed_out = True
            self.kill()
            raise
        if self.reader:
            self.reader.join(30)
        return self.process.returncode

    def stop(self, seconds=10):
        """SIGINT, then SIGKILL if it has not ended after `seconds`; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.wait(seconds)
        except subprocess.TimeoutExpired:
            return self.process.returncode

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        if self.reader:
            self.reader.join(30)

    # Its output lines

    def matching(self, predicate):
        """The JSON lines so far for which `predicate` is true."""
        return [line for line in list(self.lines) if predicate(line)]

    def line(self, predicate):
        """The first JSON line so far for which `predicate` is true, or None."""
        return next((line for line in list(self.lines) if predicate(line)), None)

    def wait_line(self, predicate, seconds=30, what="the line"):
        """The first JSON line for which `predicate` is true, once it came;
        TimedOut, with slate's standard error, after `seconds`."""
        try:
            return wait_for(lambda: self.line(predicate), seconds, what)
        except TimedOut as error:
            raise TimedOut("%s; slate's standard error:\n%s" % (error, self.log())) from None

    def next_line(self, predicate, seconds=30):
        """The next JSON line after those taken so far for which `predicate` is
        true, and when it was read (time.time()); the lines before it are taken
        too. TimedOut when none comes within `seconds`, AssertionError when
        slate ended first."""

        def found():
            while self.cursor < len(self.lines):
                index = self.cursor
                self.cursor += 1
                if predicate(self.lines[index]):
                    return self.arrivals[index][0], self.lines[index]
            if self.output_ended.is_set() and self.cursor >= len(self.lines):
                raise AssertionError("slate ended first:\n" + self.log())
            return None

        return wait_for(found, seconds, "the next such line", every=0.01)

    # Its standard error

    def log(self):
        """What it wrote to standard error so far."""
        with self.log_lock:
            while True:
                chunk = os.pread(self.log_file.fileno(), 1 << 20, len(self.log_bytes))
                if not chunk:
                    break
                self.log_bytes += chunk
            return self.log_bytes.decode(errors="replace")

    def logged(self, text, count=1):
        return self.log().count(text) >= count

    def wait_log(self, text, seconds=30, count=1, raises=True):
        """Until standard error holds `text` `count` times: True, or after
        `seconds` TimedOut (with raises=False: False)."""
        try:
            return wait_for(lambda: self.logged(text, count), seconds, "%r on slate's standard error" % text,
                            raises=raises)
        except TimedOut as error:
            raise TimedOut("%s; it holds:\n%s" % (error, self.log())) from None

    # Its page

    def page_url(self, seconds=60):
        """The rig's page's address, as `slate run --http` prints it (ending in /)."""
        if self.page:
            return self.page

        def printed():
            ended = self.process.poll() is not None
            found = re.search(r"the rig's page: (http://[^\s,]+)", self.log())
            if found:
                return found.group(1)
            if ended:
                raise SystemExit("slate run printed no page address:\n" + self.log())
            return None

        try:
            self.page = wait_for(printed, seconds, "the page's address")
            return self.page
        except TimedOut:
            raise SystemExit("slate run printed no page address:\n" + self.log()) from None

    def page_port(self, seconds=60):
        return int(re.search(r":(\d+)/", self.page_url(seconds)).group(1))

    def token(self):
        """The page's token, from the state folder of its environment (XDG_STATE_HOME)."""
        state = (self.env or os.environ).get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
        with open(os.path.join(state, "slate", "http-token")) as handle:
            return handle.read().strip()

    # Its resources

    def resources(self):
        """(resident memory in kB, open descriptors, threads) now; zeros once it has ended."""
        try:
            with open("/proc/%d/status" % self.process.pid) as status:
                rss = next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
            return (rss, len(os.listdir("/proc/%d/fd" % self.process.pid)),
                    len(os.listdir("/proc/%d/task" % self.process.pid)))
        except OSError:
            return (0, 0, 0)


def slate_run(folder, profile, replay=None, work=None, output=None, http=None, json_lines=True, options=(), env=None,
              **launch):
    """`slate run --profile PROFILE [--replay REPLAY] --work WORK --output
    OUTPUT [--http HTTP] [--json] OPTIONS...`: takes in folder/takes and
    exports in `folder` unless named, its state (the page's token) in
    folder/state. `launch`: more of Slate's arguments (wrap, stdout, stderr,
    binary_path)."""
    args = ["run", "--profile", profile]
    if replay:
        args += ["--replay", replay]
    args += ["--work", work or os.path.join(folder, "takes"), "--output", output or folder]
    if http:
        args += ["--http", http]
    if json_lines:
        args.append("--json")
    env = dict(env if env is not None else os.environ, XDG_STATE_HOME=os.path.join(folder, "state"))
    return Slate(args + list(options), env=env, **launch)
