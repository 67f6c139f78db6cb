"""Independent generator of large gates for `deno task bench --scale`.

Writes, per the data contract (docs/FORMAT.md), one bare run and one or more
gates on it with N tasks and M single-version columns (a cold-start gate:
every slot an ADD candidate), or an online gate with current chunks, ADD
candidates and REWRITE families. Rewards follow a linear model with known
effects plus noise, rounded to 4 decimals. Written by Python only, so the
bench never analyses data that gatelab itself produced.

Usage: python3 bench/gen_scale.py <out_dir> --tasks N --columns M
       [--rounds R] [--online] [--seed S]

With --rounds R > 1 the R gates (round-1 ... round-R) share the one bare run
(pooled rounds: R x N paired rows over N tasks).
"""
import argparse
import json
import os

import numpy as np

COMPONENTS = ["r_strict", "r_success", "r_type", "r_attr", "r_option", "r_price"]


def provenance():
    return {
        "checkpoint_id": "bench-model@rev-0",
        "model": "bench-model",
        "endpoint": "http://localhost:8000/v1",
        "sampling": {"temperature": 0.7, "top_p": 0.95, "max_tokens": 1024},
        "send_seed": True,
        "base_prompt_sha256": "0" * 64,
        "environment": {"name": "bench-env", "version": "1.0", "config_sha256": "1" * 64},
        "runtime": {"protocol": "react-text-v2", "max_steps": 15},
        "reward": {"version": "bench-reward-1", "components": COMPONENTS},
    }


def slots_of(m, online):
    """Slot list of the gate: [(slot_id, [(version_id, role)])]."""
    if not online:
        return [(f"chunk-{j:03d}", [(f"chunk-{j:03d}.v1", "add")]) for j in range(m)]
    slots = []
    cols = 0
    f = 0
    while cols + 2 <= m // 3:  # a third of the columns in REWRITE families old + new
        slots.append((f"family-{f:02d}", [(f"family-{f:02d}.v1", "old"), (f"family-{f:02d}.v2", "new")]))
        cols += 2
        f += 1
    c = 0
    while cols < m // 2:
        slots.append((f"current-{c:02d}", [(f"current-{c:02d}.v1", "current")]))
        cols += 1
        c += 1
    a = 0
    while cols < m:
        slots.append((f"add-{a:02d}", [(f"add-{a:02d}.v1", "add")]))
        cols += 1
        a += 1
    return slots


def write_lines(path, lines):
    with open(path, "w") as f:
        for i in range(0, len(lines), 10000):
            f.write("\n".join(lines[i:i + 10000]))
            f.write("\n")


def rewards(rng, base, n):
    r = np.clip(base[:, None] + rng.normal(0, 0.25, (n, 5)), 0, 1)
    r = np.round(r, 4)
    strict = np.round(r[:, 1:].mean(axis=1), 4)
    return strict, r


def trace_lines(task_ids, strict, comps, injected, seeds):
    out = []
    for i, t in enumerate(task_ids):
        rw = {"r_strict": float(strict[i]), "r_success": float(comps[i, 0]),
              "r_type": float(comps[i, 1]), "r_attr": float(comps[i, 2]),
              "r_option": float(comps[i, 3]), "r_price": float(comps[i, 4])}
        out.append(json.dumps({
            "split": "val", "task_id": t, "sample_id": 0, "attempt": 0, "status": "completed",
            "reward": float(strict[i]), "rewards": rw, "success": bool(comps[i, 0] > 0.5),
            "injected": injected[i], "job_seed": int(seeds[i]), "steps": 7,
            "tokens": {"prompt": 5000, "completion": 500}, "error": None,
        }, separators=(",", ":")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--tasks", type=int, required=True)
    ap.add_argument("--columns", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--online", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    n, m = args.tasks, args.columns
    task_ids = [f"t-{i:07d}" for i in range(n)]
    seeds = rng.integers(0, 2**31 - 1, n)
    base = rng.uniform(0.2, 0.8, n)
    os.makedirs(os.path.join(args.out_dir, "bare"), exist_ok=True)
    man = {"format": "gatelab.run/v1", "run_id": "bare", "arm": "bare", "split": "val",
           "repeats": 1, "tasks": task_ids, "provenance": provenance(),
           "skill": {"bank": "NoSkills", "selected_skills": [], "max_skills": None}}
    with open(os.path.join(args.out_dir, "bare", "manifest.json"), "w") as f:
        json.dump(man, f)
    strict, comps = rewards(rng, base, n)
    write_lines(os.path.join(args.out_dir, "bare", "traces.jsonl"),
                trace_lines(task_ids, strict, comps, [[]] * n, seeds))
    slots = slots_of(m, args.online)
    versions = [v for _, vs in slots for v, _ in vs]
    effect = rng.normal(0, 0.05, len(versions))
    for r in range(args.rounds):
        gid = "gate" if args.rounds == 1 else f"round-{r + 1:02d}"
        gdir = os.path.join(args.out_dir, gid)
        os.makedirs(gdir, exist_ok=True)
        gate = {"format": "gatelab.gate/v1", "gate_id": gid,
                "stage": "online" if args.online else "cold_start", "bare_run_dir": "../bare",
                "estimator": "paired_delta_ols_no_intercept", "mask_seed": args.seed * 1000 + r,
                "p_present": 0.5, "budget_k": max(1, m // 2),
                "slots": [{"slot_id": s, "versions": [
                    {"version_id": v, "chunk_id": s, "role": role} for v, role in vs]}
                    for s, vs in slots]}
        with open(os.path.join(gdir, "gate.json"), "w") as f:
            json.dump(gate, f, indent=2)
        gman = dict(man, run_id=f"{gid}-masked", arm="masked",
                    skill={"bank": "JsonSkillBank", "selected_skills": versions, "max_skills": None})
        with open(os.path.join(gdir, "manifest.json"), "w") as f:
            json.dump(gman, f)
        # Each slot present with probability 0.5; a present family picks one version uniformly.
        present = rng.random((n, len(slots))) < 0.5
        pick = [rng.integers(0, len(vs), n) for _, vs in slots]
        col = {v: j for j, v in enumerate(versions)}
        assign, injected = [], []
        shift = np.zeros(n)
        for i in range(n):
            chosen = {}
            inj = []
            for s_i, (s, vs) in enumerate(slots):
                if present[i, s_i]:
                    v = vs[pick[s_i][i]][0]
                    chosen[s] = v
                    inj.append(v)
                    shift[i] += effect[col[v]]
                else:
                    chosen[s] = None
            assign.append(json.dumps({"split": "val", "task_id": task_ids[i], "sample_id": 0,
                                      "slots": chosen}, separators=(",", ":")))
            injected.append(inj)
        write_lines(os.path.join(gdir, "assignments.jsonl"), assign)
        strict, comps = rewards(rng, base + shift, n)
        write_lines(os.path.join(gdir, "traces.jsonl"),
                    trace_lines(task_ids, strict, comps, injected, seeds))


if __name__ == "__main__":
    main()
