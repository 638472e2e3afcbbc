"""Slate's host-side test harness, the one the scripts under tests/ share.

A script puts tests/ on its path with one line and imports it:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import harness  # noqa: E402

(pytest, through tests/pytest.ini, needs no line). What it holds:

- Slate, slate_run: `slate` started one way (the binary: $SLATE, else
  .build/debug/slate), its JSON lines collected on a thread, its standard
  error in a file, stop() with SIGINT then SIGKILL; is_take, a predicate for
  take lines; faults_library, the torture tests' LD_PRELOAD library.
- wait_for(condition, seconds, what): the one wait.
- Checks: checks that go on after a failure (`ok: ...`, `FAIL: ...`);
  finish() exits 1 if any failed.
- probe, frames: ffprobe's reading of a video (frames, streams, durations);
  pattern: the time the test pattern drew on a frame, read back.
- Broker: Mosquitto, anonymous or with passwords and an ACL, in a network
  namespace when asked, its log in a file.
- free_port, listening, write.
- devices: the test devices of tests/devices (footswitch(), session(clicks,
  end), inputs(bind)); profile and profiles: the test rigs' profiles.
- page: the rig's page spoken to byte by byte.
- skip, run_main: a script skipped where it cannot run, and run as one
  pytest test.
"""

from . import devices, page, pattern, profiles
from .broker import Broker
from .core import ROOT, TESTS, Checks, TimedOut, free_port, listening, run_main, skip, wait_for, write
from .media import frames, probe
from .profiles import profile
from .slate import Slate, binary, faults_library, is_take, slate_run

__all__ = ["Broker", "Checks", "ROOT", "Slate", "TESTS", "TimedOut", "binary", "devices", "faults_library", "frames",
           "free_port", "is_take", "listening", "page", "pattern", "probe", "profile", "profiles", "run_main", "skip",
           "slate_run", "wait_for", "write"]
