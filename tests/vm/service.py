"""systemd/slate.service, as shipped, run by a systemd user manager for a user in
the input, video, audio and slate-uinput groups: `systemd-analyze security`
scores it 4.0 or better; Slate runs inside its sandbox (no new privileges, a
seccomp filter, no capabilities, a user namespace), grabs a USB pedal with a
uinput clone, records a take from vivid when the pedal is clicked (writable
only by its owner), plays a sound, and runs an `exec` program, which writes in
the work folder but nowhere else in the home folder and cannot open an
Internet socket; SIGTERM from `systemctl --user stop` ends it cleanly.

As a Type=notify unit: `systemctl --user enable --now` returns once Slate
says READY=1, its status saying what it waits for (the pedal) and then that
it is ready; the watchdog is pinged; with JOURNAL_STREAM naming its standard
error, its lines carry journald priorities (an error it logs on purpose, a
sound file that is missing, at <3>) and no time of their own; a camera that
is not there at start is waited for (its status says so, and the unit is not
restarted), then recorded from once it appears."""

import fnmatch
import os
import pwd
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, SLATE, Checks, probe  # noqa: E402
from usb_gadget import plug, unplug  # noqa: E402

UNIT = os.path.join(ROOT, "systemd", "slate.service")
USER = "rigger"

check = Checks()

score = subprocess.run(["systemd-analyze", "security", "--offline=yes", UNIT], capture_output=True, text=True)
found = re.search(r"Overall exposure level for slate.service: ([0-9.]+)", score.stdout)
exposure = float(found.group(1)) if found else 10.0
check(exposure <= 4.0, "systemd-analyze security --offline=yes scores the unit %.1f (4.0 or better)" % exposure)

# What systemd as PID 1 and a login would have made: the cgroup2 tree with the
# user manager's group delegated to the user, the runtime folder, and the
# folder where the manager builds a unit's mount namespace.
if not os.path.exists("/sys/fs/cgroup/cgroup.procs"):
    subprocess.run(["mount", "-t", "cgroup2", "none", "/sys/fs/cgroup"], check=True)
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
os.symlink(SLATE, "/usr/local/bin/slate")

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


wait_for(lambda: os.path.exists(runtime + "/systemd/private"), 60, "the user manager")

# Installed as the unit's comment says, with the unit's output in files (no journal here).
work = home + "/Videos/Slate"
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
camera: {back: [%s], fps: 30, codec: [h264], max-size: 320x180}
"""


def write_profile(camera):
    with open(home + "/.config/slate/rig.yaml", "w") as handle:
        handle.write(profile % (work, work, camera))
    os.chown(home + "/.config/slate/rig.yaml", uid, user.pw_gid)



for folder in (".config/systemd/user/slate.service.d", ".config/slate"):
    as_user("mkdir", "-p", home + "/" + folder)
as_user("cp", UNIT, home + "/.config/systemd/user/")
write_profile("/dev/video0")
with open(home + "/.config/systemd/user/slate.service.d/output.conf", "w") as handle:
    handle.write("[Service]\nStandardOutput=append:%h/slate.out\nStandardError=append:%h/slate.err\n")
    # A checkout under /tmp (a CI clone) is hidden by the unit's PrivateTmp: the
    # service sees the build, read only, where it is.
    if ROOT.startswith("/tmp/"):
        handle.write("BindReadOnlyPaths=%s\n" % ROOT)
os.chown(home + "/.config/systemd/user/slate.service.d/output.conf", uid, user.pw_gid)
as_user("systemctl", "--user", "daemon-reload")
# Type=notify: this returns once Slate says READY=1 (or fails).
as_user("systemctl", "--user", "enable", "--now", "slate")


def log(name):
    try:
        with open(home + "/slate." + name) as handle:
            return handle.read()
    except FileNotFoundError:
        return ""


def show(*properties):
    output = as_user("systemctl", "--user", "show", "slate", *["-p" + name for name in properties]).stdout
    return dict(line.split("=", 1) for line in output.splitlines())


def clones():
    """Slate's uinput clones of the pedal."""
    found = []
    for folder in fnmatch.filter(os.listdir("/sys/devices/virtual/input"), "input*"):
        with open("/sys/devices/virtual/input/%s/name" % folder) as handle:
            if handle.read().strip() == "PCsensor FootSwitch":
                found.append(folder)
    return found


