#!/usr/bin/env bash
# Re-runs every reference script whose output a test reads, writing JSON
# under tests/data/ (and the reward fixture under tests/snapshots/). .ci/run
# runs this on a clean clone and fails when any of these files changes (git
# status), so committed reference numbers always come from the committed
# scripts. Needs python3 with numpy, scipy and statsmodels, and cc.
#
# Not listed: study_demo_check.py (a printed check no test reads); each test
# names its script.
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=tests/data/reference
mkdir -p "$ref"
python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json
python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json
python3 scripts/reference/history_wls.py > /dev/null
python3 scripts/reference/prng_xoshiro.py > /dev/null
python3 scripts/reference/validate_demo_pairing.py > "$ref/validate_demo_pairing.json"
python3 scripts/reference/demo_check.py data/demo reward --json > "$ref/demo_check.json"
python3 scripts/reference/demo_interaction.py data/demo --json > "$ref/demo_interaction.json"
python3 scripts/reference/demo_expected.py > "$ref/demo_expected.json"
python3 scripts/reference/reward_recipes.py > /dev/null
python3 scripts/reference/infer_bootstrap.py > "$ref/infer_bootstrap.json"
python3 scripts/reference/infer_diagnostics.py > "$ref/infer_diagnostics.json"
python3 scripts/reference/infer_heldout.py > "$ref/infer_heldout.json"
python3 scripts/reference/infer_power.py > "$ref/infer_power.json"
python3 scripts/reference/infer_leverage_one.py > "$ref/infer_leverage_one.json"
python3 scripts/reference/amce_cluster.py > "$ref/amce_cluster.json"
python3 scripts/reference/pool_checkpoints_wald.py > "$ref/pool_checkpoints_wald.json"
python3 scripts/reference/estimability_lone.py > "$ref/estimability_lone.json"
python3 scripts/reference/study_bounds.py > "$ref/study_bounds.json"
python3 scripts/reference/study_bootstrap.py > "$ref/study_bootstrap.json"
python3 scripts/reference/sequential_avlm.py > /dev/null
python3 scripts/reference/ladder_eprocess.py > /dev/null
echo "reference JSON regenerated under tests/data/ and tests/snapshots/reward_fixture/"
