"""Slate's Debian package installed as a rig would: a fresh Debian 12 made by
debootstrap (no Swift toolchain in it), `apt-get install ./slate_*.deb`, and,
as an ordinary user in it:
- `slate --version`, and `slate check` of a profile it ships;
- `slate replay` of a pedal session through that profile;
- `slate record --camera testpattern --seconds 2`: a take ffprobe decodes,
  about 2 s of frames;
- `slate sound shutter --device null`: the built-in sounds are found beside
  the installed binary, and `slate run --http` serves the page from
  /usr/share/slate/page, with no environment variable set, reading
  ~/.config/slate/rig.yaml when given no --profile;
- the udev rules, the user unit, the man pages and the completions where
  udev, systemd, man and the shells look; the slate-uinput group made.

The package is scripts/deb's (--debug: the build make test has made).
Skipped, saying why, when debootstrap cannot reach the package registry;
SLATE_REQUIRE_LANES=1 (CI) makes that a failure.
"""

import glob
import os
import shutil
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
WORK = os.path.join(harness.ROOT, ".build", "install")
ROOTFS = os.path.join(WORK, SUITE)
USER = "rig"


def run(command, **options):
    """Runs `command` on the host, its output printed; fails on a non-zero status."""
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, check=True, **options)


def inside(command, user=USER, timeout=300):
    """Runs `command` in the installed system as `user`, with a clean environment."""
    environment = ["env", "-i", "HOME=/home/%s" % user if user != "root" else "HOME=/root",
                   "PATH=/usr/local/bin:/usr/bin:/bin" + (":/usr/sbin:/sbin" if user == "root" else ""), "LANG=C.UTF-8"]
    spec = [] if user == "root" else ["--userspec=%s:%s" % (user, user)]
    return subprocess.run(["chroot", *spec, ROOTFS, *environment, *command], capture_output=True, text=True,
                          timeout=timeout)


def bootstrap():
    """A fresh minimal Debian 12 in ROOTFS; False when the registry cannot be reached."""
    try:
        urllib.request.urlopen(MIRROR + "/dists/%s/Release" % SUITE, timeout=20).close()
    except OSError as error:
        harness.skip("debootstrap test skipped: %s cannot be reached (%s)" % (MIRROR, error))
    shutil.rmtree(ROOTFS, ignore_errors=True)
    os.makedirs(WORK, exist_ok=True)
    started = time.monotonic()
    run(["debootstrap", "--variant=minbase", SUITE, ROOTFS, MIRROR], stdout=subprocess.DEVNULL)
    print("debootstrap: %.0f s" % (time.monotonic() - started), flush=True)
    shutil.copy("/etc/resolv.conf", os.path.join(ROOTFS, "etc/resolv.conf"))


