"""The rig's page in a real browser: `slate run --http` with the test-pattern
camera and a replayed pedal session, watched by headless Chromium through
Selenium.

What it shows: the page says RECORDING within 200 ms of each take's `started`
line and STANDBY after its `stopped` line; the takes' thumbnails load; a POST
without the token is refused and one with it starts a take, as a button
would (`source: http`); a knob session moves the controls overlay's value as
the knob turns; the prompter, open in two browsers, scrolls only while a take
records and shows the same line on both; a rig recording sound shows its
level, the frames of the take in progress, and the framing preview (640 px
wide) only while it is shown; a take is deleted from its own button and the
takes are exported through the filter chosen on the page. Screenshots go to
.build/web-screenshots (printed at the end).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, is_take, profiles  # noqa: E402

SHOTS = os.path.join(harness.ROOT, ".build", "web-screenshots")
LATENCY_LIMIT = 0.200


def start(folder, profile, recording):
    """`slate run --http 127.0.0.1:0 --json` replaying `recording`, once its page is up."""
    rig = harness.slate_run(folder, profile, replay=recording, http="127.0.0.1:0")
    rig.page_url(30)
    return rig


def post(rig, action, token):
    request = urllib.request.Request(
        rig.page_url() + "actions", data=json.dumps({"action": action}).encode(), method="POST",
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def pair_browser(driver, rig):
    """Pairs `driver` with `rig` as an operator would: a code from `slate pair`, entered through its link."""
    shown = subprocess.run([harness.binary(), "pair"], env=rig.env, capture_output=True, text=True, check=True).stdout
    code = re.search(r"enter the code (\d{6})", shown).group(1)
    driver.get(rig.page_url() + "pair#" + code)
    WebDriverWait(driver, 10).until(lambda d: d.current_url == rig.page_url())
    WebDriverWait(driver, 10).until(lambda d: "paired as" in d.find_element(By.ID, "paired-as").text)


def finished(rig):
    rig.wait(60)
    assert rig.returncode == 0, "slate run failed:\n" + rig.log()


# A phone's screen: 390x844 CSS pixels at 3x, with touch.
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}}


def browser(phone=False):
    """Headless Chromium at a desktop's size, or emulating a phone."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%s" % ("390,844" if phone else "1100,1400")):
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", PHONE)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


# Records when the state header's data-recording changes, on the page's wall clock (ms).
WATCH_STATE = """
window.slateFlips = [];
const header = document.getElementById('state');
new MutationObserver(() => window.slateFlips.push(
  [header.dataset.recording, performance.timeOrigin + performance.now()]
)).observe(header, {attributes: true, attributeFilter: ['data-recording']});
"""

WATCH_OVERLAY = """
window.slateValues = [];
const value = document.getElementById('overlay-value');
new MutationObserver(() => window.slateValues.push(value.textContent))
  .observe(value, {childList: true, characterData: true, subtree: true});
"""


# Records the peak of every reading of the meter's first channel.
WATCH_METER = """
window.slatePeaks = [];
new MutationObserver(() => {
  const channel = document.querySelector('#meter .meter-channel');
  if (channel) window.slatePeaks.push(+channel.dataset.peak);
}).observe(document.getElementById('meter'), {attributes: true, subtree: true, attributeFilter: ['data-peak']});
"""


def flip_after(driver, state, since, timeout=5):
    """When the page's data-recording became `state` after `since` (seconds, wall clock)."""

    def flipped():
        for value, at in driver.execute_script("return window.slateFlips"):
            if value == state and at / 1000 >= since - 1:
                return at / 1000
        return None

    return harness.wait_for(flipped, timeout, f"the page to show recording={state}", every=0.02)


def pedal_part(folder, driver):
    os.makedirs(folder)
    recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [6.0, 8.0, 10.0, 11.5], end=26.0)
    rig = start(folder, os.path.join(harness.ROOT, "profiles", "demo.yaml"), recording)
    driver.get(rig.page_url())
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "state").get_attribute("data-recording") == "false")
    driver.execute_script(WATCH_STATE)
    latencies = []
    for take in (1, 2):
        read_at, _ = rig.next_line(is_take("started"))
        latencies.append(flip_after(driver, "true", read_at) - read_at)
        if take == 1:
            driver.save_screenshot(os.path.join(SHOTS, "page-recording.png"))
        read_at, _ = rig.next_line(is_take("stopped"))
        latencies.append(flip_after(driver, "false", read_at) - read_at)
    worst = max(latencies)
    print(f"page state after the take's line: {', '.join(f'{l * 1000:.0f}' for l in latencies)} ms (limit 200 ms)")
    assert worst < LATENCY_LIMIT, f"the page took {worst * 1000:.0f} ms to show a take's state"

    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes img")) == 2)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('#takes img')].every(i => i.complete && i.naturalWidth >= 160)"))
    print("thumbnails: 2 loaded")

    status, answer = post(rig, "take.toggle", None)
    assert status == 401, (status, answer)
    status, answer = post(rig, "take.toggle", "0" * 64)
    assert status == 401, (status, answer)
    status, answer = post(rig, "nonsense.action", rig.token())
    assert status == 400 and "nonsense.action" in answer["error"], (status, answer)
    print(f"POST without the token: 401; unknown action: 400 ({answer['error']})")
    sent = time.time()
    status, answer = post(rig, "take.toggle", rig.token())
    assert status == 200, (status, answer)
    action = next(l for l in answer["lines"] if l["type"] == "action")
    assert action["source"] == "http" and action["result"] == "started take 3", answer
    rig.next_line(lambda l: l["type"] == "action" and l.get("source") == "http")
    rig.next_line(is_take("started", 3))
    flip_after(driver, "true", sent)
    print(f"POST with the token: {action['result']} (source {action['source']}), shown on the page")
    time.sleep(1.0)
    status, answer = post(rig, "take.toggle", rig.token())
    assert status == 200 and any(l.get("result") == "stopped take 3" for l in answer["lines"]), answer
    rig.next_line(is_take("stopped", 3))
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes img")) == 3)
    log = driver.find_element(By.ID, "log").text
    assert "from http" in log, log
    driver.save_screenshot(os.path.join(SHOTS, "page-takes.png"))
    finished(rig)


