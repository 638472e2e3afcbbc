#!/usr/bin/env bash
# A take recorded from the vivid camera through the recorder: 320x180 at 60 fps,
# as long as the time it was recording (frames the emulated machine could not
# keep up with are counted as dropped and leave gaps, not a faster take),
# playable, with its thumbnail, manifest entry and the colours vivid states. Then PAL and NTSC: at 25 fps
# vivid's 1/25 interval gives a 25/1 take; at 29.97 vivid has no 1001/30000
# interval, so the take is at 30/1 and the log says why.
# shellcheck source=tests/vm/lib.sh
. tests/vm/lib.sh

work=$(mktemp -d)
"$SLATE" record --camera /dev/video0 --fps 60 --seconds 3 --codec h264 --work "$work" --json >"$work/out.json" 2>"$work/err.txt" || {
    cat "$work/err.txt"
    exit 1
}
cat "$work/out.json" "$work/err.txt"
python3 - "$work" <<'PY'
import json, subprocess, sys
work = sys.argv[1]
take = json.load(open(work + "/out.json"))
def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        sys.exit(1)
probe = json.loads(subprocess.run(
    ["ffprobe", "-v", "error", "-count_packets", "-show_streams", "-of", "json", take["path"]],
    capture_output=True, text=True, check=True).stdout)["streams"][0]
check(probe["width"] == 320 and probe["height"] == 180, "the take is 320x180 (%sx%s)" % (probe["width"], probe["height"]))
check(int(probe["nb_read_packets"]) == take["frames"], "ffprobe counts the take's %d frames" % take["frames"])
check(2.5 <= take["duration"] <= 3.5, "about 3 s long (%.3f s)" % take["duration"])
check(take["frames"] >= 10, "it holds frames (%d)" % take["frames"])
captured = take["frames"] + take["dropped"]
check(abs(captured - take["duration"] * 60) <= take["duration"] * 60 * 0.15,
      "frames + dropped (%d + %d) match %.3f s at 60 fps" % (take["frames"], take["dropped"], take["duration"]))
duration = float(probe.get("duration") or 0)
check(abs(duration - take["duration"]) < 0.1, "the file plays for the take's duration (%.3f s)" % duration)
check(open(take["thumbnail"], "rb").read(2) == b"\xff\xd8", "the thumbnail is a JPEG")
# vivid states sRGB for its webcam: BT.709 primaries, sRGB's transfer, BT.601's matrix, limited range.
colours = tuple(probe.get(key) for key in ("color_primaries", "color_transfer", "color_space", "color_range"))
check(colours == ("bt709", "iec61966-2-1", "smpte170m", "tv"), "the take states vivid's colours %s" % (colours,))
listed = subprocess.run([".build/debug/slate", "takes", "list", "--json", "--work", work], capture_output=True, text=True,
                        check=True).stdout.splitlines()
check(len(listed) == 1 and json.loads(listed[0])["path"] == take["path"], "takes.json lists it")
PY
for rate in 25 29.97; do
    "$SLATE" record --camera /dev/video0 --fps "$rate" --seconds 2 --codec h264 --work "$work/$rate" --json \
        >"$work/$rate.json" 2>"$work/$rate.err" || {
        cat "$work/$rate.err"
        exit 1
    }
done
python3 - "$work" <<'PY'
import json, subprocess, sys
work = sys.argv[1]
def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        sys.exit(1)
for rate, expected in (("25", "25/1"), ("29.97", "30/1")):
    take = json.load(open("%s/%s.json" % (work, rate)))
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-show_streams", "-of", "json", take["path"]],
        capture_output=True, text=True, check=True).stdout)["streams"][0]
    # r_frame_rate: the rate the timestamps count (frames the emulated machine dropped lower the average).
    check(probe["r_frame_rate"] == expected, "asked for %s fps, the take is at %s (%s)" % (rate, expected, probe["r_frame_rate"]))
    listed = json.loads(open("%s/%s/takes.json" % (work, rate)).read())["takes"][0]
    check(listed.get("timecode") is not None and probe.get("tags", {}).get("timecode") == listed["timecode"],
          "its timecode track starts at its take's timecode (%s)" % listed.get("timecode"))
    check(listed.get("fps") == int(expected.split("/")[0]), "takes.json has its rate (%s)" % listed.get("fps"))
log = open(work + "/29.97.err").read()
check("no 1001/30000 interval, 1/30 (30 fps) instead" in log, "the log says vivid has no 29.97 interval")
PY
finish
