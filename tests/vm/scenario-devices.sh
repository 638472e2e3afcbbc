#!/usr/bin/env bash
# The rig VM has the devices Slate's tests need: a vivid camera, uinput
# devices with udev properties, and the snd-aloop loopback card; and the
# slate binary built on the host runs in it.
# shellcheck source=tests/vm/lib.sh
. tests/vm/lib.sh

echo "vivid camera"
check "/dev/video0 is a character device" test -c /dev/video0
check "v4l2-ctl --list-formats-ext -d /dev/video0 lists 640x360" \
    output_has '640x360' v4l2-ctl --list-formats-ext -d /dev/video0

echo "uinput keypad from tests/vm/data/test-keys.evemu"
create_device "$VM_DATA/test-keys.evemu"
check "evemu-device made $DEVICE" test -c "$DEVICE"
check "udev gives $DEVICE ID_INPUT_KEY=1" has_property "$DEVICE" ID_INPUT_KEY 1
check "evemu-describe sees the keypad's name" output_has 'Slate Test Keys' evemu-describe "$DEVICE"

echo "snd-aloop"
check "aplay -l lists the Loopback card" output_has '^card [0-9]+: Loopback' aplay -l
check "arecord -l lists the Loopback card" output_has '^card [0-9]+: Loopback' arecord -l

echo "slate, built on the host, on a recording of a kernel device"
check "$SLATE is built (make test-vm builds it)" test -x "$SLATE"
create_device "$VM_DATA/footswitch.evemu"
recording=$(mktemp --suffix=.evemu)
record_events "$DEVICE" "$recording" evemu-play "$DEVICE" <"$VM_DATA/footswitch.evemu"
check "slate replay sees the middle pedal go down" \
    output_has 'KEY_B +primary +began' "$SLATE" replay --profile profiles/pcsensor-footswitch.yaml "$recording"

finish
