#!/usr/bin/env bash
# Runs inside the rig VM: see debounce.py.
set -euo pipefail
exec python3 "$(dirname "$0")/debounce.py"
