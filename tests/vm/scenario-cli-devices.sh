#!/usr/bin/env bash
# Runs inside the rig VM: see cli_devices.py.
set -euo pipefail
exec python3 "$(dirname "$0")/cli_devices.py"
