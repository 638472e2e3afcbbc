"""The test pattern's clock read back from a picture: the time a frame was
due (`12345.678 s`, its clock's seconds) that Sources/SlateCore/Media/TestPattern.swift
draws under the frame index, white on black in its 5x7 font, read from the
luma of a decoded frame by the centre of each font pixel."""

import subprocess

# TestPattern's font: seven rows of five bits a glyph.
GLYPHS = {
    "0": (0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E), "1": (0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "2": (0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F), "3": (0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E),
    "4": (0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02), "5": (0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E),
    "6": (0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E), "7": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08),
    "8": (0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E), "9": (0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C),
    ".": (0, 0, 0, 0, 0, 0x0C, 0x0C), "-": (0, 0, 0, 0x1F, 0, 0, 0), " ": (0, 0, 0, 0, 0, 0, 0),
}
CHARACTERS = {rows: character for character, rows in GLYPHS.items()}


def luma(path, seconds=0):
    """The luma of the first frame of the video or image at `path` whose
    timestamp is `seconds` or later (the video stream's own time, whatever
    the sound's start): (bytes, width, height), one byte a pixel."""
    size = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                           "-of", "csv=p=0", path], capture_output=True, text=True, check=True, timeout=60)
    width, height = (int(value) for value in size.stdout.split(",")[:2])
    picture = subprocess.run(["ffmpeg", "-v", "error", "-copyts", "-i", path, "-vf", "select=gte(t\\,%.6f)" % seconds,
                              "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                             capture_output=True, check=True, timeout=60)
    return picture.stdout, width, height


def read_time(picture):
    """The time the pattern drew on `picture` (luma(), say), in seconds; None
    when its text is not there (another picture, a black frame)."""
    pixels, width, height = picture
    big = max(2, height // 36)
    small = max(1, big // 2)
    margin = small * 2
    top = 2 * margin + 7 * big
    text = ""
    for cell in range(16):
        left = margin + cell * 6 * small
        if left + 5 * small > width:
            break
        rows = tuple(sum(16 >> column for column in range(5)
                         if pixels[(top + row * small + small // 2) * width + left + column * small + small // 2] > 128)
                     for row in range(7))
        character = CHARACTERS.get(rows)
        if character is None or character == " ":
            break
        text += character
    try:
        return float(text)
    except ValueError:
        return None
