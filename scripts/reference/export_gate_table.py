"""Export a gatelab gate (its bare run and masked run) to one flat table,
the way an evaluator that logs one row per rollout would: pandas only, no
gatelab code. Used by tests/import_roundtrip_test.ts to check that
`gate import table` brings the same gate back (same coefficients, standard
errors and selection).

    python3 scripts/reference/export_gate_table.py <gate_dir>... --out <dir>

Writes <dir>/table.csv, <dir>/table.parquet (pyarrow; `injected` as a
list column) and <dir>/mapping.json (the versions, budget, stage and the
constant provenance of the gates' manifests, for the mapping file). Rows:
the bare run's traces, then each gate's, in file order; one 0/1 column
`mask:<version_id>` per version (the planned mask of the episode, from
assignments.jsonl; all 0 for bare rows), `injected` as recorded.
"""
import json
import os
import sys

import pandas as pd


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv):
    out = argv[argv.index("--out") + 1]
    gates = [a for i, a in enumerate(argv) if a != "--out" and (i == 0 or argv[i - 1] != "--out")]
    os.makedirs(out, exist_ok=True)
    rows = []
    versions = {}
    bare_done = set()
    mapping = None
    for gate_dir in gates:
        gate = json.load(open(os.path.join(gate_dir, "gate.json"), encoding="utf-8"))
        bare_dir = os.path.normpath(os.path.join(gate_dir, gate["bare_run_dir"]))
        masked_manifest = json.load(open(os.path.join(gate_dir, "manifest.json"), encoding="utf-8"))
        for slot in gate["slots"]:
            for v in slot["versions"]:
                versions[v["version_id"]] = {"slot": slot["slot_id"], "chunk_id": v["chunk_id"], "role": v["role"]}
        prov = masked_manifest["provenance"]
        if mapping is None:
            mapping = {
                "format": "gatelab.import-map/v1",
                "budget_k": gate["budget_k"],
                "stage": gate["stage"],
                "mask_seed": gate["mask_seed"],
                "p_present": gate["p_present"],
                "provenance": {
                    "model": prov["model"],
                    "endpoint": prov["endpoint"],
                    "sampling": prov["sampling"],
                    "send_seed": prov["send_seed"],
                    "base_prompt_sha256": prov["base_prompt_sha256"],
                    "environment": prov["environment"],
                    "runtime": prov["runtime"],
                    "reward_version": prov["reward"]["version"],
                },
            }
        assignments = {
            (a["split"], a["task_id"], a["sample_id"]): a["slots"] for a in read_jsonl(os.path.join(gate_dir, "assignments.jsonl"))
        }
        runs = []
        if bare_dir not in bare_done:
            bare_done.add(bare_dir)
            runs.append(("bare", bare_dir, None))
        runs.append(("masked", gate_dir, gate["gate_id"]))
        for arm, run_dir, round_id in runs:
            manifest = json.load(open(os.path.join(run_dir, "manifest.json"), encoding="utf-8"))
            for t in read_jsonl(os.path.join(run_dir, "traces.jsonl")):
                row = {
                    "checkpoint_id": manifest["provenance"]["checkpoint_id"],
                    "round": round_id,
                    "arm": arm,
                    "split": t["split"],
                    "task_id": t["task_id"],
                    "sample_id": t["sample_id"],
                    "attempt": t["attempt"],
                    "status": t["status"],
                    "reward": t.get("reward"),
                }
                for name, value in (t.get("rewards") or {}).items():
                    row[name] = value
                slots = assignments.get((t["split"], t["task_id"], t["sample_id"]), {}) if arm == "masked" else {}
                for vid in versions:
                    row["mask:" + vid] = 1 if vid in slots.values() else 0
                row["injected"] = t.get("injected") or []
                row["job_seed"] = t.get("job_seed")
                row["success"] = t.get("success")
                row["steps"] = t.get("steps")
                row["error"] = t.get("error")
                rows.append(row)
    # A mapping constant holds for every gate: keep a gate field only when all gates share it.
    for field in ("mask_seed", "p_present", "budget_k", "stage"):
        values = {json.load(open(os.path.join(g, "gate.json"), encoding="utf-8"))[field] for g in gates}
        if len(values) > 1:
            del mapping[field]
    mapping["versions"] = versions
    df = pd.DataFrame(rows)
    # Mask columns of versions met only in later gates are 0 for earlier rows.
    for vid in versions:
        df["mask:" + vid] = df["mask:" + vid].fillna(0).astype("int64")
    df["job_seed"] = df["job_seed"].astype("Int64")
    df["steps"] = df["steps"].astype("Int64")
    df["success"] = df["success"].astype("boolean")
    csv = df.copy()
    csv["injected"] = csv["injected"].map(json.dumps)
    csv.to_csv(os.path.join(out, "table.csv"), index=False)
    df.to_parquet(os.path.join(out, "table.parquet"), index=False)
    with open(os.path.join(out, "mapping.json"), "w", encoding="utf-8") as f:
        json.dump(mapping, f, indent=2)
    print(f"{len(df)} rows, {len(versions)} versions -> {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
    # pyarrow's thread pools can abort the interpreter as it exits, after the work is done
    # ("terminate called without an active exception", apache/arrow issue 34314): leave
    # without the teardown.
    sys.stdout.flush()
    os._exit(0)
