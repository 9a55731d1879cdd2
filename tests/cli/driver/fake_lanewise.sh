#!/usr/bin/env bash
# Stands in for 'lanewise run' to test the case driver itself: prints two
# buffers and writes the findings a checked run would, as JSON lines, to
# LANEWISE_CHECK_JSON (one finding twice, as a library may report it for
# several work-items).
set -eu
echo "out = {1, 2, 3}"
echo "note: a line that is not a buffer"
echo "flags = {0, 1}"
cat > "$LANEWISE_CHECK_JSON" <<'JSON'
{"kind": "bounds", "line": 12, "kernel": "k", "message": "write of 4 bytes at offset 16 of a 16-byte buffer"}
{"kind": "bounds", "line": 12, "kernel": "k", "message": "write of 4 bytes at offset 20 of a 16-byte buffer"}

{"kind": "races", "line": 20, "kernel": "k"}
JSON
