"""Pairing a phone with a rig whose page is on every interface (`slate run
--http 0.0.0.0:0`), in headless Chromium at a phone's size (390x844, touch)
and at a desktop's.

- The phone opens the page unpaired: it is sent to /pair. A wrong code is
  refused (4 more tries), the code `slate pair` printed pairs it (`slate run`, its standard
  error not a terminal, logs no code), and it is
  back on the page, paired, and starts a take with its Record button; on
  plain http to a LAN address it keeps the screen awake with a silent video.
- `slate pair` on a terminal (a pseudo-terminal, with and without colour)
  draws a QR code; zbarimg reads the pairing link from it, and the desktop
  browser that opens that link is paired with no typing.
- `slate pair --list` names both browsers; `slate pair --revoke ID` of the
  phone's ends its event stream and sends it back to /pair within 3 s.

- A paired browser's *Pair another device* shows a new code and the address
  to enter it at.

Screenshots (.build/web-screenshots): pair-phone.png, pair-wrong-code-phone.png,
page-paired-phone.png, pair-qr-desktop.png, pair-another-desktop.png.
"""

import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices  # noqa: E402
from rig_page import SHOTS, browser  # noqa: E402

REVOKE_LIMIT = 3.0


def on_terminal(command, env):
    """What `command` writes on a pseudo-terminal, as text."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(10)
    os.close(leader)
    assert process.returncode == 0, output
    return output.decode()


# Half blocks drawn for light modules (no colour): (top light, bottom light).
PLAIN = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def modules(text):
    """The QR code's rows of modules (True: dark) from the lines `slate pair` drew."""
    rows = []
    for line in text.splitlines():
        line = line.rstrip("\r")
        if "▀" not in line and "█" not in line:
            continue
        top, bottom = [], []
        if "\x1b[" in line:
            # Coloured: each ▀ in the top module's colour (30 black, 97 white) over the bottom one's (40, 107).
            colours = None
            for match in re.finditer(r"\x1b\[(\d+);(\d+)m|(▀)", line):
                if match.group(3):
                    top.append(colours[0] == "30")
                    bottom.append(colours[1] == "40")
                else:
                    colours = (match.group(1), match.group(2))
        else:
            for cell in line:
                top_light, bottom_light = PLAIN[cell]
                top.append(not top_light)
                bottom.append(not bottom_light)
        rows += [top, bottom]
    return rows


def decode(rows, folder, name):
    """The text zbarimg reads from `rows`, drawn 6 pixels a module in a PGM file."""
    scale = 6
    width, height = len(rows[0]) * scale, len(rows) * scale
    pixels = bytearray()
    for row in rows:
        line = bytearray()
        for dark in row:
            line += bytes([0 if dark else 255]) * scale
        pixels += bytes(line) * scale
    path = os.path.join(folder, name + ".pgm")
    with open(path, "wb") as handle:
        handle.write(b"P5\n%d %d\n255\n" % (width, height) + bytes(pixels))
    read = subprocess.run(["zbarimg", "--quiet", "--raw", path], capture_output=True, text=True, timeout=30)
    assert read.returncode == 0, read.stderr
    return read.stdout.strip()


def code_in(text):
    return re.findall(r"enter the code (\d{6})", text)[-1]


def pair_with(driver, code):
    field = driver.find_element(By.ID, "pair-code")
    field.clear()
    field.send_keys(code)
    driver.find_element(By.ID, "pair-button").click()


