#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stands in for 'lanewise run' to test the case driver itself: prints two
# buffers and writes the findings a checked run would, as JSON lines, to
# LANEWISE_CHECK_JSON (one finding twice, as a library may report it for
# several work-items).
set -eu
echo "out = {1, 2, 3}"
echo "note: a line that is not a buffer"
echo "flags = {0, 1}"
cat > "$LANEWISE_CHECK_JSON" <<'JSON'
{"kind":"out-of-bounds","kernel":"k","line":12,"global_id":[4,1,0],"message":"write of 4 bytes in global memory, 0 bytes past the end of argument 0 'out' (16 bytes)"}
{"kind":"out-of-bounds","kernel":"k","line":12,"global_id":[5,1,0],"message":"write of 4 bytes in global memory, 4 bytes past the end of argument 0 'out' (16 bytes)"}

{"kind": "division-by-zero", "line": 20, "kernel": "k", "global_id": [7, 0, 0]}
JSON
