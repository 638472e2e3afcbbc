"""The prompter the presenter runs, in headless Chromium: the rig's page on a
phone (390x844, touch) and /prompter on a desktop-sized screen, on
`slate run --http` with the test pattern.

- The script is edited on the phone's page and saved: the file beside the
  profile holds the new text, and the prompter on the other screen shows it
  within 200 ms of the tap on Save (five saves, each time printed; the median
  is held to the limit, since a save waits for the disk to sync the file and a
  machine writing gigabytes beside the test can hold one sync for seconds).
- A save over a version that changed meanwhile (another editor saved) is
  refused and says so; Reload shows the other editor's text.
- Cues: `---` lines and headings; the page's Cue buttons jump the prompter
  to them, and its card says which cue it is at.
- Record on the phone: the prompter shows a red tally frame while the take
  records; Mark puts a marker in it (takes.json); the next take starts again at the cue the script stood in, not
  where the last one stopped; a SIGHUP'd script comes up without a restart,
  the prompter going on from where it stood.
- The rig killed while recording: the prompter says the rig is not
  responding and drops the tally frame within 2.5 s.

Screenshots (.build/web-screenshots): prompter-editor-phone.png,
prompter-card-phone.png, prompter-tally.png, prompter-lost.png.
"""

import json
import os
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, profiles  # noqa: E402
from rig_page import SHOTS, browser, pair_browser, start  # noqa: E402
from takes_page import tap  # noqa: E402

SAVE_LIMIT = 0.200
LOST_LIMIT = 2.5

SCRIPT = """# Opening
Good evening, and welcome.
---
# The camera
It records what it sees.
---
# Closing
Thank you.
"""
# Where its cues begin, in lines: the heading after a --- line is that cue's title.
CUE_LINES = [0, 2, 5]
# The prompter rig's line height in points (28 pt type).
LINE_HEIGHT = 28 * 1.4

# Records each change of the prompter's script on screen: its version, on the page's wall clock (ms).
WATCH_SCRIPT = """
window.slateScripts = [];
new MutationObserver(() => window.slateScripts.push(
  [window.slatePrompter.version(), performance.timeOrigin + performance.now()]
)).observe(document.getElementById('script'), {childList: true});
"""


