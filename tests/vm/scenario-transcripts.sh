#!/usr/bin/env bash
# Runs inside the rig VM: see transcripts_live.py.
# rig-vm-measures: time
# rig-vm-timeout: 400
set -euo pipefail
exec python3 "$(dirname "$0")/transcripts_live.py"