def knob_part(folder, driver):
    os.makedirs(folder)
    rig = start(folder, os.path.join(harness.ROOT, "profiles", "knob-controls.yaml"),
                os.path.join(harness.ROOT, "recordings", "knob-session.yml"))
    driver.get(rig.page_url())
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "overlay-value").text != "")
    driver.execute_script(WATCH_OVERLAY)
    reported = []
    shot = False
    while True:
        try:
            _, line = rig.next_line(lambda l: l["type"] in ("control", "take"), seconds=30)
        except AssertionError:
            break
        if line["type"] == "control" and line.get("control") == "Zoom" and line.get("text"):
            reported.append(line["text"])
            if line["text"] == "2.0×" and not shot:
                time.sleep(0.2)
                driver.save_screenshot(os.path.join(SHOTS, "page-overlay.png"))
                shot = True
        if line["type"] == "take" and line["event"] == "exported":
            break
    shown = driver.execute_script("return window.slateValues")
    print(f"knob: the rig reported Zoom {' '.join(reported)}; the overlay showed {' '.join(dict.fromkeys(shown))}")
    assert reported, "the knob session reported no zoom values"
    for text in reported:
        assert text in shown, f"the overlay never showed {text}"
    logged = [entry.text for entry in driver.find_elements(By.CSS_SELECTOR, "#log li.control")
              if " Zoom " in entry.text and "overlay" not in entry.text]
    folded = [text for text in logged if re.search(r"Zoom \S+ … \S+ \(\d+ detents\)", text)]
    print(f"the page's log: the {len(reported)} zoom values in {len(logged)} lines, e.g. {folded[:1]}")
    assert folded and len(logged) < len(reported), logged
    finished(rig)


def status(rig):
    with urllib.request.urlopen(rig.page_url() + "status.json", timeout=5) as response:
        return json.loads(response.read())


