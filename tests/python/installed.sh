#!/usr/bin/env bash
# The tessel package as scripts/setup.sh pip-installs it: imported from the
# virtual environment's site-packages (not from the build tree), it builds
# a model and traces it to MLIR. Exit 77 (skip) when there is no venv yet.
set -euo pipefail
if [ ! -x "$1/bin/python" ]; then
  echo "SKIP: no virtual environment at $1 (scripts/setup.sh makes it)"
  exit 77
fi
venv=$(cd "$1" && pwd)
# pip copied the bindings: after a rebuild without scripts/setup.sh the copy
# is older than the library it loads.
installed=$(ls "$venv"/lib/python3*/site-packages/tessel/_tessel*.so 2> /dev/null | head -1)
built=$(ls "$venv"/../python/tessel/_tessel*.so 2> /dev/null | head -1)
if [ -z "$installed" ] || ! cmp -s "$installed" "$built"; then
  echo "SKIP: the package in $venv is not this build's (scripts/setup.sh reinstalls it)"
  exit 77
fi
cd "$(mktemp -d)"
"$venv/bin/python" - <<'PY'
import tessel, sys
assert "site-packages" in tessel.__file__, tessel.__file__
batch, k = tessel.Dim("batch", 4), tessel.Dim("k", 3)
model = tessel.Model()
model.define("forward", [tessel.Input("x", [batch, k])],
             lambda x: tessel.reduce_mean(tessel.Linear("fc", [tessel.Dim("n", 2)], "k")(x)))
text = str(model)
assert 'tessel.scope = "fc"' in text, text
print("tessel from", tessel.__file__, "builds a model")
PY
