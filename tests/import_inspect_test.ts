/**
 * `gate import inspect` on inspect_ai logs written in inspect_ai's layout by
 * an independent script (scripts/reference/write_inspect_logs.py, standard
 * library only): the demo's Gate A as a bare and a masked log, each as a
 * `.eval` zip (header.json, samples/<id>_epoch_<n>.json, summaries.json)
 * and as a `.json` document. Imported and analysed through the real CLI,
 * both give the demo gate's own analysis exactly (coefficients, standard
 * errors, metric summaries, selection). Provenance comes from the headers
 * (a masked log served by another model is a provenance_mismatch), an
 * errored sample is refused as validation would refuse it (no attempt of it
 * completed), the errors inspect_ai retried are failed attempts, and a
 * truncated .eval is refused.
 *
 * Needs `deno` and `python3`.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkedImport, exists, gate, ROOT, tempDir } from "./import_gate.ts";
import { ignoreWithout } from "./ci_tools.ts";

const DEMO_GATE = join(ROOT, "data", "demo", "ckpt-a", "gate-a");

async function writeLogs(dir: string): Promise<void> {
  const out = await new Deno.Command("python3", {
    args: [join(ROOT, "scripts/reference/write_inspect_logs.py"), DEMO_GATE, "--out", dir],
    stdout: "piped",
    stderr: "piped",
  }).output();
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

async function numbers(dir: string) {
  const c = JSON.parse(await Deno.readTextFile(join(dir, "contributions.json")));
  const s = JSON.parse(await Deno.readTextFile(join(dir, "selection.json")));
  return { metrics: c.metrics, n_pairs: c.n_pairs, columns: c.columns, decisions: s.decisions };
}

Deno.test({
  name: "import inspect: .eval and .json logs of demo Gate A give the demo's own analysis, exactly",
  ignore: ignoreWithout("python3", "import inspect"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    await writeLogs(t);
    const original = await gate(t, ["analyze", DEMO_GATE, "--out", "original", "--bootstrap", "0"]);
    equal(original.code, 0, original.stderr);
    const want = await numbers(join(t, "original"));
    for (const ext of ["eval", "json"]) {
      const out = `imp-${ext}`;
      const args = ["import", "inspect", "--bare", `bare.${ext}`, "--masked", `gate-a.${ext}`];
      const imported = await gate(t, [...args, "--map", "mapping.json", "--out", out]);
      equal(imported.code, 0, imported.stderr);
      const doc = checkedImport(
        JSON.parse(await Deno.readTextFile(join(t, out, "import.json"))),
      );
      equal(doc.kind, "inspect");
      deepEqual(doc.unrecorded.map((u: { field: string }) => u.field), [
        "provenance.checkpoint_id",
        "provenance.base_prompt_sha256",
        "provenance.runtime",
        "mask_seed",
        "p_present",
        "assignments",
      ]);
      const gateDir = join(out, doc.gates[0].dir);
      const manifest = JSON.parse(await Deno.readTextFile(join(t, gateDir, "manifest.json")));
      // From the header: model, base URL, generate config, task and version, revision, packages.
      deepEqual(
        [manifest.provenance.model, manifest.provenance.endpoint, manifest.provenance.sampling],
        ["qwen3.5-4b-instruct", "http://inference.internal:8000/v1", {
          temperature: 0.7,
          top_p: 0.95,
          max_tokens: 1024,
        }],
      );
      deepEqual(
        [manifest.provenance.environment.name, manifest.provenance.environment.version],
        ["shopsim-webshop", "2"],
      );
      deepEqual(manifest.provenance.environment.packages, { inspect_ai: "0.3.95" });
      equal(manifest.provenance.send_seed, false); // no seed in the generate config
      deepEqual(manifest.provenance.reward.components, [
        "r_strict",
        "r_success",
        "r_type",
        "r_attr",
        "r_option",
        "r_price",
      ]);
      const analysed = await gate(t, [
        "analyze",
        gateDir,
        "--out",
        `${out}-an`,
        "--bootstrap",
        "0",
      ]);
      equal(analysed.code, 0, analysed.stderr);
      match(analysed.stdout, /^unverifiable: 6 check\(s\) not made/m);
      deepEqual(await numbers(join(t, `${out}-an`)), want, ext);
    }
  },
});

Deno.test({
  name:
    "import inspect: header provenance is checked, an errored sample is refused, retried errors are failed attempts, a truncated .eval is refused",
  ignore: ignoreWithout("python3", "import inspect provenance"),
  fn: async () => {
    await using dir = await tempDir();
    const t = dir.path;
    await writeLogs(t);
    // The masked log served by another model.
    const masked = JSON.parse(await Deno.readTextFile(join(t, "gate-a.json")));
    masked.eval.model = "another-model";
    await Deno.writeTextFile(join(t, "other.json"), JSON.stringify(masked));
    // A bare sample that ended in an error: no attempt of it completed, as validation would say.
    const bare = JSON.parse(await Deno.readTextFile(join(t, "bare.json")));
    bare.samples[3].error = { message: "sandbox timeout", traceback: "", traceback_ansi: "" };
    await Deno.writeTextFile(join(t, "bare-error.json"), JSON.stringify(bare));
    // The import validates the gates it would write (lib/import/verify.ts): both problems refuse
    // it with validation's lines, and nothing is written. The errored sample is a failed attempt,
    // so its episode has no completed bare attempt.
    const args = ["import", "inspect", "--bare", "bare-error.json", "--masked", "other.json"];
    const errored = await gate(t, [...args, "--map", "mapping.json", "--out", "imp"]);
    equal(errored.code, 2, errored.stderr);
    match(
      errored.stderr,
      /^coverage_incomplete {2}bare-error\.json:4 error {2}sample ws-val-0003 epoch 1 ended in an error \("sandbox timeout"\) and no attempt of it completed/,
    );
    ok(!exists(join(t, "imp")));
    // Retried: the errors before the completed attempt are failed attempts.
    delete bare.samples[3].error;
    bare.samples[3].error_retries = [{
      message: "sandbox timeout",
      traceback: "",
      traceback_ansi: "",
    }];
    await Deno.writeTextFile(join(t, "bare-retried.json"), JSON.stringify(bare));
    const retried = ["import", "inspect", "--bare", "bare-retried.json", "--masked", "gate-a.json"];
    const imported = await gate(t, [...retried, "--map", "mapping.json", "--out", "imp"]);
    equal(imported.code, 0, imported.stderr);
    const doc = checkedImport(
      JSON.parse(await Deno.readTextFile(join(t, "imp", "import.json"))),
    );
    const bareTraces = (await Deno.readTextFile(join(t, "imp", doc.runs[0].dir, "traces.jsonl")))
      .trim().split("\n").map((l) => JSON.parse(l));
    const failed = bareTraces.filter((l) => l.status === "failed");
    deepEqual(
      failed.map((l) => [l.task_id, l.attempt, l.reward, l.error]),
      [["ws-val-0003", 0, null, "sandbox timeout"]],
    );
    // The import validated what it wrote: the failed attempt does not leave the episode uncovered.
    const validated = await gate(t, ["validate", join("imp", doc.gates[0].dir), "--out", "v"]);
    equal(validated.code, 0, validated.stdout);
    // Another model's masked log: refused with validation's line, nothing written.
    const otherArgs = ["import", "inspect", "--bare", "bare.json", "--masked", "other.json"];
    const other = await gate(t, [...otherArgs, "--map", "mapping.json", "--out", "imp2"]);
    equal(other.code, 2, other.stderr);
    ok(
      other.stderr.split("\n").some((l) =>
        /^provenance_mismatch .*manifest\.json provenance\.model {2}provenance\.model differs: bare "qwen3\.5-4b-instruct", masked "another-model"$/
          .test(l)
      ),
      other.stderr,
    );
    ok(!exists(join(t, "imp2")));

    // Several masked logs after one --masked: one gate (round) each, named after the file (a second
    // round of the same model: another run of the masked log).
    const round = JSON.parse(await Deno.readTextFile(join(t, "gate-a.json")));
    round.eval.run_id = `${round.eval.run_id}-again`;
    await Deno.writeTextFile(join(t, "again.json"), JSON.stringify(round));
    const two = await gate(t, [
      "import",
      "inspect",
      "--bare",
      "bare.eval",
      "--masked",
      "gate-a.eval",
      "again.json",
      "--map",
      "mapping.json",
      "--out",
      "two",
    ]);
    equal(two.code, 0, two.stderr);
    const twoDoc = checkedImport(
      JSON.parse(await Deno.readTextFile(join(t, "two", "import.json"))),
    );
    deepEqual(twoDoc.gates.map((g: { gate_id: string }) => g.gate_id), ["gate-a", "again"]);

    // A truncated .eval: exit 2, one line naming the file, nothing written.
    const bytes = await Deno.readFile(join(t, "bare.eval"));
    await Deno.writeFile(join(t, "cut.eval"), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await gate(t, [
      "import",
      "inspect",
      "--bare",
      "cut.eval",
      "--masked",
      "gate-a.eval",
      "--out",
      "cut-out",
    ]);
    equal(cut.code, 2, cut.stderr);
    match(
      cut.stderr,
      /^parse_error {2}cut\.eval {2}cannot read as an inspect_ai \.eval log: the file is not a zip, or is truncated \(no end record\)$/m,
    );
    ok(!exists(join(t, "cut-out")));
  },
});