def framing_part(folder, driver):
    """A 720p rig with sound: the meter, the take's frames, the preview shown and hidden, one take
    deleted from the page and the others exported through the filter chosen there."""
    os.makedirs(folder)
    recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [2.0, 5.0, 6.0, 9.0], end=30.0)
    rig = start(folder, profiles.framing(folder), recording)
    pair_browser(driver, rig)
    driver.execute_script(WATCH_METER)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return document.querySelectorAll('#meter .meter-channel').length") == 2)
    # The test tone: -24 dBFS, and a -6 dBFS beep over the first 100 ms of each second.
    time.sleep(2.5)
    peaks = driver.execute_script("return window.slatePeaks")
    assert min(peaks) == -24 and max(peaks) == -6, peaks
    print(f"meter: 2 channels; {len(peaks)} readings in 2.5 s, their peaks from {min(peaks)} to {max(peaks)} dBFS")
    scale = driver.execute_script("return [...document.querySelectorAll('#meter .meter-marks span')].map(s => s.textContent)")
    assert scale == ["-60", "-40", "-20", "-12", "-6", "0"], scale
    # A beep each second, held 2 s: the held peak stays at the beep's -6 dBFS between them.
    holds = driver.execute_script(
        "return [...document.querySelectorAll('#meter .meter-channel')].map(c => [+c.dataset.peak, +c.dataset.hold])")
    assert all(hold == -6 and hold >= peak for peak, hold in holds), holds
    print(f"meter: a dB scale {scale}; the peak held at {[hold for _, hold in holds]} dBFS while the level is "
          f"{[peak for peak, _ in holds]}")

    assert status(rig)["previewers"] == 0
    assert not driver.find_element(By.ID, "preview").get_attribute("src")
    driver.find_element(By.ID, "preview-toggle").click()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return document.getElementById('preview').naturalWidth") == 640)
    WebDriverWait(driver, 5).until(lambda d: status(rig)["previewers"] == 1)

    rig.next_line(is_take("started"))
    WebDriverWait(driver, 5).until(lambda d: re.match(r"[1-9]\d* frames, 0 dropped", d.find_element(By.ID, "dropped").text))
    frames = driver.find_element(By.ID, "dropped").text
    camera = driver.find_element(By.ID, "camera").text
    assert "1280x720 raw → libx264" in camera, camera
    time.sleep(0.5)
    driver.save_screenshot(os.path.join(SHOTS, "page-framing.png"))
    driver.find_element(By.ID, "preview-toggle").click()
    WebDriverWait(driver, 5).until(lambda d: status(rig)["previewers"] == 0)
    print(f"preview: 640 px wide while shown, no viewer once hidden; camera {camera!r}, "
          f"the take in progress: {frames}")

    for _ in range(2):
        rig.next_line(is_take("stopped"))
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes li")) == 2)
    first = driver.find_element(By.CSS_SELECTOR, '#takes li[data-take="1"]')
    first.find_element(By.CSS_SELECTOR, "button.delete").click()
    driver.switch_to.alert.dismiss()
    time.sleep(0.3)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#takes li")) == 2, "a dismissed confirm deleted a take"
    first.find_element(By.CSS_SELECTOR, "button.delete").click()
    driver.switch_to.alert.accept()
    _, deleted = rig.next_line(is_take("deleted"))
    assert deleted["take"] == 1 and not os.path.exists(deleted["path"]), deleted
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes li")) == 1)

    Select(driver.find_element(By.ID, "export-filter")).select_by_value("mono")
    driver.find_element(By.ID, "export").click()
    _, action = rig.next_line(lambda l: l["type"] == "action" and l["action"] == "takes.export")
    assert action.get("filter") == "mono" and action["source"] == "http" and action["result"] == "exporting 1 take", action
    _, exported = rig.next_line(is_take("exported"), seconds=60)
    WebDriverWait(driver, 10).until(lambda d: "of recording left" in d.find_element(By.ID, "disk").text)
    disk = driver.find_element(By.ID, "disk").text
    assert re.match(r"(\d+ h )?\d+ min of recording left \(", disk), disk
    print(f"disk: {disk!r}")
    assert "mono" in exported.get("message", "") + exported.get("method", ""), exported
    print(f"take 1 deleted from its button (after a dismissed confirm); take 2 exported through mono: {exported['path']}")
    finished(rig)


def prompter_part(folder, drivers):
    """Two browsers on /prompter while a take records from 3 s to 9 s."""
    os.makedirs(folder)
    recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [3.0, 9.0], end=13.0)
    rig = start(folder, profiles.prompter(folder), recording)
    for driver in drivers:
        driver.get(rig.page_url() + "prompter")
    for driver in drivers:
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.slatePrompter.line()") is not None)
    events = {"started": None, "stopped": None}

    def watch():
        try:
            for event in events:
                events[event] = rig.next_line(is_take(event))[0]
        except AssertionError:
            pass

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    samples = []
    faster = None
    deadline = time.time() + 14
    while time.time() < deadline and rig.running():
        at = time.time()
        lines = [driver.execute_script("return window.slatePrompter.line()") for driver in drivers]
        samples.append((at, lines))
        if events["started"] and faster is None and at > events["started"] + 2:
            status, answer = post(rig, "prompter.faster", rig.token())
            assert status == 200 and answer["lines"][0]["result"] == "prompter 44 pt/s", answer
            faster = at
            drivers[0].save_screenshot(os.path.join(SHOTS, "prompter.png"))
        time.sleep(0.25)
    watcher.join(5)
    finished(rig)
    started, stopped = events["started"], events["stopped"]
    assert started and stopped, events
    spread = max(abs(a - b) for _, (a, b) in samples)
    before = {tuple(lines) for at, lines in samples if at < started - 0.3}
    during = [lines[0] for at, lines in samples if started + 0.5 < at < stopped - 0.3]
    after = {tuple(lines) for at, lines in samples if at > stopped + 0.5}
    print(f"prompter: lines before the take {sorted(before)}, during {during[0]} to {during[-1]}, "
          f"after {sorted(after)}; the two browsers at most {spread} lines apart (limit 2)")
    assert before == {(0, 0)}, before
    assert during == sorted(during) and during[-1] - during[0] >= 5, during
    assert len(after) == 1 and next(iter(after))[0] >= during[-1], after
    assert spread <= 2, spread


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    second = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            pedal_part(os.path.join(folder, "pedals"), driver)
        with tempfile.TemporaryDirectory() as folder:
            knob_part(os.path.join(folder, "knob"), driver)
        with tempfile.TemporaryDirectory() as folder:
            framing_part(os.path.join(folder, "framing"), driver)
        second = browser()
        with tempfile.TemporaryDirectory() as folder:
            prompter_part(os.path.join(folder, "prompter"), [driver, second])
    finally:
        driver.quit()
        if second:
            second.quit()
    print(f"screenshots: {SHOTS}")
    print("rig page: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
