#!/usr/bin/env bash
# slate controls on vivid's /dev/video0: the catalog lists integer, boolean,
# menu and integer-menu controls with their menus and what each can back; set
# values are the ones v4l2-ctl reads, a value out of range is clamped and said
# so, an unknown name sets nothing; --watch reports changes v4l2-ctl makes, and
# the gain that vivid's automatic gain makes inactive becomes enabled when the
# automatic gain is turned off; and V4L2ControlEventTests: a camera streaming
# wakes for control changes between its frames and loses none.
# shellcheck source=tests/vm/lib.sh
. tests/vm/lib.sh

out=$(mktemp -d)
dev=/dev/video0

# json_check FILE PYTHON-EXPRESSION: the expression is true of the JSON lines
# of FILE: `lines`, `catalog` (the first line), `controls` (its controls by
# key) and `changes` (the watch's control lines).
json_check() {
    python3 - "$1" "$2" <<'EOF' || { indent <"$1" >&2; return 1; }
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
catalog = lines[0] if lines else {}
controls = {c["key"]: c for c in catalog["controls"]} if catalog.get("type") == "controls" else {}
changes = [line for line in lines if line.get("type") == "control"]
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

# driver_value NAME: the control's value as v4l2-ctl reads it.
driver_value() { v4l2-ctl -d "$dev" --get-ctrl "$1" | sed -n "s/^$1: //p"; }

# is_value NAME VALUE: v4l2-ctl reads VALUE.
is_value() {
    local value
    value=$(driver_value "$1")
    [[ $value == "$2" ]] || { echo "        v4l2-ctl reads $1: '$value', expected '$2'" >&2; return 1; }
}

# wait_for FILE PYTHON-EXPRESSION: waits up to 30 s for json_check to hold.
wait_for() {
    local tries
    for ((tries = 0; tries < 150; tries++)); do
        json_check "$1" "$2" 2>/dev/null && return 0
        sleep 0.2
    done
    json_check "$1" "$2"
}

v4l2-ctl -d "$dev" --set-ctrl gain_automatic=1,brightness=128,hue=0,menu=3

echo "slate controls --json"
"$SLATE" controls --json >"$out/catalog.json" 2>"$out/catalog.err" || true
cp "$out/catalog.json" "${RIG_VM_RESULTS:-$out}/controls.json" 2>/dev/null || true
check "one line, a catalog of vivid's /dev/video0" \
    json_check "$out/catalog.json" 'len(lines) == 1 and (catalog["type"], catalog["camera"], catalog["path"]) == ("controls", "vivid", "/dev/video0")'
check "brightness: an integer 0..255, value 128, a slider" \
    json_check "$out/catalog.json" '{k: controls["brightness"][k] for k in ("id", "type", "min", "max", "step", "default", "value", "backs")} == {"id": "0x00980900", "type": "int", "min": 0, "max": 255, "step": 1, "default": 128, "value": 128, "backs": ["slider"]}'
check "horizontal_flip: a boolean, a picker" \
    json_check "$out/catalog.json" '(controls["horizontal_flip"]["type"], controls["horizontal_flip"]["backs"], controls["horizontal_flip"]["max"]) == ("bool", ["picker"], 1)'
check "menu: a menu with its items (vivid skips item 2), value 3, a picker" \
    json_check "$out/catalog.json" '(controls["menu"]["type"], controls["menu"]["value"], controls["menu"]["backs"], controls["menu"]["menu"]) == ("menu", 3, ["picker"], [{"index": 1, "name": "Menu Item 1"}, {"index": 3, "name": "Menu Item 3"}, {"index": 4, "name": "Menu Item 4"}])'
check "integer_menu: an integer menu whose items are its values, a picker" \
    json_check "$out/catalog.json" 'controls["integer_menu"]["type"] == "intmenu" and controls["integer_menu"]["backs"] == ["picker"] and {"index": 4, "name": "5"} in controls["integer_menu"]["menu"]'
check "integer_64_bits: a 64-bit integer with its whole range" \
    json_check "$out/catalog.json" '(controls["integer_64_bits"]["type"], controls["integer_64_bits"]["min"], controls["integer_64_bits"]["max"]) == ("int64", -2**63, 2**63 - 1)'
check "a button has no value and backs nothing; a read-only control backs nothing" \
    json_check "$out/catalog.json" 'controls["button"]["value"] is None and controls["button"]["backs"] == [] and "read-only" in controls["read_only_integer_32_bits"]["flags"] and controls["read_only_integer_32_bits"]["backs"] == []'
check "with automatic gain on, gain is listed inactive and gain_automatic updates others" \
    json_check "$out/catalog.json" '"inactive" in controls["gain"]["flags"] and controls["gain_automatic"]["value"] == 1 and "update" in controls["gain_automatic"]["flags"]'
check "nothing on stderr" test ! -s "$out/catalog.err"
check "the text listing aligns key, type, range, default, value, flags, backs" \
    output_has '^    brightness +int +0\.\.255 +128 +128 +slider +slider$' "$SLATE" controls --camera "$dev"

echo "slate controls set"
status=0
"$SLATE" controls --camera "$dev" set brightness=200 hue=500 'Menu=menu item 4' 0x00980902=77 >"$out/set.txt" 2>&1 || status=$?
indent <"$out/set.txt"
check "it exits 0" test "$status" = 0
check "brightness 200 is kept" grep -qx 'brightness: set to 200' "$out/set.txt"
check "v4l2-ctl reads brightness 200" is_value brightness 200
check "hue 500 is clamped to 128, and said so" grep -qx 'hue: asked 500, kept 128' "$out/set.txt"
check "v4l2-ctl reads hue 128" is_value hue 128
check "a menu item set by its name" grep -qx 'menu: set to 4 (Menu Item 4)' "$out/set.txt"
check "v4l2-ctl reads menu 4" is_value menu '4 (Menu Item 4)'
check "a control set by its id" is_value saturation 77
status=0
"$SLATE" controls --camera "$dev" set brightness=10 brigtness=20 >"$out/unknown.txt" 2>&1 || status=$?
indent <"$out/unknown.txt"
check "an unknown name exits 1" test "$status" = 1
check "and lists the close names" grep -qx "slate controls: $dev: no control 'brigtness'; did you mean brightness?" "$out/unknown.txt"
check "and sets nothing, not even the controls before it" is_value brightness 200

echo "slate controls --watch --json"
"$SLATE" controls --camera "$dev" --watch --json >"$out/watch.json" 2>"$out/watch.err" &
watcher=$!
check "it says it is watching" wait_for "$out/watch.json" 'catalog.get("type") == "watching" and catalog["path"] == "/dev/video0" and catalog["controls"] > 20'
v4l2-ctl -d "$dev" --set-ctrl brightness=42
check "a brightness set by v4l2-ctl is reported, external and enabled" \
    wait_for "$out/watch.json" 'any((c["control"], c["value"], c["source"], c["enabled"], c["changed"]) == ("brightness", 42, "external", True, ["value"]) for c in changes)'
v4l2-ctl -d "$dev" --set-ctrl gain_automatic=0
check "turning automatic gain off is reported" \
    wait_for "$out/watch.json" 'any((c["control"], c["value"]) == ("gain_automatic", 0) for c in changes)'
check "and gain is reported enabled, its flags changed" \
    wait_for "$out/watch.json" 'any(c["control"] == "gain" and c["enabled"] and "flags" in c["changed"] and "inactive" not in c["flags"] for c in changes)'
v4l2-ctl -d "$dev" --set-ctrl gain_automatic=1
check "turned on again, gain is reported disabled" \
    wait_for "$out/watch.json" '[(c["enabled"], "inactive" in c["flags"]) for c in changes if c["control"] == "gain"][-1] == (False, True)'
check "every change is in order of time" json_check "$out/watch.json" '[c["t"] for c in changes] == sorted(c["t"] for c in changes) and changes[0]["t"] > 0'
kill -TERM "$watcher"
status=0
wait "$watcher" || status=$?
check "SIGTERM ends the watch with status 0" test "$status" = 0
check "nothing on its stderr" test ! -s "$out/watch.err"
indent <"$out/watch.json"

"$SLATE" controls --camera "$dev" --json >"$out/after.json" 2>&1 || true
check "the catalog now shows brightness 42 and gain_automatic 1" \
    json_check "$out/after.json" '(controls["brightness"]["value"], controls["gain_automatic"]["value"]) == (42, 1)'

echo "control events between frames (V4L2ControlEventTests)"
status=0
.build/debug/SlatePackageTests.xctest --testing-library swift-testing --filter V4L2ControlEventTests \
    >"$out/tests.txt" 2>&1 || status=$?
indent <"$out/tests.txt"
check "the tests pass" test "$status" = 0
check "changes from another descriptor and vivid's own wake the wait between frames, and no frame is lost" \
    grep -Eq 'Test changesWakeTheWaitBetweenFramesAndNoFrameIsLost\(\) passed' "$out/tests.txt"
check "changes arrive while not streaming, and the camera's own are not reported" \
    grep -Eq 'Test changesArriveWhileNotStreamingAndTheirOwnAreNotReported\(\) passed' "$out/tests.txt"

v4l2-ctl -d "$dev" --set-ctrl gain_automatic=1,brightness=128,hue=0,menu=3,saturation=128
finish
