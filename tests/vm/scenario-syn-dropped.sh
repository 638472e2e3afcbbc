#!/usr/bin/env bash
# Runs inside the rig VM: see syn_dropped.py.
set -euo pipefail
exec python3 "$(dirname "$0")/syn_dropped.py"