def main():
    for tool in ("debootstrap", "chroot", "mount"):
        if shutil.which(tool) is None:
            harness.skip("debootstrap test skipped: no %s (scripts/lanes deps install)" % tool)
    if os.geteuid() != 0:
        harness.skip("debootstrap test skipped: debootstrap and chroot need root")
    run([os.path.join(harness.ROOT, "scripts", "deb"), "--debug"], cwd=harness.ROOT)
    package = glob.glob(os.path.join(harness.ROOT, ".build", "deb", "slate_*.deb"))[0]
    bootstrap()
    checks = harness.Checks()
    proc = os.path.join(ROOTFS, "proc")
    run(["mount", "-t", "proc", "proc", proc])
    try:
        shutil.copy(package, os.path.join(ROOTFS, "tmp"))
        shutil.copy(os.path.join(harness.ROOT, "recordings", "demo-session.evemu"), os.path.join(ROOTFS, "tmp"))
        started = time.monotonic()
        installed = inside(["sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                            "--no-install-recommends /tmp/%s" % os.path.basename(package)], user="root", timeout=900)
        checks(installed.returncode == 0, "apt-get install ./%s (%.0f s)%s" % (
            os.path.basename(package), time.monotonic() - started, "" if installed.returncode == 0 else
            ":\n" + installed.stdout[-2000:] + installed.stderr[-2000:]))
        if installed.returncode != 0:
            return checks.finish()
        swift = inside(["sh", "-c", "ls /usr/lib/swift /usr/bin/swift* 2>/dev/null | head -1"], user="root")
        checks(swift.stdout.strip() == "", "no Swift toolchain or runtime in the system")
        # A rig's user, in the groups that reach its devices (minbase has no input group: no udev).
        made = inside(["sh", "-c", "for group in audio video input; do getent group $group >/dev/null || "
                       "groupadd --system $group; done; useradd --create-home --groups audio,video,input %s" % USER],
                      user="root")
        checks(made.returncode == 0, "a user for the rig%s" % ("" if made.returncode == 0 else ": " + made.stderr))

        version = inside(["slate", "--version"])
        checks(version.returncode == 0 and version.stdout.strip() != "", "slate --version: %s" % version.stdout.strip())
        shipped = "/usr/share/slate/profiles/pcsensor-footswitch.yaml"
        checked = inside(["slate", "check", shipped])
        checks(checked.returncode == 0, "slate check of a shipped profile%s" % (
            "" if checked.returncode == 0 else ": " + checked.stdout + checked.stderr))
        replayed = inside(["slate", "replay", "--profile", shipped, "/tmp/demo-session.evemu"])
        captures = [line for line in replayed.stdout.splitlines() if " capture " in line]
        checks(replayed.returncode == 0 and captures, "slate replay: %d capture lines%s" % (
            len(captures), "" if replayed.returncode == 0 else ": " + replayed.stderr[-500:]))

        recorded = inside(["slate", "record", "--camera", "testpattern", "--seconds", "2", "--json",
                           "--work", "/home/%s/takes" % USER], timeout=120)
        checks(recorded.returncode == 0, "slate record --camera testpattern --seconds 2%s" % (
            "" if recorded.returncode == 0 else ": " + recorded.stderr[-800:]))
        takes = glob.glob(os.path.join(ROOTFS, "home", USER, "takes", "take-*.mp4"))
        if takes:
            frames = harness.frames(takes[0])
            checks(55 <= frames <= 65, "the take decodes: %d frames of 30 fps" % frames)
        else:
            checks(False, "the take is in ~/takes")

        sound = inside(["slate", "sound", "shutter", "--device", "null"])
        checks(sound.returncode == 0 and "/usr/share/slate/sounds/shutter.wav" in sound.stdout,
               "the built-in sounds are found: %s" % (sound.stdout.strip() or sound.stderr.strip()))
        # The profile slate run reads when given none.
        inside(["sh", "-c", "mkdir -p ~/.config/slate && cp /usr/share/slate/profiles/demo.yaml ~/.config/slate/rig.yaml"])
        port = harness.free_port()
        command = ["slate", "run", "--replay", "/tmp/demo-session.evemu", "--work",
                   "/home/%s/run-takes" % USER, "--output", "/home/%s/run-out" % USER, "--http", "127.0.0.1:%d" % port]
        # chroot and env exec what follows: the process is slate's.
        rig = subprocess.Popen(["chroot", "--userspec=%s:%s" % (USER, USER), ROOTFS, "env", "-i",
                                "HOME=/home/" + USER, "PATH=/usr/bin:/bin", *command],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            harness.wait_for(lambda: harness.listening(port), 30, "slate run's page on port %d" % port)
            page = urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=10).read().decode()
            checks("<html" in page.lower(), "slate run --http serves the page from /usr/share/slate/page")
        except (harness.TimedOut, OSError) as error:
            checks(False, "slate run --http serves the page: %s" % error)
        finally:
            rig.send_signal(2)
            errors = rig.communicate(timeout=60)[1].decode()
        checks("page's files are missing" not in errors, "no SLATE_PAGE needed%s" % (
            "" if "page's files are missing" not in errors else ": " + errors[-400:]))
        checks("using the profile /home/%s/.config/slate/rig.yaml" % USER in errors,
               "slate run without --profile reads ~/.config/slate/rig.yaml, and says so")

        for path in ("usr/lib/udev/rules.d/70-slate.rules", "usr/lib/systemd/user/slate.service", "usr/lib/systemd/system/slate@.service",
                     "usr/share/man/man1/slate.1.gz", "usr/share/man/man1/slate.run.1.gz",
                     "usr/share/bash-completion/completions/slate", "usr/share/zsh/vendor-completions/_slate",
                     "usr/share/fish/vendor_completions.d/slate.fish", "usr/share/slate/page/index.html"):
            checks(os.path.isfile(os.path.join(ROOTFS, path)), "/" + path)
        group = inside(["getent", "group", "slate-uinput"], user="root")
        checks(group.returncode == 0, "the slate-uinput group: %s" % group.stdout.strip())
        removed = inside(["apt-get", "purge", "-y", "-qq", "slate"], user="root")
        checks(removed.returncode == 0 and not os.path.exists(os.path.join(ROOTFS, "usr/bin/slate")),
               "apt-get purge slate removes it")
    finally:
        subprocess.run(["umount", "-l", proc], check=False)
    checks.finish("the Debian package in a fresh Debian 12")


if __name__ == "__main__":
    main()
