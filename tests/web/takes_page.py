"""Takes watched and recovered from the rig's page on a phone (headless
Chromium at 390x844, touch): `slate run --http` with the 720p test pattern and
the test tone records two takes.

- Each card shows its number, time of day, length and sound, with Play,
  Download and Delete.
- The remote's layout: the Record/Stop button stays in view wherever the page
  is scrolled, the inputs say what is connected and when it was last used, the
  page says how it keeps the screen awake, and 2× and 1× zoom the camera.
- `GET /takes/N/video` answers a range request with 206 and the bytes asked
  for; downloaded whole it is the take's file byte for byte.
- Play opens the player: the phone's player loads the take (its length within
  a frame of the take's) and seeks to the middle through range requests.
- Delete, confirmed, moves the take to the trash: the page's Trash lists it,
  its file is in the work folder's trash folder; Restore brings it back to
  the list and its file back to the work folder, byte for byte.

Screenshots (.build/web-screenshots): takes-phone.png, takes-player-phone.png,
takes-trash-phone.png.
"""

import hashlib
import os
import re
import sys
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, is_take, profiles  # noqa: E402
from rig_page import SHOTS, browser, pair_browser, start, status  # noqa: E402


def digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


def tap(driver, element):
    """A tap on `element` once it is in the middle of the screen, clear of the Record bar."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def main():
    os.makedirs(SHOTS, exist_ok=True)
    phone = browser(phone=True)
    rig = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [1.0, 3.5, 4.5, 6.0], end=90.0)
            rig = start(folder, profiles.framing(folder), recording)
            pair_browser(phone, rig)
            stopped = [rig.next_line(is_take("stopped"))[1] for _ in range(2)]
            WebDriverWait(phone, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes li")) == 2)
            first = phone.find_element(By.CSS_SELECTOR, '#takes li[data-take="1"]')
            caption = first.find_element(By.CSS_SELECTOR, ".caption").text
            assert re.fullmatch(r"1 \d\d:\d\d:\d\d · \d\d:\d\d\.\d · sound", caption), caption
            labels = [element.text for element in first.find_elements(By.CSS_SELECTOR, ".take-actions > *")]
            assert labels == ["Play", "Download", "Delete"], labels
            phone.save_screenshot(os.path.join(SHOTS, "takes-phone.png"))
            print(f"take card: {caption!r}, {labels}")

            # The remote's layout: Record/Stop in reach wherever the page is scrolled, the inputs,
            # the screen kept awake, the quick buttons acting.
            for scroll in ("0", "document.body.scrollHeight"):
                phone.execute_script(f"window.scrollTo(0, {scroll})")
                time.sleep(0.2)
                box = phone.execute_script(
                    "const r = document.getElementById('toggle').getBoundingClientRect();"
                    "return [r.top, r.bottom, r.height, window.innerHeight]")
                assert 0 <= box[0] and box[1] <= box[3] and box[2] >= 60, box
            inputs = phone.find_element(By.ID, "inputs").text
            assert re.match(r"pedals: PCsensor FootSwitch, last used \d+ s ago", inputs), inputs
            awake = phone.find_element(By.ID, "awake")
            assert awake.get_attribute("data-how") in ("wake-lock", "video"), awake.text
            tap(phone, phone.find_element(By.ID, "zoom-2"))
            WebDriverWait(phone, 10).until(lambda d: "zoom 2.0×" in d.find_element(By.ID, "camera").text)
            assert "on" in phone.find_element(By.ID, "zoom-2").get_attribute("class")
            tap(phone, phone.find_element(By.ID, "zoom-1"))
            WebDriverWait(phone, 10).until(lambda d: "zoom 1.0×" in d.find_element(By.ID, "camera").text)
            print(f"layout: Record/Stop {box[2]:.0f} px tall, in view at the top and the bottom; inputs {inputs!r}; "
                  f"{awake.text!r}; 2× and 1× zoom the camera")

            # The take's file, by range and whole.
            listed = status(rig)["takes"][0]
            url = rig.page_url().rstrip("/") + listed["video"]
            path = stopped[0]["path"]
            code, headers, body = fetch(url, {"Range": "bytes=100-1123"})
            with open(path, "rb") as handle:
                handle.seek(100)
                expected = handle.read(1024)
            size = os.path.getsize(path)
            assert code == 206 and body == expected, (code, len(body))
            assert headers["Content-Range"] == f"bytes 100-1123/{size}", headers
            code, headers, body = fetch(url + "&download")
            assert code == 200 and hashlib.sha256(body).hexdigest() == digest(path), code
            assert headers["Content-Disposition"] == f'attachment; filename="{os.path.basename(path)}"', headers
            print(f"GET {listed['video']}: Range bytes=100-1123 -> 206, {headers['Accept-Ranges']} ranges; "
                  f"downloaded whole it is the take's {size} bytes")

            # Played on the phone, and sought to the middle.
            tap(phone, first.find_element(By.CSS_SELECTOR, "button.play"))
            WebDriverWait(phone, 15).until(lambda d: d.execute_script(
                "return document.getElementById('player').open && document.getElementById('player-video').readyState >= 1"))
            duration = phone.execute_script("return document.getElementById('player-video').duration")
            assert abs(duration - stopped[0]["duration"]) <= 0.1, (duration, stopped[0]["duration"])
            phone.execute_script("""
                const video = document.getElementById('player-video');
                window.slateSeeked = false;
                video.addEventListener('seeked', () => { window.slateSeeked = true; }, {once: true});
                video.currentTime = video.duration / 2;""")
            WebDriverWait(phone, 15).until(lambda d: d.execute_script("return window.slateSeeked"))
            position = phone.execute_script("return document.getElementById('player-video').currentTime")
            error = phone.execute_script("return document.getElementById('player-video').error")
            assert error is None and abs(position - duration / 2) <= 0.5, (position, error)
            time.sleep(0.3)
            phone.save_screenshot(os.path.join(SHOTS, "takes-player-phone.png"))
            phone.find_element(By.ID, "player-close").click()
            WebDriverWait(phone, 5).until(lambda d: not d.execute_script("return document.getElementById('player').open"))
            print(f"player: take 1 loads ({duration:.2f} s, the take {stopped[0]['duration']:.2f} s) and seeks to "
                  f"{position:.2f} s")

            # Deleted to the trash, and restored byte for byte.
            second = phone.find_element(By.CSS_SELECTOR, '#takes li[data-take="2"]')
            before = digest(stopped[1]["path"])
            tap(phone, second.find_element(By.CSS_SELECTOR, "button.delete"))
            assert "trash" in phone.switch_to.alert.text
            phone.switch_to.alert.accept()
            _, deleted = rig.next_line(is_take("deleted"))
            trashed = os.path.join(os.path.dirname(deleted["path"]), "trash", os.path.basename(deleted["path"]))
            assert not os.path.exists(deleted["path"]) and digest(trashed) == before, deleted
            assert "in the trash for 24 h" in deleted.get("message", ""), deleted
            WebDriverWait(phone, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trash li")) == 1)
            WebDriverWait(phone, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes li")) == 1)
            entry = phone.find_element(By.CSS_SELECTOR, "#trash li").text
            phone.save_screenshot(os.path.join(SHOTS, "takes-trash-phone.png"))
            tap(phone, phone.find_element(By.CSS_SELECTOR, "#trash button.restore"))
            _, restored = rig.next_line(is_take("restored"))
            assert restored["take"] == 2 and digest(restored["path"]) == before, restored
            assert not os.path.exists(trashed)
            WebDriverWait(phone, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#takes li")) == 2)
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "trash-box").get_attribute("hidden"))
            print(f"take 2 deleted to the trash ({entry!r}) and restored byte for byte ({before[:12]}…)")
    finally:
        phone.quit()
        if rig:
            rig.stop()
    print("takes page: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
