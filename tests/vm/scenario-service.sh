#!/usr/bin/env bash
# Runs inside the rig VM: see service.py.
set -euo pipefail
exec python3 "$(dirname "$0")/service.py"
