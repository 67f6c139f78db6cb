"""Reference numbers for `gate ladder` (e-process ladder gates).

Independent of gatelab. (1) The accept and reject e-values on a grid of win and
loss counts from scipy.special:
    E_accept = 2^(W+L) exp(betaln(W+1/2, L+1/2)) betaincc(W+1/2, L+1/2, 1/2) / (pi/2)
    E_reject = 2^(W+L) exp(betaln(W+1/2, L+1/2)) betainc(W+1/2, L+1/2, 1/2) / (pi/2)
(B(1/2, 1/2) = pi). (2) The demo's three ladder gates re-decided from
data/demo/ladder/<task_type>/{ladder.json,units.jsonl}: units paired by
(block, unit_id); an AR pair folds by AND; INFRA when any member stopped with
error or parse_error or has correct null; cumulative W/L/E/INFRA after each
block; exits infra_abort, accept, reject, budget_exhausted in that order;
and the baseline prefill (key task_type|skill sha256|prompts_version|unit_id,
INFRA baseline units left out) over the base-arm units up to the exit block.
Writes tests/data/ladder_reference.json.

Run from the repository root:
    python3 scripts/reference/ladder_eprocess.py
"""
import json
import math
from pathlib import Path

from scipy.special import betainc, betaincc, betaln

DEMO = Path("data/demo/ladder")
GRID = [(w, l) for w in (0, 1, 2, 3, 5, 8, 13, 21, 40, 80, 150) for l in (0, 1, 2, 4, 7, 12, 30, 60, 140)]


def e_values(w, l):
    a, b = w + 0.5, l + 0.5
    scale = math.exp((w + l) * math.log(2) + betaln(a, b)) / (math.pi / 2)
    return scale * betaincc(a, b, 0.5), scale * betainc(a, b, 0.5)


def fold(members):
    if any(m["stop_reason"] in ("error", "parse_error") or m["correct"] is None for m in members):
        return "INFRA"
    return all(m["correct"] for m in members)


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def ladder(task_type, baseline):
    spec = json.loads((DEMO / task_type / "ladder.json").read_text())
    units = read_jsonl(DEMO / task_type / "units.jsonl")
    arms = {}
    for u in units:
        arms.setdefault((u["block"], u["unit_id"]), {})[u["arm"]] = fold(u["members"])
    counts = {"W": 0, "L": 0, "E": 0, "INFRA": 0}
    blocks, exit_, exit_block = [], None, None
    for block in sorted({b for b, _ in arms}):
        for (b, _), v in sorted(arms.items()):
            if b != block:
                continue
            base, cand = v["base"], v["cand"]
            key = "INFRA" if "INFRA" in (base, cand) else "E" if base == cand else "W" if cand else "L"
            counts[key] += 1
        n = sum(counts.values())
        ea, er = e_values(counts["W"], counts["L"])
        blocks.append({"block": block, **counts, "units": n, "e_accept": ea, "e_reject": er})
        if counts["INFRA"] / n > spec["infra_max_rate"]:
            exit_ = "infra_abort"
        elif ea >= 1 / spec["alpha"]:
            exit_ = "accept"
        elif er >= 1 / spec["alpha"]:
            exit_ = "reject"
        elif n >= spec["n_max"]:
            exit_ = "budget_exhausted"
        if exit_:
            exit_block = block
            break
    cache = {
        f'{b["task_type"]}|{b["skill_sha256"]}|{b["prompts_version"]}|{b["unit_id"]}'
        for b in baseline
        if fold(b["members"]) != "INFRA"
    }
    base_units = [u for u in units if u["arm"] == "base" and u["block"] <= exit_block]
    served = [
        u for u in base_units
        if f'{spec["task_type"]}|{spec["base_skill_sha256"]}|{spec["prompts_version"]}|{u["unit_id"]}' in cache
    ]
    return {
        "exit": exit_,
        "exit_block": exit_block,
        "blocks": blocks,
        "prefill": {"base_units": len(base_units), "served": len(served), "saved": sum(len(u["members"]) for u in served)},
    }


def rounded(value):
    """12 significant digits (the tests allow 1e-9), so that another BLAS or libm
    does not change the committed bytes when regenerate.sh re-runs this script."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def main():
    baseline = read_jsonl(DEMO / "baseline.jsonl")
    out = {
        "grid": [{"W": w, "L": l, "e_accept": a, "e_reject": r} for w, l in GRID for a, r in [e_values(w, l)]],
        "demo": {t: ladder(t, baseline) for t in ("counting", "temporal-order", "spatial-relation")},
    }
    target = Path("tests/data/ladder_reference.json")
    target.write_text(json.dumps(rounded(out), indent=1) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
