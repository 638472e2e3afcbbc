#!/usr/bin/env bash
# Runs inside the rig VM: see udev_rule.py.
set -euo pipefail
exec python3 "$(dirname "$0")/udev_rule.py"
