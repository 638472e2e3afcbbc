"""A pedal drives a real OBS Studio through Slate: OBS 29 (obs-websocket 5)
headless under Xvfb with a password (obs_session.py), and `slate run` with
the test-pattern camera and a replayed pedal session whose clicks are bound
to `obs ToggleRecord`. What it shows:
- the first click makes OBS record and the second stops it: Slate prints
  `done` for both, OBS's recording exists and ffprobe decodes its frames;
- a request OBS does not know (CreateRecordChapter before obs-websocket 5.5)
  is printed as failed, with OBS's code;
- a Slate with the wrong password prints why each request failed, and records
  its own takes all the same.
Skipped, saying why, when OBS cannot run here.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from obs_session import OBSError, OBSSession  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import KEY_A, KEY_B, Checks, frames, pedal_session  # noqa: E402
SLATE = os.environ.get("SLATE", os.path.join(ROOT, ".build", "debug", "slate"))
# (time, key): KEY_B toggles OBS's recording, KEY_A asks for a chapter.
CLICKS = [(1.0, KEY_B), (2.0, KEY_A), (4.0, KEY_B)]
END = 7.0


def session(folder):
    path = os.path.join(folder, "pedal.evemu")
    with open(path, "w") as out:
        out.write(pedal_session(CLICKS, END))
    return path


def profile(folder, name, url, password):
    secret = os.path.join(folder, name + ".password")
    with open(secret, "w") as out:
        out.write(password + "\n")
    os.chmod(secret, 0o600)
    path = os.path.join(folder, name + ".yaml")
    with open(path, "w") as out:
        out.write(
            "description: The middle pedal starts and stops OBS's recording; the left one marks a chapter.\n"
            "inputs:\n  pedals:\n    match:\n      - {vendor: 0x3553, product: 0xb001}\n"
            "    bind:\n      KEY_B: [obs ToggleRecord, take.toggle]\n      KEY_A: obs CreateRecordChapter Verse 2\n"
            "camera:\n  back: [testpattern]\n  fps: 30\n  max-size: 640x360\n  codec: [h264]\n"
            "sounds:\n  feedback: false\n"
            "obs:\n  targets: [%s]\n  password-file: %s\n" % (url, secret))
    return path


def run(folder, name, url, password, recording):
    work = os.path.join(folder, name)
    result = subprocess.run(
        [SLATE, "run", "--profile", profile(folder, name, url, password), "--replay", recording, "--work",
         os.path.join(work, "takes"), "--output", work, "--json"],
        capture_output=True, text=True, timeout=120)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    return result, lines


def main():
    check = Checks()
    folder = tempfile.mkdtemp(prefix="slate-obs-")
    try:
        try:
            obs = OBSSession().start()
        except (OBSError, OSError) as error:
            print("OBS bridge: skipped: OBS Studio cannot run here: %s" % error)
            sys.exit(1 if os.environ.get("SLATE_REQUIRE_LANES") == "1" else 0)
        try:
            recording = session(folder)
            result, lines = run(folder, "rig", obs.url, obs.password, recording)
            check(result.returncode == 0, "slate run exits 0 (%d)%s" % (
                result.returncode, "" if result.returncode == 0 else "\n" + result.stderr[-2000:]))
            answers = [line for line in lines if line["type"] == "obs"]
            toggles = [line for line in answers if line["request"] == "ToggleRecord"]
            check(len(toggles) == 2 and all(line["ok"] for line in toggles),
                  "OBS did both ToggleRecord requests: %s" % toggles)
            chapter = [line for line in answers if line["request"].startswith("CreateRecordChapter")]
            check(len(chapter) == 1 and chapter[0]["request"] == 'CreateRecordChapter {"chapterName":"Verse 2"}',
                  "the chapter's request carried its name: %s" % chapter)
            check(len(chapter) == 1 and (chapter[0]["ok"] or "code 204" in chapter[0]["message"]),
                  "OBS's answer to CreateRecordChapter is printed (done, or refused with its code): %s" % chapter)
            deadline = time.monotonic() + 15
            files = []
            while time.monotonic() < deadline:
                files = obs.recording_files()
                if files and frames(files[0]) > 0:
                    break
                time.sleep(0.5)
            check(len(files) == 1, "OBS made one recording: %s" % files)
            decoded = frames(files[0]) if files else 0
            check(decoded >= 60, "ffprobe decodes %d frames of it (about 3 s at 30 fps)" % decoded)
            takes = [line for line in lines if line["type"] == "take" and line["event"] == "stopped"]
            check(len(takes) == 1, "the rig recorded its own take alongside: %s" % takes)

            result, lines = run(folder, "wrong", obs.url, "not-the-password", recording)
            failed = [line for line in lines if line["type"] == "obs"]
            check(len(failed) == 3 and all(not line["ok"] for line in failed)
                  and all("password" in line["message"] or "not connected" in line["message"] for line in failed),
                  "with the wrong password each request fails and says why: %s" % [line["message"] for line in failed])
            check(len([line for line in lines if line["type"] == "take" and line["event"] == "stopped"]) == 1,
                  "and the rig records its take all the same")
        finally:
            obs.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if check.failures:
        print("%d check(s) failed" % check.failures)
        sys.exit(1)


if __name__ == "__main__":
    main()
