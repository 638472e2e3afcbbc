#!/usr/bin/env bash
# A take recorded from the vivid camera through the recorder: 320x180 at 60 fps,
# as long as the time it was recording (frames the emulated machine could not
# keep up with are counted as dropped and leave gaps, not a faster take),
# playable, with its thumbnail and manifest entry.
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
listed = subprocess.run([".build/debug/slate", "takes", "list", "--json", "--work", work], capture_output=True, text=True,
                        check=True).stdout.splitlines()
check(len(listed) == 1 and json.loads(listed[0])["path"] == take["path"], "takes.json lists it")
PY
finish
