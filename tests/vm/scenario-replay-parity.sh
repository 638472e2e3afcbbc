#!/usr/bin/env bash
# Runs inside the rig VM: see replay_parity.py.
# rig-vm-measures: time
set -euo pipefail
exec python3 "$(dirname "$0")/replay_parity.py"
