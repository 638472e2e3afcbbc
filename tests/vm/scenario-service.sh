#!/usr/bin/env bash
# Runs inside the rig VM: see service.py.
# rig-vm-timeout: 300
set -euo pipefail
exec python3 "$(dirname "$0")/service.py"
