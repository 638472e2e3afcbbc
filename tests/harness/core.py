"""The harness's basics: where things are, waiting, checks, files, ports, and
running a test script's main() as one pytest test."""

import importlib
import os
import socket
import subprocess
import sys
import time

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)


class TimedOut(AssertionError):
    """What wait_for raises when its condition did not come true in time."""


def wait_for(condition, seconds, what, every=0.05, raises=True):
    """Calls `condition` every `every` seconds until it returns something true,
    and returns that. When `seconds` pass first: raises TimedOut naming `what`
    (what was waited for), or with raises=False returns the last false value,
    for a check to judge. An exception from `condition` ends the wait."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            if raises:
                raise TimedOut("waited %s s for %s" % (seconds, what))
            return value
        time.sleep(max(0.0, min(every, deadline - time.monotonic())))


class Checks:
    """Checks that go on after a failure: check(condition, message) prints
    `ok: message` or `FAIL: message` and returns the condition; `failures`
    counts those that failed, `passed` those that passed; finish() prints
    `N passed, N failed` and exits 1 if any failed."""

    def __init__(self):
        self.failures = 0
        self.passed = 0

    def __call__(self, condition, message):
        print(("ok: " if condition else "FAIL: ") + message, flush=True)
        if condition:
            self.passed += 1
        else:
            self.failures += 1
        return condition

    def summary(self):
        return "%d passed, %d failed" % (self.passed, self.failures)

    def finish(self, what=None):
        """Prints the summary (after `what: `, when given); exits 1 if a check failed."""
        print((what + ": " if what else "") + self.summary(), flush=True)
        if self.failures:
            sys.exit(1)


def write(path, text, mode=None):
    """Writes `text` to `path` (then chmod `mode`, when given); returns the path."""
    with open(path, "w") as out:
        out.write(text)
    if mode is not None:
        os.chmod(path, mode)
    return path


def free_port(address="127.0.0.1"):
    """A TCP port on `address` that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


def listening(port, address="127.0.0.1", inside=()):
    """Whether something accepts TCP connections on address:port; from the
    network namespace `inside` (a command prefix such as `ip netns exec NAME`)
    when given."""
    if inside:
        probe = ["bash", "-c", "echo > /dev/tcp/%s/%d" % (address, port)]
        return subprocess.run(list(inside) + probe, capture_output=True).returncode == 0
    try:
        with socket.create_connection((address, port), timeout=0.5):
            return True
    except OSError:
        return False


# Running under pytest (run_main), skip() skips the test instead of exiting.
_under_pytest = False


def skip(message, required_by="SLATE_REQUIRE_LANES"):
    """Ends a test that cannot run here: prints `message` and exits 0, or 1 when
    the environment variable `required_by` is 1 (CI wants every test run).
    Under pytest (run_main) the test is skipped, or fails when required."""
    required = os.environ.get(required_by) == "1"
    if _under_pytest:
        import pytest
        if required:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    print(message, flush=True)
    sys.exit(1 if required else 0)


def run_main(module, *arguments):
    """Runs the main() of the test script `module` (its name, such as
    "rig_page"; pytest.ini puts every script's folder on the path) as one
    pytest test, with `arguments` as its command line: it passes when main()
    returns or exits with 0 or nothing, is skipped when the script calls
    skip(), and fails otherwise."""
    import pytest
    global _under_pytest
    script = importlib.import_module(module)
    argv = sys.argv
    sys.argv = [script.__file__, *arguments]
    _under_pytest = True
    try:
        status = script.main()
    except SystemExit as exit:
        status = exit.code
    finally:
        sys.argv = argv
        _under_pytest = False
    if status not in (None, 0):
        pytest.fail(status if isinstance(status, str) else "%s exited with %s" % (module, status), pytrace=False)
