import { deepEqual, equal } from "node:assert/strict";
import { notebookProgress } from "../lib/report/notebook_progress.ts";

// Outside `deno jupyter`, reading Deno.jupyter throws ("only available in
// `deno jupyter` subcommand"); the helper must then do nothing, as its
// documentation says, rather than fail the notebook code run in a script.
Deno.test("notebookProgress outside the Jupyter kernel returns a callback that does nothing", () => {
  let threw = false;
  try {
    void Deno.jupyter;
  } catch {
    threw = true;
  }
  equal(threw, true, "this test runs outside the kernel, where Deno.jupyter throws");
  const progress = notebookProgress("draws");
  for (let i = 1; i <= 3; i++) progress(i, 3);
});

Deno.test("notebookProgress with a broadcaster shows one display and updates it in place", () => {
  const sent: { type: string; id: unknown }[] = [];
  const jupyter = {
    broadcast: (type: string, content: Record<string, unknown>) => {
      const transient = content["transient"] as { display_id?: unknown } | undefined;
      sent.push({ type, id: transient?.display_id });
      return Promise.resolve();
    },
  };
  const progress = notebookProgress("draws", { jupyter, intervalMs: 0, displayId: "d1" });
  progress(1, 2);
  progress(2, 2);
  deepEqual(sent, [{ type: "display_data", id: "d1" }, { type: "update_display_data", id: "d1" }]);
});
