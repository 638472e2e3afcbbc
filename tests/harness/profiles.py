"""The test rigs' profiles: the footswitch of tests/devices and the built-in
test-pattern camera, and the rigs the page's tests share."""

import os
import shutil

from . import devices
from .core import TESTS, write


def profile(description, bind, size="640x360", more="", fps=30, inputs_more="", camera_more=""):
    """A profile: `description` (none when None), the footswitch with `bind`
    (and `inputs_more`, more keys of its entry), the test pattern at `size`
    and `fps` encoded in H.264 (and `camera_more`, more keys of the camera),
    then `more` (more sections, as YAML)."""
    return (("description: %s\n" % description if description is not None else "")
            + devices.inputs(bind, more=inputs_more)
            + "camera:\n  back: [testpattern]\n  fps: %d\n  max-size: %s\n  codec: [h264]\n" % (fps, size)
            + camera_more + more)


def bench_1080p(folder):
    """The page's benchmark rig: the middle pedal records 1080p30 while the page is loaded."""
    return write(os.path.join(folder, "bench-1080p.yaml"), profile(
        "Middle pedal records; the page is loaded while a 1080p30 take records.", {"KEY_B": "take.toggle"},
        size="1920x1080"))


def framing(folder, more=""):
    """The browser tests' framing rig: 720p and the test tone, so the page has
    a preview to show and a meter to move; `more` adds sections."""
    return write(os.path.join(folder, "framing-rig.yaml"), profile(
        "Middle pedal records; takes have sound from the test tone.", {"KEY_B": "take.toggle"}, size="1280x720",
        more="audio:\n  device: testtone\n  channels: 2\n" + more))


def prompter(folder):
    """The browser tests' prompter rig: a teleprompter scrolling
    tests/web/data/talk.md (copied beside the profile) while a take records."""
    shutil.copy(os.path.join(TESTS, "web", "data", "talk.md"), folder)
    return write(os.path.join(folder, "prompter-rig.yaml"), profile(
        "Middle pedal records; the left pedal pauses the prompter, the right takes it back 3 seconds.",
        {"KEY_B": "take.toggle", "KEY_A": "prompter.pause", "KEY_C": "{prompter.back: 3}"},
        more="prompter:\n  script: talk.md\n  speed: 40\n  font: 28\n  end: pause\n"))