def version(text):
    """The script's version as Slate computes it: FNV-1a, 64 bits, of its UTF-8 bytes."""
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def put(rig, text, base=None):
    body = {"text": text, **({"version": base} if base else {})}
    request = urllib.request.Request(
        rig.page_url() + "prompter/source", data=json.dumps(body).encode(), method="PUT",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {rig.token()}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def shown_at(desk, wanted, timeout=5):
    """When the prompter showed the script of version `wanted` (seconds, wall clock)."""

    def shown():
        for seen, at in desk.execute_script("return window.slateScripts"):
            if seen == wanted:
                return at / 1000
        return None

    return harness.wait_for(shown, timeout, f"the prompter to show script {wanted}", every=0.01)


def line(desk):
    return desk.execute_script("return window.slatePrompter.line()")


def card(phone):
    return phone.find_element(By.ID, "prompter-state").text


def main():
    os.makedirs(SHOTS, exist_ok=True)
    phone = browser(phone=True)
    desk = browser()
    rig = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [], end=300.0)
            rig = start(folder, profiles.prompter(folder), recording)
            script_path = os.path.join(folder, "talk.md")
            with open(script_path) as handle:
                original = handle.read()
            pair_browser(phone, rig)
            desk.get(rig.page_url() + "prompter")
            WebDriverWait(desk, 10).until(lambda d: d.execute_script("return window.slatePrompter.version()")
                                          == version(original))
            desk.execute_script(WATCH_SCRIPT)
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "prompter-box").is_displayed())

            # Edited and saved on the phone; shown on the prompter at once.
            tap(phone, phone.find_element(By.ID, "script-edit"))
            WebDriverWait(phone, 10).until(lambda d: d.execute_script(
                "return document.getElementById('editor').open && document.getElementById('editor-text').value")
                == original)
            assert phone.find_element(By.ID, "editor-file").text == "talk.md"
            latencies = []
            for number in range(1, 6):
                text = SCRIPT + f"\nSaved {number} times.\n"
                clicked = phone.execute_script("""
                    document.getElementById('editor-text').value = arguments[0];
                    const at = performance.timeOrigin + performance.now();
                    document.getElementById('editor-save').click();
                    return at;""", text) / 1000
                latencies.append(shown_at(desk, version(text), timeout=30) - clicked)
                WebDriverWait(phone, 5).until(lambda d: "saved at" in d.find_element(By.ID, "editor-message").text)
                with open(script_path) as handle:
                    assert handle.read() == text, "the file does not hold the text saved"
            message = phone.find_element(By.ID, "editor-message").text
            assert message.endswith("3 cues"), message
            phone.save_screenshot(os.path.join(SHOTS, "prompter-editor-phone.png"))
            print("saved on the phone, shown on the prompter "
                  + ", ".join(f"{latency * 1000:.0f}" for latency in latencies) + " ms later"
                  + f" (limit {SAVE_LIMIT * 1000:.0f}); the editor says {message!r}")
            assert sorted(latencies)[len(latencies) // 2] <= SAVE_LIMIT, latencies

            # Another editor saves meanwhile: this one's save is refused, Reload shows theirs.
            theirs = SCRIPT + "\nTheir edit.\n"
            code, answer = put(rig, theirs, version(text))
            assert code == 200 and answer["cues"] == 3, (code, answer)
            tap(phone, phone.find_element(By.ID, "editor-save"))
            WebDriverWait(phone, 5).until(lambda d: "changed since" in d.find_element(By.ID, "editor-message").text)
            with open(script_path) as handle:
                assert handle.read() == theirs
            tap(phone, phone.find_element(By.ID, "editor-reload"))
            WebDriverWait(phone, 5).until(lambda d: d.find_element(By.ID, "editor-text").get_attribute("value") == theirs)
            tap(phone, phone.find_element(By.ID, "editor-close"))
            print("a save over a version another editor replaced: refused (409, the file kept); Reload shows theirs")

            # Cues, from the page's buttons.
            shown_at(desk, version(theirs))
            WebDriverWait(desk, 5).until(lambda d: line(d) == 0)
            seen = []
            for button, cue in (("prompter-next", 1), ("prompter-next", 2), ("prompter-previous", 1)):
                tap(phone, phone.find_element(By.ID, button))
                WebDriverWait(desk, 5).until(lambda d: line(d) == CUE_LINES[cue])
                WebDriverWait(phone, 5).until(lambda d: card(d).startswith(f"cue {cue + 1} of 3"))
                seen.append(line(desk))
            phone.save_screenshot(os.path.join(SHOTS, "prompter-card-phone.png"))
            print(f"Cue ▶, Cue ▶, ◀ Cue: the prompter at lines {seen}; the card says {card(phone)!r}")

            # A take: the tally frame while it records; the next take starts again at the cue the
            # script stood in (prompter.start: cue), not where the last one stopped.
            assert not desk.execute_script("return window.slatePrompter.tally()")
            tally = lambda d: d.execute_script("return window.slatePrompter.tally()")  # noqa: E731
            tap(phone, phone.find_element(By.ID, "toggle"))
            WebDriverWait(desk, 5).until(tally)
            WebDriverWait(phone, 5).until(lambda d: d.find_element(By.ID, "mark").is_displayed())
            tap(phone, phone.find_element(By.ID, "mark"))
            WebDriverWait(phone, 5).until(
                lambda d: d.find_element(By.ID, "action-message").text.startswith("marked take 1 at "))
            marked = phone.find_element(By.ID, "action-message").text
            # Stopped past the cue's second line, however fast the taps came.
            WebDriverWait(desk, 10).until(lambda d: d.execute_script(
                "return window.slatePrompter.position()") / LINE_HEIGHT > CUE_LINES[1] + 1.2)
            tap(phone, phone.find_element(By.ID, "toggle"))
            WebDriverWait(desk, 5).until(lambda d: not tally(d))
            # Where it stopped, in lines (40 pt/s, 39.2 pt lines), and the cue that is in: its first
            # line counts from half a line before it.
            stopped = desk.execute_script("return window.slatePrompter.position()") / LINE_HEIGHT
            stopped_at = int(stopped)
            cue = max(start for start in CUE_LINES if start <= stopped + 0.5)
            assert stopped_at > CUE_LINES[1], stopped
            with open(os.path.join(folder, "takes", "takes.json")) as handle:
                markers = json.load(handle)["takes"][0].get("markers", [])
            assert len(markers) == 1 and 0 < markers[0]["at"] < 2 and markers[0]["timecode"], markers
            print(f"Mark on the phone while the take records: {marked!r}; takes.json keeps {markers}")
            tap(phone, phone.find_element(By.ID, "toggle"))
            WebDriverWait(desk, 5).until(tally)
            restarted = line(desk)
            assert restarted == cue and abs(stopped - cue) >= 0.5, (restarted, stopped)
            time.sleep(1.5)
            scrolled = line(desk)
            desk.save_screenshot(os.path.join(SHOTS, "prompter-tally.png"))
            reread = theirs + "\nRead again on SIGHUP.\n"
            with open(script_path + ".new", "w") as handle:
                handle.write(reread)
            os.replace(script_path + ".new", script_path)
            hung_up = time.time()
            rig.send(signal.SIGHUP)
            after = shown_at(desk, version(reread), timeout=10) - hung_up
            assert desk.execute_script("return window.slatePrompter.tally()")
            assert line(desk) >= scrolled, (line(desk), scrolled)
            print(f"a take records: the tally frame on, the script from line {CUE_LINES[1]} (its cue) to {stopped:.1f}; "
                  f"the next take from line {restarted}, the start of the cue it stood in; SIGHUP'd, the new script shown {after * 1000:.0f} ms "
                  f"later at line {line(desk)}")

            # The rig killed while the take records: the prompter says so, and the tally goes.
            killed = time.time()
            rig.kill()
            harness.wait_for(lambda: desk.execute_script("return window.slatePrompter.lost()"), 10,
                             "the prompter to show the rig lost", every=0.02)
            gone = time.time() - killed
            assert not desk.execute_script("return window.slatePrompter.tally()")
            state = desk.find_element(By.ID, "state").text
            assert state == "rig not responding", state
            desk.save_screenshot(os.path.join(SHOTS, "prompter-lost.png"))
            print(f"rig killed while recording: the prompter showed {state!r}, no tally, {gone:.2f} s later "
                  f"(limit {LOST_LIMIT})")
            assert gone <= LOST_LIMIT, gone
    finally:
        if rig:
            rig.kill()
        phone.quit()
        desk.quit()
    print("prompter page: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
