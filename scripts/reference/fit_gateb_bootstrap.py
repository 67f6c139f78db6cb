"""Reference numbers for Gate B (lib/gateb/compare.ts), computed independently.

Run once from the repository root:

    python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json

Builds a small bare/equipped test pair (6 tasks x 2 samples, a failed-then-
completed attempt in each arm, tokens and steps), and computes with numpy:
per-arm means of every metric over planned episodes, failure rate = failed
attempts / attempts, steps of the completed attempt, tokens per episode over
all attempts, and the paired task bootstrap (B = 300, seed 11): per draw, G
calls next_int(G) of the independent xoshiro128** in prng_xoshiro.py pick
tasks in manifest order; statistics are ratios of count-weighted task sums;
intervals are sorted draws at floor(q (B - 1)), q = 0.025, 0.975.
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from prng_xoshiro import Xoshiro128ss  # noqa: E402

COMPONENTS = ["r_strict", "r_success"]
TASKS = [f"t{i}" for i in range(6)]
REPEATS = 2
SELECTED = ["c1", "c2"]


def manifest(arm):
    return {
        "format": "gatelab.run/v1",
        "run_id": f"test-{arm}",
        "arm": arm,
        "split": "test",
        "repeats": REPEATS,
        "tasks": TASKS,
        "provenance": {
            "checkpoint_id": "ckpt-x",
            "model": "m",
            "endpoint": "http://e",
            "sampling": {"temperature": 0.7},
            "send_seed": False,
            "base_prompt_sha256": "ab",
            "environment": {"name": "env", "version": "1", "config_sha256": "cd"},
            "runtime": {"protocol": "p", "max_steps": 10},
            "reward": {"version": "v1", "components": COMPONENTS},
        },
        "skill": {"bank": "NoSkills", "selected_skills": [], "max_skills": None}
        if arm == "bare"
        else {"bank": "JsonSkillBank", "selected_skills": SELECTED, "max_skills": None},
    }


def traces(arm, rng, lift):
    out = []
    for t in TASKS:
        for s in range(REPEATS):
            attempt = 0
            if (arm == "bare" and (t, s) == ("t1", 0)) or (arm == "equipped" and (t, s) == ("t4", 1)):
                out.append({"split": "test", "task_id": t, "sample_id": s, "attempt": 0, "status": "failed",
                            "reward": None, "rewards": {}, "injected": [] if arm == "bare" else SELECTED,
                            "job_seed": None, "steps": 2, "tokens": {"prompt": 100, "completion": 10},
                            "error": "timeout"})
                attempt = 1
            r = float(np.round(np.clip(rng.uniform(0, 1) + lift, 0, 1), 3))
            succ = 1.0 if r > 0.7 else 0.0
            out.append({"split": "test", "task_id": t, "sample_id": s, "attempt": attempt,
                        "status": "completed", "reward": r, "rewards": {"r_strict": r, "r_success": succ},
                        "success": succ == 1.0, "injected": [] if arm == "bare" else SELECTED,
                        "job_seed": None, "steps": int(rng.integers(3, 12)),
                        "tokens": {"prompt": int(rng.integers(500, 900)), "completion": int(rng.integers(50, 90))},
                        "error": None})
    return out


def sums(tr, G):
    """Per task: sums for every quantity (num, den)."""
    idx = {t: i for i, t in enumerate(TASKS)}
    q = {}
    for m in ["reward"] + COMPONENTS:
        num, den = np.zeros(G), np.zeros(G)
        for a in tr:
            if a["status"] == "completed":
                v = a["reward"] if m == "reward" else a["rewards"][m]
                num[idx[a["task_id"]]] += v
                den[idx[a["task_id"]]] += 1
        q["metric:" + m] = (num, den)
    num, den = np.zeros(G), np.zeros(G)
    for a in tr:
        num[idx[a["task_id"]]] += a["status"] == "failed"
        den[idx[a["task_id"]]] += 1
    q["failure_rate"] = (num, den)
    num, den = np.zeros(G), np.zeros(G)
    for a in tr:
        if a["status"] == "completed":
            num[idx[a["task_id"]]] += a["steps"]
            den[idx[a["task_id"]]] += 1
    q["steps"] = (num, den)
    episodes = np.full(G, REPEATS, dtype=float)
    for name, f in [("tokens", lambda t: t["prompt"] + t["completion"]),
                    ("tokens_prompt", lambda t: t["prompt"]),
                    ("tokens_completion", lambda t: t["completion"])]:
        num = np.zeros(G)
        for a in tr:
            num[idx[a["task_id"]]] += f(a["tokens"])
        q[name] = (num, episodes)
    return q


def main():
    rng = np.random.default_rng(99)
    bare, eq = traces("bare", rng, 0.0), traces("equipped", rng, 0.2)
    G, B, seed = len(TASKS), 300, 11
    qb, qe = sums(bare, G), sums(eq, G)
    gen = Xoshiro128ss(seed)
    counts = np.zeros((B, G))
    for b in range(B):
        for _ in range(G):
            counts[b, gen.next_int(G)] += 1
    expected = {}
    for name in qb:
        (nb, db), (ne, de) = qb[name], qe[name]
        vb, ve = nb.sum() / db.sum(), ne.sum() / de.sum()
        drb, dre = counts @ nb / (counts @ db), counts @ ne / (counts @ de)
        lo, hi = int(np.floor(0.025 * (B - 1))), int(np.floor(0.975 * (B - 1)))
        ci = lambda x: [float(np.sort(x)[lo]), float(np.sort(x)[hi])]  # noqa: E731
        expected[name] = {"bare": float(vb), "equipped": float(ve), "difference": float(ve - vb),
                          "ci": ci(dre - drb), "bare_ci": ci(drb), "equipped_ci": ci(dre)}
    doc = {"generated_by": "python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json",
           "draws": B, "seed": seed,
           "bare": {"manifest": manifest("bare"), "traces": bare},
           "equipped": {"manifest": manifest("equipped"), "traces": eq},
           "expected": expected}
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