def main():
    os.makedirs(SHOTS, exist_ok=True)
    phone, desktop = browser(phone=True), None
    rig = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [], end=120.0)
            rig = harness.slate_run(folder, os.path.join(harness.ROOT, "profiles", "demo.yaml"), replay=recording,
                                    http="0.0.0.0:0")
            page = rig.page_url(30)
            # Its standard error is not a terminal: no code waits in its log; slate pair opens one.
            rig.wait_log("to pair a phone or tablet, run slate pair")
            assert "enter the code" not in rig.log()
            env = dict(rig.env, TERM="xterm-256color")
            env.pop("NO_COLOR", None)
            opened = subprocess.run([harness.binary(), "pair"], env=env, capture_output=True, text=True, check=True)
            code = code_in(opened.stdout)
            assert "\x1b" not in opened.stdout and page + "pair" in opened.stdout, opened.stdout

            phone.get(page)
            WebDriverWait(phone, 10).until(lambda d: d.current_url.endswith("/pair"))
            phone.save_screenshot(os.path.join(SHOTS, "pair-phone.png"))
            wrong = "000000" if code != "000000" else "111111"
            pair_with(phone, wrong)
            WebDriverWait(phone, 5).until(lambda d: "4 more wrong" in d.find_element(By.ID, "pair-message").text)
            phone.save_screenshot(os.path.join(SHOTS, "pair-wrong-code-phone.png"))
            print("phone: sent to /pair; a wrong code:", phone.find_element(By.ID, "pair-message").text)
            pair_with(phone, code)
            WebDriverWait(phone, 10).until(lambda d: d.current_url == page)
            WebDriverWait(phone, 10).until(lambda d: "paired as" in d.find_element(By.ID, "paired-as").text)
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "state-word").text == "STANDBY")
            cookie = phone.get_cookie("slate-pair")
            assert cookie and cookie["httpOnly"] and cookie["sameSite"] == "Strict", cookie
            phone.find_element(By.ID, "toggle").click()
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "state-word").text == "RECORDING")
            # No Wake Lock on plain http to a LAN address: the silent video keeps the screen on, and the page says so.
            how = phone.find_element(By.ID, "awake").get_attribute("data-how")
            assert how == "video", phone.find_element(By.ID, "awake").text
            phone.save_screenshot(os.path.join(SHOTS, "page-paired-phone.png"))
            print("phone: paired with the printed code (%s); its Record button started a take" %
                  phone.find_element(By.ID, "paired-as").text)
            phone.find_element(By.ID, "toggle").click()
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "state-word").text == "STANDBY")

            # The QR code, drawn with colour and without, read by zbar.
            links = []
            for colour in (True, False):
                shown = on_terminal([harness.binary(), "pair"], dict(env, **({} if colour else {"NO_COLOR": "1"})))
                link = decode(modules(shown), folder, "qr-colour" if colour else "qr-plain")
                assert link == "%spair#%s" % (page, code_in(shown)), (link, page)
                links.append(link)
            print("slate pair: zbarimg reads %s (colour) and %s (blocks)" % tuple(links))
            desktop = browser()
            desktop.get(links[-1])
            WebDriverWait(desktop, 10).until(lambda d: d.current_url == page)
            WebDriverWait(desktop, 10).until(lambda d: "paired as" in d.find_element(By.ID, "paired-as").text)
            desktop.save_screenshot(os.path.join(SHOTS, "pair-qr-desktop.png"))
            print("desktop: the QR code's link paired it (%s)" % desktop.find_element(By.ID, "paired-as").text)
            desktop.find_element(By.ID, "pair-another").click()
            WebDriverWait(desktop, 10).until(
                lambda d: re.fullmatch(r"\d{6}", d.find_element(By.CSS_SELECTOR, "#pair-offer .pair-code").text))
            offered = desktop.find_element(By.CSS_SELECTOR, "#pair-offer .pair-code").text
            assert page + "pair" in desktop.find_element(By.ID, "pair-offer").text
            desktop.save_screenshot(os.path.join(SHOTS, "pair-another-desktop.png"))
            print("desktop: Pair another device shows the code %s and where to enter it" % offered)

            listed = subprocess.run([harness.binary(), "pair", "--list"], env=env, capture_output=True, text=True,
                                    check=True).stdout.splitlines()
            assert len(listed) == 2, listed
            phone_id = cookie["value"].split(".")[0]
            assert any(line.startswith(phone_id + " ") for line in listed), (phone_id, listed)
            print("slate pair --list:", listed)
            revoked = subprocess.run([harness.binary(), "pair", "--revoke", phone_id], env=env, capture_output=True,
                                     text=True, check=True)
            start = time.monotonic()
            WebDriverWait(phone, REVOKE_LIMIT * 2).until(lambda d: d.current_url.endswith("/pair"))
            took = time.monotonic() - start
            assert took <= REVOKE_LIMIT, took
            assert "paired as" in desktop.find_element(By.ID, "paired-as").text
            print("%s; the phone was back on /pair %.1f s later, the desktop still paired" % (
                revoked.stdout.strip(), took))
    finally:
        phone.quit()
        if desktop:
            desktop.quit()
        if rig:
            rig.stop()
    print("pairing page: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
