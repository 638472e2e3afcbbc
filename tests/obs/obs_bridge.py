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

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices  # noqa: E402
from obs_session import OBSError, OBSSession  # noqa: E402

# (time, key): KEY_B toggles OBS's recording, KEY_A asks for a chapter.
CLICKS = [(1.0, devices.KEY_B), (2.0, devices.KEY_A), (4.0, devices.KEY_B)]
END = 7.0


def session(folder):
    return devices.write_session(os.path.join(folder, "pedal.evemu"), CLICKS, END)


def profile(folder, name, url, password):
    secret = harness.write(os.path.join(folder, name + ".password"), password + "\n", mode=0o600)
    return harness.write(os.path.join(folder, name + ".yaml"), harness.profile(
        "The middle pedal starts and stops OBS's recording; the left one marks a chapter.",
        {"KEY_B": "[obs ToggleRecord, take.toggle]", "KEY_A": "obs CreateRecordChapter Verse 2"},
        more="sounds:\n  feedback: false\n"
             "obs:\n  targets: [%s]\n  password-file: %s\n" % (url, secret)))


def run(folder, name, url, password, recording):
    """slate run replaying `recording`, to its end; takes in folder/NAME/takes."""
    rig = harness.slate_run(os.path.join(folder, name), profile(folder, name, url, password), replay=recording)
    rig.wait(120)
    return rig


def main():
    check = harness.Checks()
    folder = tempfile.mkdtemp(prefix="slate-obs-")
    try:
        try:
            obs = OBSSession().start()
        except (OBSError, OSError) as error:
            harness.skip("OBS bridge: skipped: OBS Studio cannot run here: %s" % error)
        try:
            recording = session(folder)
            result = run(folder, "rig", obs.url, obs.password, recording)
            lines = result.lines
            check(result.returncode == 0, "slate run exits 0 (%d)%s" % (
                result.returncode, "" if result.returncode == 0 else "\n" + result.log()[-2000:]))
            answers = [line for line in lines if line["type"] == "obs"]
            toggles = [line for line in answers if line["request"] == "ToggleRecord"]
            check(len(toggles) == 2 and all(line["ok"] for line in toggles),
                  "OBS did both ToggleRecord requests: %s" % toggles)
            chapter = [line for line in answers if line["request"].startswith("CreateRecordChapter")]
            check(len(chapter) == 1 and chapter[0]["request"] == 'CreateRecordChapter {"chapterName":"Verse 2"}',
                  "the chapter's request carried its name: %s" % chapter)
            check(len(chapter) == 1 and (chapter[0]["ok"] or "code 204" in chapter[0]["message"]),
                  "OBS's answer to CreateRecordChapter is printed (done, or refused with its code): %s" % chapter)
            harness.wait_for(lambda: obs.recording_files() and harness.frames(obs.recording_files()[0]) > 0, 15,
                             "OBS's recording", every=0.5, raises=False)
            files = obs.recording_files()
            check(len(files) == 1, "OBS made one recording: %s" % files)
            decoded = harness.frames(files[0]) if files else 0
            check(decoded >= 60, "ffprobe decodes %d frames of it (about 3 s at 30 fps)" % decoded)
            takes = [line for line in lines if line["type"] == "take" and line["event"] == "stopped"]
            check(len(takes) == 1, "the rig recorded its own take alongside: %s" % takes)

            result = run(folder, "wrong", obs.url, "not-the-password", recording)
            lines = result.lines
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
    check.finish("OBS bridge")


if __name__ == "__main__":
    main()
