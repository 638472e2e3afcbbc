#!/usr/bin/env bash
# Runs inside the rig VM: see run_knob.py.
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/run_knob.py"
