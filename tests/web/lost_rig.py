"""The page never shows a dead rig as recording: headless Chromium at a
phone's size (390x844, touch) on `slate run --http` while a take records.

- The rig stopped (SIGSTOP: alive, silent, its connections open): within 2 s
  of its last heartbeat the page is grey, says the rig is not responding and
  what it last saw (`last seen recording take 1 at 00:03`), and no longer says
  RECORDING; its Record button is disabled. Continued (SIGCONT), the page
  reconnects by itself and shows RECORDING again.
- The rig killed (SIGKILL) while recording: the page shows it lost within
  2 s; a new `slate run` on the same port, and the page reconnects by itself
  and shows it in standby, with no reload.

The times from the signal to the lost state are printed; screenshots go to
.build/web-screenshots (page-lost-phone.png, page-reconnected-phone.png).
"""

import os
import signal
import sys
import tempfile
import time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, is_take  # noqa: E402
from rig_page import SHOTS, browser  # noqa: E402

# The page's promise: lost within 2 s of the last heartbeat, which comes every 0.5 s.
LOST_LIMIT = 2.5

# Records when the state header's class changes, on the page's wall clock (ms).
WATCH_LOST = """
window.slateLost = [];
const header = document.getElementById('state');
new MutationObserver(() => window.slateLost.push(
  [header.classList.contains('lost'), header.dataset.recording, performance.timeOrigin + performance.now()]
)).observe(header, {attributes: true, attributeFilter: ['class', 'data-recording']});
"""


def lost_after(driver, since, timeout=10):
    """When the page showed the rig lost after `since` (seconds, wall clock), and that it said
    recording=false then."""

    def shown():
        for lost, recording, at in driver.execute_script("return window.slateLost"):
            if lost and at / 1000 >= since:
                return at / 1000, recording
        return None

    return harness.wait_for(shown, timeout, "the page to show the rig lost", every=0.02)


def state(driver):
    header = driver.find_element(By.ID, "state")
    return header.get_attribute("class"), header.get_attribute("data-recording"), header.text


def start(folder, port, clicks):
    recording = devices.write_session(os.path.join(folder, "pedals-%d.evemu" % len(os.listdir(folder))), clicks,
                                      end=120.0)
    rig = harness.slate_run(folder, os.path.join(harness.ROOT, "profiles", "demo.yaml"), replay=recording,
                            http="127.0.0.1:%d" % port)
    rig.page_url(30)
    return rig


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser(phone=True)
    rigs = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            port = harness.free_port()
            rig = start(folder, port, [1.0])
            rigs.append(rig)
            driver.get(rig.page_url())
            driver.execute_script(WATCH_LOST)
            rig.next_line(is_take("started"))
            harness.wait_for(lambda: state(driver)[1] == "true", 5, "the page to show the take recording")
            time.sleep(2)

            stopped = time.time()
            rig.send(signal.SIGSTOP)
            at, recording = lost_after(driver, stopped)
            classes, _, text = state(driver)
            print(f"rig stopped: the page showed it lost {at - stopped:.2f} s later: {text!r}")
            assert at - stopped <= LOST_LIMIT, f"lost shown {at - stopped:.2f} s after SIGSTOP (limit {LOST_LIMIT})"
            assert recording == "false" and "RECORDING" not in text.upper().replace("LAST SEEN RECORDING", ""), text
            assert "not responding" in text and "last seen recording take 1 at 00:0" in text, text
            assert not driver.find_element(By.ID, "toggle").is_enabled(), "Record is enabled while the rig is lost"
            driver.save_screenshot(os.path.join(SHOTS, "page-lost-phone.png"))
            rig.send(signal.SIGCONT)
            harness.wait_for(lambda: state(driver)[1] == "true" and "lost" not in state(driver)[0], 5,
                             "the page to show the rig recording again")
            print("rig continued: the page reconnected by itself and shows RECORDING")

            killed = time.time()  # before: the page may see the stream end before kill() has reaped the rig
            rig.kill()
            at, recording = lost_after(driver, killed)
            print(f"rig killed: the page showed it lost {at - killed:.2f} s later: {state(driver)[2]!r}")
            assert at - killed <= LOST_LIMIT and recording == "false", (at - killed, recording)

            rig = start(folder, port, [])
            rigs.append(rig)
            harness.wait_for(lambda: state(driver)[1] == "false" and "lost" not in state(driver)[0]
                             and "STANDBY" in state(driver)[2].upper(), 10, "the page to reconnect to the new rig")
            driver.save_screenshot(os.path.join(SHOTS, "page-reconnected-phone.png"))
            print("a new rig on the port: the page reconnected by itself and shows it in standby")
    finally:
        for rig in rigs:
            rig.kill()
        driver.quit()
    print("lost rig: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
