#!/usr/bin/env bash
# Re-runs every reference script whose output a test reads, writing JSON
# under tests/data/ (and the reward fixture under tests/snapshots/). .ci/run
# runs this on a clean clone and fails when any of these files changes (git
# status), so committed reference numbers always come from the committed
# scripts. Needs python3 with numpy, scipy and statsmodels, and cc.
#
# Scripts not listed here (infer_*, study_*) still print numbers that their
# tests quote inline; each test names its script.
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=tests/data/reference
mkdir -p "$ref"
python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json
python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json
python3 scripts/reference/prng_xoshiro.py > /dev/null
python3 scripts/reference/validate_demo_pairing.py > "$ref/validate_demo_pairing.json"
python3 scripts/reference/demo_check.py data/demo reward --json > "$ref/demo_check.json"
python3 scripts/reference/demo_interaction.py data/demo --json > "$ref/demo_interaction.json"
python3 scripts/reference/reward_recipes.py > /dev/null
echo "reference JSON regenerated under tests/data/ and tests/snapshots/reward_fixture/"
