"""Slate's Debian package on a rig, in the rig VM: the .deb (scripts/deb, which
the install lane runs first; $SLATE_DEB names another) installed with dpkg,
journald running, and a user in the input, video, audio and slate-uinput
groups with a systemd user manager. As that user:

1. `slate setup --yes --replay` of a pedal session writes
   ~/.config/slate/rig.yaml, and its `--service` enables the shipped user unit
   (`systemd-analyze security` scores it 4.0 or better): `systemctl --user
   enable --now` returns once Slate, a Type=notify unit, says READY=1; its
   status says it is ready; the watchdog is pinged.
2. A click of the pedal starts a take; `systemctl --user stop` while it records
   closes it: exit status 0, takes.json lists it, no longer recording, with as
   many frames as its file has, and lists every file in the folder.
3. A profile of the test's own: Slate runs sandboxed (no new privileges, a
   seccomp filter, no capabilities, a user namespace), grabs the pedal with a
   uinput clone, records a take writable by its owner only, plays a sound, and
   runs an `exec` program, which writes in the work folder but nowhere else in
   the home folder and cannot open an Internet socket. Its lines reach the
   journal with their priorities and no time of their own: `journalctl -p err`
   finds the error it logs on purpose (a sound file that is missing).
4. With the camera gone (vivid unbound), the unit waits for it (its status
   says so, a warning in the journal, no restart), then records once vivid is
   bound again."""

import glob
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from rig import ROOT, Checks, probe  # noqa: E402
from usb_gadget import plug, unplug  # noqa: E402
from harness import devices  # noqa: E402

USER = "rigger"
UNIT = "/usr/lib/systemd/user/slate.service"
VIVID = "/sys/bus/platform/drivers/vivid"

check = Checks()

packages = [os.environ["SLATE_DEB"]] if os.environ.get("SLATE_DEB") else glob.glob(
    os.path.join(ROOT, ".build", "deb", "slate_*.deb"))
if not packages:
    print("FAIL: no package in .build/deb: make deb (the install lane makes it first)")
    sys.exit(1)
package = max(packages, key=os.path.getmtime)
build = os.path.join(ROOT, ".build", "debug", "slate")
if not os.environ.get("SLATE_DEB") and os.path.exists(build) and os.path.getmtime(package) < os.path.getmtime(build):
    print("FAIL: %s is older than the build: scripts/deb --debug makes it again" % package)
    sys.exit(1)

# man-db's index is rebuilt on every install otherwise: minutes under TCG.
if os.path.exists("/var/lib/man-db/auto-update"):
    os.remove("/var/lib/man-db/auto-update")
started = time.monotonic()
installed = subprocess.run(["dpkg", "-i", package], capture_output=True, text=True)
check(installed.returncode == 0 and shutil.which("slate") == "/usr/bin/slate",
      "dpkg -i %s installs /usr/bin/slate (%.0f s)%s" % (
          os.path.basename(package), time.monotonic() - started, "" if installed.returncode == 0 else installed.stderr))
if installed.returncode != 0:
    sys.exit(1)

score = subprocess.run(["systemd-analyze", "security", "--offline=yes", UNIT], capture_output=True, text=True)
found = re.search(r"Overall exposure level for slate.service: ([0-9.]+)", score.stdout)
exposure = float(found.group(1)) if found else 10.0
check(exposure <= 4.0, "systemd-analyze security --offline=yes scores the installed unit %.1f (4.0 or better)" % exposure)

# What systemd as PID 1 and a login would have made: the cgroup2 tree with the
# user manager's group delegated to the user, journald, the runtime folder,
# and the folder where the manager builds a unit's mount namespace.
if not os.path.exists("/sys/fs/cgroup/cgroup.procs"):
    subprocess.run(["mount", "-t", "cgroup2", "none", "/sys/fs/cgroup"], check=True)
