"""ffprobe's reading of a video: its format, its streams with every frame
decoded, and (when asked) each packet's MD5."""

import json
import subprocess

FORMAT = "format=format_name,duration,size"
STREAMS = "stream=index,codec_type,codec_name,width,height,avg_frame_rate,duration,nb_read_frames"


def probe(path, streams=None, packets=False, timeout=120):
    """ffprobe's reading of `path`, every frame counted: {"format": {...},
    "streams": [...], "packets": [...]} (a stream's `nb_read_frames` is the
    frames that decode; `duration` is in seconds). `streams`: a stream
    specifier ("v:0") to read only those streams; `packets`: each packet's MD5
    too (`data_hash`). What ffprobe read of a damaged file is kept, and
    "error" says why it failed."""
    command = ["ffprobe", "-v", "error"]
    if streams:
        command += ["-select_streams", streams]
    entries = FORMAT + ":" + STREAMS + (":packet=data_hash" if packets else "")
    command += ["-count_frames", "-show_entries", entries]
    if packets:
        command += ["-show_data_hash", "MD5"]
    result = subprocess.run(command + ["-of", "json", path], capture_output=True, text=True, timeout=timeout)
    try:
        reading = json.loads(result.stdout or "{}")
    except ValueError:
        reading = {}
    reading.setdefault("format", {})
    reading.setdefault("streams", [])
    if packets:
        reading.setdefault("packets", [])
    if result.returncode != 0:
        reading["error"] = result.stderr.strip()
    return reading


def decoded(reading):
    """The frames that decode of the first stream of a probe() reading (0 when none)."""
    count = (reading["streams"] or [{}])[0].get("nb_read_frames", "0")
    return int(count) if str(count).isdigit() else 0


def frames(path):
    """How many video frames ffprobe decodes from `path` (0 when it decodes none)."""
    return decoded(probe(path, "v:0"))
