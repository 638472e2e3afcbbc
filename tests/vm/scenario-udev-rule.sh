#!/usr/bin/env bash
# udev/70-slate.rules (installed by the VM's init) tags the shipped devices
# with uaccess and SLATE_DEVICE=1, and leaves other devices alone.
# shellcheck source=tests/vm/lib.sh
. tests/vm/lib.sh

check "udev/70-slate.rules is installed" cmp -s udev/70-slate.rules /etc/udev/rules.d/70-slate.rules

echo "PCsensor FootSwitch (uinput, 3553:b001)"
create_device "$VM_DATA/footswitch.evemu"
check "$DEVICE is tagged uaccess" has_tag "$DEVICE" uaccess
check "$DEVICE has SLATE_DEVICE=1" has_property "$DEVICE" SLATE_DEVICE 1

echo "Foo (AVRCP) (uinput, Bluetooth)"
create_device "$VM_DATA/headset-avrcp.evemu"
check "$DEVICE is tagged uaccess" has_tag "$DEVICE" uaccess
check "$DEVICE has SLATE_DEVICE=1" has_property "$DEVICE" SLATE_DEVICE 1

echo "Slate Test Keys (uinput, 1209:0001, not a Slate device)"
create_device "$VM_DATA/test-keys.evemu"
check "$DEVICE is not tagged uaccess" lacks_tag "$DEVICE" uaccess
check "$DEVICE has no SLATE_DEVICE" lacks_property "$DEVICE" SLATE_DEVICE

echo "uinput"
check "/dev/uinput is tagged uaccess" has_tag /dev/uinput uaccess

finish
