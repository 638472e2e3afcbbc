#!/usr/bin/env bash
# slate cameras on vivid's webcam input (/dev/video0): the modes it lists, the
# mode picked for 30 fps (640x360) and 60 fps (320x180), a short stream with
# its frame rate and dropped frames, and a camera unbound while streaming: a
# clear error and exit status 1, not a crash; bound again, it streams again.
# shellcheck source=tests/vm/lib.sh
. tests/vm/lib.sh

out=$(mktemp -d)

# json_check FILE PYTHON-EXPRESSION: the expression, on `cameras` (the JSON lines
# of FILE) or `result` (its last line), is true.
json_check() {
    python3 - "$1" "$2" <<'EOF' || { indent <"$1" >&2; return 1; }
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
cameras = {c["path"]: c for c in lines}
result = lines[-1] if lines else {}
video0 = cameras.get("/dev/video0", {})
def pick(fps):
    return next((s for s in video0.get("selections", []) if s["fps"] == fps), {})
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

echo "slate cameras --json"
"$SLATE" cameras >"${RIG_VM_RESULTS:-$out}/cameras.txt" 2>&1 || true
"$SLATE" cameras --json >"$out/cameras.json" 2>"$out/cameras.err" || true
cp "$out/cameras.json" "${RIG_VM_RESULTS:-$out}/cameras.json" 2>/dev/null || true
check "it lists /dev/video0 (vivid)" json_check "$out/cameras.json" 'video0.get("driver") == "vivid"'
check "only capture devices are listed (not vivid's output nodes)" \
    json_check "$out/cameras.json" 'all(c.get("modes") for c in cameras.values())'
check "/dev/video0 has a 640x360 mode" \
    json_check "$out/cameras.json" 'any((m["width"], m["height"]) == (640, 360) for m in video0["modes"])'
check "30 fps picks 640x360 at 1/30" \
    json_check "$out/cameras.json" '(pick(30)["outcome"], pick(30)["width"], pick(30)["height"], pick(30)["interval"]) == ("chosen", 640, 360, "1/30")'
check "60 fps picks 320x180 at 1/60" \
    json_check "$out/cameras.json" '(pick(60)["outcome"], pick(60)["width"], pick(60)["height"], pick(60)["interval"]) == ("chosen", 320, 180, "1/60")'
check "its controls have names, ranges and values" \
    json_check "$out/cameras.json" 'any(c["name"] == "Brightness" and c["value"] is not None for c in video0["controls"])'
"$SLATE" cameras --json --fps 60 >"$out/cameras-60.json"
check "--fps 60 shows only the 60 fps pick" \
    json_check "$out/cameras-60.json" \
    '[(s["fps"], s["outcome"], s["width"], s["height"]) for s in video0["selections"]] == [(60, "chosen", 320, 180)]'
check "the text listing shows the picks" output_has '^    30 fps: [A-Z0-9]+ 640x360 at 1/30' "$SLATE" cameras

echo "slate cameras --test /dev/video0 --fps 30 --frames 30"
status=0
"$SLATE" cameras --test /dev/video0 --fps 30 --frames 30 --json >"$out/test.json" 2>"$out/test.err" || status=$?
cp "$out/test.json" "${RIG_VM_RESULTS:-$out}/test.json" 2>/dev/null || true
check "it exits 0" test "$status" = 0
check "it streamed 30 frames of 640x360 at 1/30" \
    json_check "$out/test.json" '(result["frames"], result["width"], result["height"], result["interval"]) == (30, 640, 360, "1/30")'
check "it reports the dropped frames and a frame rate" \
    json_check "$out/test.json" 'result["dropped"] >= 0 and result["measuredFPS"] > 0'
check "the timestamps are the driver's, on CLOCK_MONOTONIC, in order" \
    json_check "$out/test.json" 'result["driverTimestamps"] and result["last"] > result["first"] > 0'
check "it used at least 4 buffers" json_check "$out/test.json" 'result["buffers"] >= 4'
check "nothing on stderr (libv4l2 complains of every failed dequeue)" test ! -s "$out/test.err"
check "a frame has 640x360 YUYV's bytes" json_check "$out/test.json" 'result["bytes"] == 640 * 360 * 2'
indent <"$out/test.json"
indent <"$out/test.err"

echo "controls: set with --control, read back by the listing; vivid dropping buffers"
check "Hue 500 is clamped to 128" output_has 'set Hue to 500, the driver kept 128' \
    "$SLATE" cameras --test /dev/video0 --fps 60 --frames 2 --control Hue=500 --control 0x00980900=200
"$SLATE" cameras --json --fps 60 >"$out/after.json" 2>&1 || true
check "the listing shows Brightness 200" \
    json_check "$out/after.json" 'next(c["value"] for c in video0["controls"] if c["name"] == "Brightness") == 200'
"$SLATE" cameras --test /dev/video0 --fps 60 --frames 20 --json \
    --control 'Percentage of Dropped Buffers=50' >"$out/drop.json" 2>"$out/drop.err" || true
check "with half the buffers dropped, the gaps are counted" \
    json_check "$out/drop.json" 'result["frames"] == 20 and result["dropped"] > 0 and result["lastSequence"] - result["firstSequence"] + 1 == 20 + result["dropped"]'
indent <"$out/drop.json"

echo "vivid unbound while slate streams"
"$SLATE" cameras --test /dev/video0 --fps 60 --frames 100000 --control 'Percentage of Dropped Buffers=0' >"$out/unbind.out" 2>"$out/unbind.err" &
slate=$!
for ((tries = 0; tries < 100; tries++)); do
    grep -q 'buffers of' "$out/unbind.out" 2>/dev/null && break
    sleep 0.1
done
sleep 1
echo vivid.0 >/sys/bus/platform/drivers/vivid/unbind
status=0
timeout 20 tail --pid="$slate" -f /dev/null || true
wait "$slate" || status=$?
check "slate exits with status 1 (not a signal)" test "$status" = 1
check "it says the camera is gone" grep -Eq 'No such device.*camera is gone' "$out/unbind.err"
indent <"$out/unbind.err"
check "/dev/video0 is gone" test ! -e /dev/video0
echo vivid.0 >/sys/bus/platform/drivers/vivid/bind
udevadm settle
for ((tries = 0; tries < 50; tries++)); do
    [[ -c /dev/video0 ]] && break
    sleep 0.1
done
check "bind brings /dev/video0 back" test -c /dev/video0
check "and it streams again" output_has '^5 frames in' "$SLATE" cameras --test /dev/video0 --fps 60 --frames 5

finish
