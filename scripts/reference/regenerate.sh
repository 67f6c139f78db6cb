#!/usr/bin/env bash
# Re-runs every reference script whose output a test reads, writing the
# JSON files under tests/data/. .ci/run runs this on a clean clone and fails
# when any of them changes (git status), so committed reference numbers
# always come from the committed scripts. Needs python3 with numpy, scipy
# and statsmodels, and cc.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p tests/data/reference
python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json
python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json
python3 scripts/reference/prng_xoshiro.py >/dev/null
echo "reference JSON regenerated under tests/data/"
