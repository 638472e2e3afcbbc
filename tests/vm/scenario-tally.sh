#!/usr/bin/env bash
# Runs inside the rig VM: see tally.py.
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/tally.py"
