"""Write a gatelab gate (its bare run and masked run) as inspect_ai logs, in
the layout inspect_ai uses (its own test logs, tests/log/test_eval_log/ of
the public project): a `.eval` zip holding `header.json`,
`samples/<id>_epoch_<n>.json` and `summaries.json`, and a `.json` log that
is one document with `version`, `status`, `eval`, `plan`, `results`,
`stats` and `samples`. Standard library only, no gatelab code. Used by
tests/import_inspect_test.ts: `gate import inspect` of these logs must give
the gate's own analysis.

    python3 scripts/reference/write_inspect_logs.py <gate_dir> --out <dir>

Writes <dir>/bare.eval, <dir>/bare.json, <dir>/<gate_id>.eval,
<dir>/<gate_id>.json and <dir>/mapping.json. Each completed attempt is one
sample (`id` = task id, `epoch` = sample id + 1) with one dict-valued score
`webshop` holding every reward component by its name without `r_`
(strict, success, ...), and `metadata.injected` the versions in the prompt.
A failed attempt followed by a completed one is not a sample (inspect_ai
keeps the final attempt). The header records model, base URL, generate
config, task, task version, dataset with its sample ids, revision and
packages.
"""
import json
import os
import sys
import zipfile


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def header(manifest, n_samples):
    prov = manifest["provenance"]
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "eval_id": "ev-" + manifest["run_id"],
            "run_id": "run-" + manifest["run_id"],
            "created": "2026-09-01T10:00:00+00:00",
            "task": prov["environment"]["name"],
            "task_id": "task-webshop",
            "task_version": 2,
            "task_file": "tasks/webshop.py",
            "task_attribs": {},
            "task_args": {"max_steps": prov["runtime"]["max_steps"]},
            "dataset": {
                "name": "webshop-val",
                "location": "data/webshop/val.jsonl",
                "samples": n_samples,
                "sample_ids": manifest["tasks"],
                "shuffled": False,
            },
            "model": prov["model"],
            "model_generate_config": dict(prov["sampling"]),
            "model_base_url": prov["endpoint"],
            "model_args": {},
            "config": {"epochs": manifest["repeats"], "fail_on_error": False},
            "revision": {"type": "git", "origin": "https://example.org/evals.git", "commit": "2c576e2"},
            "packages": {"inspect_ai": "0.3.95"},
            "scorers": [{"name": "webshop", "options": {}, "metrics": [], "metadata": {}}],
        },
        "plan": {"name": "plan", "steps": [{"solver": "react", "params": {}}], "config": {}},
        "results": {"total_samples": n_samples, "completed_samples": n_samples, "scores": []},
        "stats": {"started_at": "2026-09-01T10:00:00+00:00", "completed_at": "2026-09-01T11:00:00+00:00"},
    }


def samples_of(run_dir):
    completed = [t for t in read_jsonl(os.path.join(run_dir, "traces.jsonl")) if t["status"] == "completed"]
    out = []
    for t in completed:
        value = {name[2:]: v for name, v in t["rewards"].items()}
        out.append({
            "id": t["task_id"],
            "epoch": t["sample_id"] + 1,
            "input": "task " + t["task_id"],
            "target": "",
            "messages": [],
            "scores": {"webshop": {"value": value, "answer": None, "explanation": None}},
            "metadata": {"injected": t["injected"]},
            "store": {},
            "events": [],
            "uuid": "u-" + t["task_id"] + "-" + str(t["sample_id"]),
        })
    return out


def write(out, name, manifest, samples):
    head = header(manifest, len(samples))
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump({**head, "samples": samples}, f, indent=2)
    with zipfile.ZipFile(os.path.join(out, name + ".eval"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_journal/start.json", json.dumps({"version": 2, "eval": head["eval"], "plan": head["plan"]}))
        for s in samples:
            z.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
        z.writestr("summaries.json", json.dumps([{"id": s["id"], "epoch": s["epoch"], "scores": s["scores"]} for s in samples]))
        z.writestr("header.json", json.dumps(head))


def main(argv):
    out = argv[argv.index("--out") + 1]
    gate_dir = argv[0]
    os.makedirs(out, exist_ok=True)
    gate = json.load(open(os.path.join(gate_dir, "gate.json"), encoding="utf-8"))
    bare_dir = os.path.normpath(os.path.join(gate_dir, gate["bare_run_dir"]))
    for name, run_dir in (("bare", bare_dir), (gate["gate_id"], gate_dir)):
        manifest = json.load(open(os.path.join(run_dir, "manifest.json"), encoding="utf-8"))
        write(out, name, manifest, samples_of(run_dir))
    versions = {}
    for slot in gate["slots"]:
        for v in slot["versions"]:
            versions[v["version_id"]] = {"slot": slot["slot_id"], "chunk_id": v["chunk_id"], "role": v["role"]}
    mapping = {
        "format": "gatelab.import-map/v1",
        "budget_k": gate["budget_k"],
        "stage": gate["stage"],
        "versions": versions,
        "inspect": {"reward": "scores.webshop.value.strict"},
    }
    with open(os.path.join(out, "mapping.json"), "w", encoding="utf-8") as f:
        json.dump(mapping, f, indent=2)
    print(f"wrote inspect_ai logs of {gate['gate_id']} to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
