#!/usr/bin/env bash
# Runs inside the rig VM: see run_live.py.
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/run_live.py"