pedal = None
try:
    try:
        wait_for(lambda: "recording /dev/video0" in log("err") or show("ActiveState")["ActiveState"] == "failed", 90,
                 "slate to open the camera")
    except AssertionError:
        print("the unit: %s\nits standard error:\n%s" % (
            show("ActiveState", "SubState", "ExecMainStatus", "NRestarts"), log("err")[-4000:]))
        raise
    main = show("MainPID", "ActiveState", "StatusText", "WatchdogTimestampMonotonic")
    check(main["ActiveState"] == "active", "the service is active (%s)" % main)
    check(main["StatusText"] == "/dev/video0 (vivid) streams; waiting for the input devices",
          "ready, its status saying it waits for the pedal (%s)" % main["StatusText"])
    check(main["WatchdogTimestampMonotonic"] not in ("", "0"), "the watchdog is pinged")
    with open("/proc/%s/status" % main["MainPID"]) as handle:
        status = dict(line.split(":", 1) for line in handle.read().splitlines())
    with open("/proc/%s/uid_map" % main["MainPID"]) as handle:
        uid_map = handle.read().split()
    check(status["NoNewPrivs"].strip() == "1" and status["Seccomp"].strip() == "2"
          and int(status["CapBnd"], 16) == 0 and uid_map == [str(uid), str(uid), "1"],
          "Slate runs sandboxed: no new privileges, a seccomp filter, no capabilities, its own user namespace")

    pedal, = plug((0x3553, 0xB001, "PCsensor", "FootSwitch"))
    wait_for(lambda: "(PCsensor FootSwitch) is input 'pedals'" in log("err"), 30, "the pedal to be bound")
    wait_for(lambda: clones() or "not grabbing" in log("err"), 20, "the pedal's grab")
    check(len(clones()) == 1 and "not grabbing" not in log("err"), "the pedal is grabbed with a uinput clone")
    wait_for(lambda: show("StatusText")["StatusText"].startswith("ready"), 10, "the status to say it is ready")
    check(show("StatusText")["StatusText"] == "ready: /dev/video0 (vivid) streams, the inputs are bound",
          "its status says it is ready once the pedal is bound")

    pedal.click("KEY_B")
    wait_for(lambda: "started take 1" in log("out"), 30, "take 1 to start")
    time.sleep(2)
    pedal.click("KEY_B")
    wait_for(lambda: re.search(r"stopped take 1 (\S+)", log("out")), 30, "take 1 to stop")
    take = re.search(r"stopped take 1 (\S+)", log("out")).group(1)
    stream = probe(take)
    check(take.startswith(work + "/takes/") and int(stream.get("nb_read_frames", 0)) > 0,
          "a click records a take in the work folder (%s: %s frames)" % (take, stream.get("nb_read_frames")))
    check(os.stat(take).st_mode & 0o777 == 0o600, "the take is readable by its owner only")
    check("cannot play sound" not in log("err"), "the shutter sound plays")

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

    as_user("systemctl", "--user", "stop", "slate")
    result = show("ActiveState", "Result", "ExecMainStatus")
    check(result == {"ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"},
          "systemctl --user stop ends Slate with status 0 (%s)" % result)

    # Standard error as the journal: JOURNAL_STREAM names it (device and inode), as systemd does.
    error_file = os.stat(home + "/slate.err")
    with open(home + "/.config/systemd/user/slate.service.d/journal.conf", "w") as handle:
        handle.write("[Service]\nEnvironment=JOURNAL_STREAM=%d:%d\n" % (error_file.st_dev, error_file.st_ino))
    # A camera that is not there yet: named by its by-id link, which udev would make when it is plugged in.
    camera_link = "/dev/v4l/by-id/usb-Slate_Rig_Camera-video-index0"
    write_profile(camera_link)
    before = len(log("err"))
    as_user("systemctl", "--user", "daemon-reload")
    as_user("systemctl", "--user", "start", "slate")
    waiting = show("ActiveState", "StatusText")
    check(waiting["ActiveState"] == "active" and waiting["StatusText"].startswith("waiting for camera"),
          "a missing camera is waited for, and the status says so (%s)" % waiting)
    time.sleep(8)
    check(show("NRestarts")["NRestarts"] == "0", "the unit is not restarted while it waits")
    journal = log("err")[before:]
    check(journal and all(re.match(r"<[0-7]>", line) for line in journal.splitlines()),
          "each line to the journal starts with its priority")
    check(not re.search(r"^<\d>\d{4}-\d\d-\d\dT", journal, re.M), "and carries no time of its own")
    check(re.search(r"^<4>.*waiting for it", journal, re.M), "the missing camera is a warning (<4>)")
    os.makedirs(os.path.dirname(camera_link), exist_ok=True)
    os.symlink("../../video0", camera_link)
    wait_for(lambda: show("StatusText")["StatusText"].startswith("ready"), 30, "the camera to be found")
    check(True, "the camera is recorded from once it appears (%s)" % show("StatusText")["StatusText"])
    wait_for(lambda: "is input 'pedals'" in log("err")[before:], 30, "the pedal to be bound again")
    pedal.click("KEY_C")
    wait_for(lambda: "cannot play sound 'missing'" in log("err")[before:], 30, "the missing sound's error")
    check(re.search(r"^<3>.*cannot play sound 'missing'", log("err")[before:], re.M),
          "an error (a sound file that is missing) is logged at priority 3, as journalctl -p err finds it")
    as_user("systemctl", "--user", "stop", "slate")
finally:
    if pedal:
        unplug([pedal])
    if check.failures:
        print("slate's log:\n" + log("err")[-3000:] + "\nslate's output:\n" + log("out")[-2000:])
    manager.terminate()
    manager.wait(timeout=30)
    for folder in ("/run/systemd/unit-root", "/run/systemd/system"):
        shutil.rmtree(folder, ignore_errors=True)
check.finish()
