# shellcheck shell=bash disable=SC2034  # VM_DATA and SLATE are for scenarios
# Helpers for the rig VM scenarios (tests/vm/scenario-*.sh). tests/vm/run-all
# runs each scenario with bash inside the VM, as root, from the project root.
# A scenario sources this file, calls `check` for each thing it verifies and
# ends with `finish`:
#
#   . tests/vm/lib.sh
#   create_device tests/vm/data/footswitch.evemu
#   check "the pedal has ID_INPUT_KEY=1" has_property "$DEVICE" ID_INPUT_KEY 1
#   finish
#
# Devices created with create_device are removed when the scenario exits.

set -euo pipefail

if [[ ${RIG_VM:-} != 1 ]]; then
    echo "$0: runs inside the rig VM: scripts/rig-vm -- tests/vm/run-all" >&2
    exit 2
fi

VM_DATA="$PWD/tests/vm/data"
SLATE="$PWD/.build/debug/slate"
DEVICE=""
failures=0
device_pids=()

trap remove_devices EXIT

# check DESCRIPTION COMMAND [ARGS...]: runs COMMAND and reports ok or FAIL.
check() {
    local description=$1
    shift
    if "$@"; then
        echo "  ok    $description"
    else
        echo "  FAIL  $description"
        failures=$((failures + 1))
    fi
}

# Ends the scenario: exit status 1 when a check failed.
finish() {
    ((failures == 0)) || { echo "  $failures check(s) failed"; exit 1; }
}

indent() { sed 's/^/        /'; }

# output_has PATTERN COMMAND [ARGS...]: COMMAND's output has a line matching
# the extended regular expression PATTERN. (Not `COMMAND | grep -q`: under
# pipefail, grep quitting early can fail the pipeline.)
output_has() {
    local pattern=$1 output
    shift
    output=$("$@" 2>&1) || { indent <<<"$output" >&2; return 1; }
    grep -Eq -- "$pattern" <<<"$output" || { indent <<<"$output" >&2; return 1; }
}

# Creates a uinput device from an evemu file (only its N:, I:, P:, B: and A:
# lines count), waits for udev, and sets DEVICE to its /dev/input/eventN.
create_device() {
    local file=$1 log
    log=$(mktemp)
    evemu-device "$file" >"$log" 2>&1 &
    device_pids+=($!)
    DEVICE=""
    local tries
    for ((tries = 0; tries < 100; tries++)); do
        DEVICE=$(sed -n 's|^.*: \(/dev/input/event[0-9]*\)$|\1|p' "$log")
        [[ -n $DEVICE ]] && break
        sleep 0.1
    done
    [[ -n $DEVICE ]] || { echo "evemu-device $file made no device:" >&2; cat "$log" >&2; return 1; }
    udevadm settle
}

# record_events DEVICE OUTPUT COMMAND [ARGS...]: records DEVICE with
# evemu-record into OUTPUT while COMMAND (say, evemu-play) runs.
record_events() {
    local device=$1 output=$2 recorder tries status=0
    shift 2
    evemu-record "$device" "$output" 2>/dev/null &
    recorder=$!
    # Once evemu-record has the device open, the kernel keeps its events.
    for ((tries = 0; tries < 100; tries++)); do
        [[ $(readlink /proc/$recorder/fd/* 2>/dev/null) == *"$device"* ]] && break
        sleep 0.1
    done
    "$@" || status=$?
    sleep 0.3
    kill -INT "$recorder"
    wait "$recorder" || true
    return "$status"
}

remove_devices() {
    local pid
    for pid in ${device_pids[@]+"${device_pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    device_pids=()
}

# udev_property NODE NAME: prints the value of a udev property (empty if unset).
udev_property() {
    udevadm info --query=property --name="$1" | sed -n "s/^$2=//p"
}

# has_property NODE NAME VALUE
has_property() {
    local value
    value=$(udev_property "$1" "$2")
    [[ $value == "$3" ]] || { echo "        $1: $2='$value', expected '$3'" >&2; return 1; }
}

# lacks_property NODE NAME
lacks_property() {
    local value
    value=$(udev_property "$1" "$2")
    [[ -z $value ]] || { echo "        $1: $2='$value', expected none" >&2; return 1; }
}

# has_tag NODE TAG: the tag is in both TAGS and CURRENT_TAGS.
has_tag() {
    local tags current
    tags=$(udev_property "$1" TAGS)
    current=$(udev_property "$1" CURRENT_TAGS)
    [[ $tags == *":$2:"* && $current == *":$2:"* ]] ||
        { echo "        $1: TAGS='$tags' CURRENT_TAGS='$current', no $2" >&2; return 1; }
}

lacks_tag() {
    local tags
    tags=$(udev_property "$1" TAGS)
    [[ $tags != *":$2:"* ]] || { echo "        $1: TAGS='$tags' has $2" >&2; return 1; }
}