os.makedirs("/run/systemd/journal", exist_ok=True)
journald = subprocess.Popen(["/lib/systemd/systemd-journald"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.makedirs("/run/systemd/system", exist_ok=True)
os.makedirs("/run/systemd/unit-root", exist_ok=True)
subprocess.run(["useradd", "-m", "-G", "input,video,audio,slate-uinput", USER], check=True)
user = pwd.getpwnam(USER)
home, uid = user.pw_dir, user.pw_uid
runtime = "/run/user/%d" % uid
os.makedirs(runtime, mode=0o700)
os.chown(runtime, uid, user.pw_gid)
cgroup = "/sys/fs/cgroup/user.slice/user-%d.slice/user@%d.service" % (uid, uid)
os.makedirs(cgroup)
for name in [""] + os.listdir(cgroup):
    os.chown(os.path.join(cgroup, name), uid, user.pw_gid)

ENVIRONMENT = ["env", "-i", "HOME=" + home, "USER=" + USER, "LOGNAME=" + USER, "XDG_RUNTIME_DIR=" + runtime,
               "PATH=/usr/local/bin:/usr/bin:/bin"]
AS_USER = ["setpriv", "--reuid", USER, "--regid", USER, "--init-groups"] + ENVIRONMENT


def in_cgroup():
    with open(cgroup + "/cgroup.procs", "w") as handle:
        handle.write("0")


manager = subprocess.Popen(AS_USER + ["/lib/systemd/systemd", "--user"], preexec_fn=in_cgroup,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def as_user(*command, check_status=True):
    return subprocess.run(AS_USER + list(command), capture_output=True, text=True, check=check_status, cwd=home)


def wait_for(condition, seconds, what):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.2)


def journal(*options):
    """Slate's lines in the journal (standard output's and standard error's), as `journalctl -o cat` gives them."""
    return subprocess.run(["journalctl", "--no-pager", "-o", "cat", "SYSLOG_IDENTIFIER=slate", *options],
                          capture_output=True, text=True).stdout


def show(*properties):
    output = as_user("systemctl", "--user", "show", "slate", *["-p" + name for name in properties]).stdout
    return dict(line.split("=", 1) for line in output.splitlines())


def clones():
    """Slate's uinput clones of the pedal."""
    found = []
    for folder in glob.glob("/sys/devices/virtual/input/input*"):
        with open(folder + "/name") as handle:
            if handle.read().strip() == "PCsensor FootSwitch":
                found.append(folder)
    return found


def takes(work):
    """The takes takes.json lists, and the take files in the folder."""
    with open(work + "/takes/takes.json") as handle:
        listed = json.load(handle)["takes"]
    return listed, sorted(os.path.basename(path) for path in glob.glob(work + "/takes/*.mp4"))


def stop():
    """`systemctl --user stop slate`, and how the unit ended."""
    as_user("systemctl", "--user", "stop", "slate")
    return show("ActiveState", "Result", "ExecMainStatus")


STOPPED = {"ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"}


def record_take(pedal, number, since):
    """Take `number` clicked on and, 2 s later, off; its file, from the journal after `since` characters."""
    pedal.click("KEY_B")
    wait_for(lambda: "started take %d" % number in journal()[since:], 30, "take %d to start" % number)
    time.sleep(2)
    pedal.click("KEY_B")
    stopped = r"stopped take %d (\S+)" % number
    wait_for(lambda: re.search(stopped, journal()[since:]), 30, "take %d to stop" % number)
    return re.search(stopped, journal()[since:]).group(1)


wait_for(lambda: os.path.exists(runtime + "/systemd/private"), 60, "the user manager")
work = home + "/Videos/Slate"
pedal = None
failed = True
try:
    # 1. slate setup, as a new user would run it.
    pedal, = plug((0x3553, 0xB001, "PCsensor", "FootSwitch"))
    presses = devices.write_session(home + "/presses.evemu", [1.0], end=3.0)
    setup = as_user("slate", "setup", "--yes", "--replay", presses, "--service", check_status=False)
    profile_text = open(home + "/.config/slate/rig.yaml").read() if os.path.exists(
        home + "/.config/slate/rig.yaml") else ""
    check(setup.returncode == 0 and "3553" in profile_text,
          "slate setup --yes --replay --service writes ~/.config/slate/rig.yaml for the pedal (status %d)%s" % (
              setup.returncode, "" if setup.returncode == 0 else ": " + setup.stdout + setup.stderr))
    main = show("MainPID", "ActiveState", "StatusText", "WatchdogTimestampMonotonic")
    if main["ActiveState"] != "active":
        print("the unit: %s\nits journal:\n%s" % (main, journal()[-4000:]))
        raise AssertionError("the unit did not start")
    check(True, "the unit is enabled and started, systemctl returning once Slate said READY=1")
    wait_for(lambda: show("StatusText")["StatusText"].startswith("ready"), 30, "the status to say it is ready")
    check(True, "its status says it is ready (%s)" % show("StatusText")["StatusText"])
    check(show("WatchdogTimestampMonotonic")["WatchdogTimestampMonotonic"] not in ("", "0"), "the watchdog is pinged")
    state = os.stat(home + "/.local/state/slate")
    check(state.st_mode & 0o777 == 0o700 and state.st_uid == os.stat(home).st_uid,
          "~/.local/state/slate is there once the unit started, the user's, 0700 (%o)" % (state.st_mode & 0o777))

    # 2. A take in progress when the service is stopped.
    wait_for(lambda: "is input" in journal(), 30, "the pedal to be bound")
    pedal.click("KEY_B")
    wait_for(lambda: "started take 1" in journal(), 30, "take 1 to start")
    time.sleep(2)
    result = stop()
    check(result == STOPPED, "systemctl --user stop while a take records ends Slate with status 0 (%s)" % result)
    listed, files = takes(work)
    take = listed[0] if listed else {}
    frames = int(probe(work + "/takes/" + take.get("file", "none")).get("nb_read_frames", 0))
    check(len(listed) == 1 and not take.get("recording") and take.get("frames") == frames > 0,
          "the take is closed: takes.json lists it, not recording, with the %d frames its file has (%s)" % (
              frames, {key: take.get(key) for key in ("file", "frames", "recording")}))
    check(files == [entry["file"] for entry in listed], "takes.json lists every take file in the folder (%s)" % files)

    # 3. The test's own profile: the sandbox, a sound, an exec program, an error logged on purpose.
    profile = """inputs:
  pedals:
    match: [{vendor: 0x3553, product: 0xb001}]
    bind: {KEY_B: primary, KEY_A: probe, KEY_C: secondary}
    grab: always
capture:
  primary: {click: [take.toggle, sound shutter]}
  secondary: {click: [sound missing]}
sounds: {files: {missing: %s/no-such-sound.wav}}
macros:
  probe: [{exec: [sh, -c, 'touch "$0/inside"; touch "$HOME/outside" 2> "$0/outside.err";
    python3 -c "import socket; socket.socket()" 2> "$0/inet.err"; touch "$0/probed"', %s]}]
camera: {back: [/dev/video0], fps: 30, codec: [h264], max-size: 320x180, wait-for-camera: true}
""" % (work, work)
    with open(home + "/.config/slate/rig.yaml", "w") as handle:
        handle.write(profile)
    before = len(journal())
    as_user("systemctl", "--user", "start", "slate")
    main = show("MainPID", "ActiveState")
    with open("/proc/%s/status" % main["MainPID"]) as handle:
        status = dict(line.split(":", 1) for line in handle.read().splitlines())
    with open("/proc/%s/uid_map" % main["MainPID"]) as handle:
        uid_map = handle.read().split()
    check(status["NoNewPrivs"].strip() == "1" and status["Seccomp"].strip() == "2"
          and int(status["CapBnd"], 16) == 0 and uid_map == [str(uid), str(uid), "1"],
          "Slate runs sandboxed: no new privileges, a seccomp filter, no capabilities, its own user namespace")
    wait_for(lambda: clones() or "not grabbing" in journal()[before:], 30, "the pedal's grab")
    check(len(clones()) == 1 and "not grabbing" not in journal()[before:], "the pedal is grabbed with a uinput clone")
    take = record_take(pedal, 2, before)
    stream = probe(take)
    check(take.startswith(work + "/takes/") and int(stream.get("nb_read_frames", 0)) > 0,
          "a click records a take in the work folder (%s: %s frames)" % (take, stream.get("nb_read_frames")))
    check(os.stat(take).st_mode & 0o777 == 0o600, "the take is readable by its owner only")
    check("cannot play sound 'shutter'" not in journal()[before:], "the shutter sound plays")
    pedal.click("KEY_A")
    wait_for(lambda: os.path.exists(work + "/probed"), 30, "the exec program")
    check(os.path.exists(work + "/inside"), "an exec program writes in the work folder")
    with open(work + "/outside.err") as handle:
        outside = handle.read()
    check(not os.path.exists(home + "/outside") and "Read-only file system" in outside,
          "an exec program cannot write elsewhere in the home folder (%s)" % outside.strip())
    with open(work + "/inet.err") as handle:
        inet = handle.read().strip().splitlines()
    check(inet and "Error" in inet[-1], "an exec program cannot open an Internet socket (%s)" % inet[-1:])
    pedal.click("KEY_C")
    wait_for(lambda: "cannot play sound 'missing'" in journal("-p", "err"), 30, "the missing sound's error")
    errors = journal("-p", "err")
    check(re.search(r"cannot play sound 'missing'", errors),
          "journalctl -p err finds the error Slate logged on purpose (%s)" % errors.strip().splitlines()[-1][:160])
    check(not re.search(r"^\d{4}-\d\d-\d\dT", journal()[before:], re.M),
          "Slate's lines in the journal carry no time of their own")
    result = stop()
    check(result == STOPPED, "systemctl --user stop ends Slate with status 0 (%s)" % result)

    # 4. The camera gone at start, then back.
    with open(VIVID + "/unbind", "w") as handle:
        handle.write("vivid.0")
    subprocess.run(["udevadm", "settle"], check=True)
    before = len(journal())
    as_user("systemctl", "--user", "start", "slate")
    waiting = show("ActiveState", "StatusText")
    check(waiting["ActiveState"] == "active" and waiting["StatusText"].startswith("waiting for camera"),
          "with vivid unbound, the unit waits for the camera, and its status says so (%s)" % waiting["StatusText"])
    time.sleep(8)
    check(show("NRestarts")["NRestarts"] == "0", "the unit is not restarted while it waits")
    warnings = journal("-p", "warning..warning")
    check("waiting for it" in warnings and "waiting for it" not in journal("-p", "err"),
          "the missing camera is a warning in the journal, not an error")
    with open(VIVID + "/bind", "w") as handle:
        handle.write("vivid.0")
    wait_for(lambda: show("StatusText")["StatusText"].startswith("ready"), 60, "the camera to be found")
    check(True, "once vivid is bound again the unit is ready (%s)" % show("StatusText")["StatusText"])
    take = record_take(pedal, 3, before)
    check(int(probe(take).get("nb_read_frames", 0)) > 0, "and records from it (%s)" % take)
    result = stop()
    check(result == STOPPED, "systemctl --user stop ends Slate with status 0 (%s)" % result)
    failed = False
finally:
    if pedal:
        unplug([pedal])
    if not os.path.exists(VIVID + "/vivid.0"):
        with open(VIVID + "/bind", "w") as handle:
            handle.write("vivid.0")
    if failed or check.failures:
        print("slate's journal:\n" + journal()[-5000:])
    manager.terminate()
    manager.wait(timeout=30)
    journald.terminate()
    journald.wait(timeout=30)
    for folder in ("/run/systemd/unit-root", "/run/systemd/system"):
        shutil.rmtree(folder, ignore_errors=True)
check.finish()
