"""udev/slate.service, as shipped, run by a systemd user manager for a user in
the input, video, audio and slate-uinput groups: `systemd-analyze security`
scores it 4.0 or better; Slate runs inside its sandbox (no new privileges, a
seccomp filter, no capabilities, a user namespace), grabs a USB pedal with a
uinput clone, records a take from vivid when the pedal is clicked (writable
only by its owner), plays a sound, and runs an `exec` program, which writes in
the work folder but nowhere else in the home folder and cannot open an
Internet socket; SIGTERM from `systemctl --user stop` ends it cleanly."""

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

UNIT = os.path.join(ROOT, "udev", "slate.service")
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
    bind: {KEY_B: primary, KEY_A: probe}
    grab: always
capture:
  primary: {click: [take.toggle, sound shutter]}
macros:
  probe: [{exec: [sh, -c, 'touch "$0/inside"; touch "$HOME/outside" 2> "$0/outside.err";
    python3 -c "import socket; socket.socket()" 2> "$0/inet.err"; touch "$0/probed"', %s]}]
camera: {back: [/dev/video0], fps: 30, codec: [h264], max-size: 320x180}
""" % work
for folder in (".config/systemd/user/slate.service.d", ".config/slate"):
    as_user("mkdir", "-p", home + "/" + folder)
as_user("cp", UNIT, home + "/.config/systemd/user/")
with open(home + "/.config/slate/rig.yaml", "w") as handle:
    handle.write(profile)
with open(home + "/.config/systemd/user/slate.service.d/output.conf", "w") as handle:
    handle.write("[Service]\nStandardOutput=append:%h/slate.out\nStandardError=append:%h/slate.err\n")
    # A checkout under /tmp (a CI clone) is hidden by the unit's PrivateTmp: the
    # service sees the build, read only, where it is.
    if ROOT.startswith("/tmp/"):
        handle.write("BindReadOnlyPaths=%s\n" % ROOT)
for path in (home + "/.config/slate/rig.yaml", home + "/.config/systemd/user/slate.service.d/output.conf"):
    os.chown(path, uid, user.pw_gid)
as_user("systemctl", "--user", "daemon-reload")
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
    main = show("MainPID", "ActiveState")
    check(main["ActiveState"] == "active", "the service is active (%s)" % main)
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
