/**
 * A minimal Chrome DevTools Protocol client over the page's websocket, and
 * a headless Chromium launcher (flags as docs/notebooks.md lists them).
 * Enough for the JupyterLab browser test: evaluate JavaScript, dispatch
 * real mouse clicks, take a screenshot.
 */

import { CHROMIUM_FLAGS } from "../lib/report/print_pdf.ts";

/** A CDP session on one page target. */
export class CdpPage {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (event) => {
      const msg = JSON.parse(String(event.data));
      const waiter = msg.id !== undefined ? this.#pending.get(msg.id) : undefined;
      if (!waiter) return;
      this.#pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`CDP ${msg.error.message}`));
      else waiter.resolve(msg.result);
    };
  }

  /** Connects to a page's `webSocketDebuggerUrl`. */
  static connect(url: string): Promise<CdpPage> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => resolve(new CdpPage(ws));
      ws.onerror = (e) => reject(new Error(`Cannot connect to ${url}: ${String(e)}`));
    });
  }

  /** Sends one CDP command and returns its result. */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates an expression in the page (awaiting promises) and returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send<{ result: { value?: T }; exceptionDetails?: { text: string } }>(
      "Runtime.evaluate",
      { expression, returnByValue: true, awaitPromise: true },
    );
    if (r.exceptionDetails) throw new Error(`page threw: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value as T;
  }

  /** Polls `expression` until it is truthy; returns its value. */
  async waitFor<T>(expression: string, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown = undefined;
    for (;;) {
      const value = await this.evaluate<T>(expression).catch((e) => (last = e, undefined));
      if (value) return value;
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** A real left click (mouse moved, pressed, released) at the centre of the element `selectorJs` returns. */
  async click(elementJs: string, what: string): Promise<void> {
    const box = await this.waitFor<{ x: number; y: number }>(
      `(() => { const e = ${elementJs}; if (!e) return null; const r = e.getBoundingClientRect();
        return r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null; })()`,
      what,
      30_000,
    );
    const at = { x: box.x, y: box.y, button: "left", clickCount: 1 };
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box.x, y: box.y });
    await this.send("Input.dispatchMouseEvent", { type: "mousePressed", ...at });
    await this.send("Input.dispatchMouseEvent", { type: "mouseReleased", ...at });
  }

  /** Closes the websocket. */
  close(): void {
    this.#ws.close();
  }
}

/** A running headless Chromium with its DevTools port. */
export interface Browser {
  readonly process: Deno.ChildProcess;
  readonly port: number;
  readonly profile: string;
  /** Kills the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Starts `chromium` headless with a fresh profile and DevTools on a free
 * loopback port (`--remote-debugging-port=0`; the port is read from its
 * "DevTools listening on" line).
 */
export async function launchChromium(width: number, height: number): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "gatelab-chromium-" });
  const process = new Deno.Command("chromium", {
    args: [
      ...CHROMIUM_FLAGS,
      "--hide-scrollbars",
      `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`,
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = process.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  let port = 0;
  const deadline = Date.now() + 30_000;
  while (port === 0) {
    const { value, done } = await reader.read();
    if (done || Date.now() > deadline) {
      process.kill("SIGKILL");
      await process.status;
      throw new Error(`Cannot start chromium:\n${log}`);
    }
    log += value;
    const m = log.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
    if (m) port = Number(m[1]);
  }
  // Keep draining stderr so the browser never blocks on a full pipe.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* discard */ }
    } catch { /* closed */ }
  })();
  return {
    process,
    port,
    profile,
    async close() {
      try {
        process.kill("SIGTERM");
      } catch { /* already gone */ }
      await process.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** Connects to the first page target of a browser. */
export async function firstPage(browser: Browser): Promise<CdpPage> {
  const targets: { type: string; webSocketDebuggerUrl: string }[] = await (
    await fetch(`http://127.0.0.1:${browser.port}/json/list`)
  ).json();
  const page = targets.find((t) => t.type === "page");
  if (!page) throw new Error("Cannot drive chromium: it has no page target");
  return await CdpPage.connect(page.webSocketDebuggerUrl);
}
