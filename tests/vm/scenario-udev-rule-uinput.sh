#!/usr/bin/env bash
# Runs inside the rig VM: see udev_rule_uinput.py.
set -euo pipefail
exec python3 "$(dirname "$0")/udev_rule_uinput.py"
