// Runs a learner's code where it cannot hurt the page: an opaque-origin iframe
// (sandbox="allow-scripts", no allow-same-origin) whose own CSP forbids every fetch, and inside
// it a Worker that evaluates the code. So the code sees no `document` (it is in a worker), no
// storage (opaque origin), no network (CSP default-src 'none', inherited by the blob worker), and
// no parent (cross-origin). The parent keeps a timer: after `timeLimitMs` it removes the frame,
// which ends the worker, so an infinite loop never blocks the page — the loop runs on the
// worker's thread, never on the page's or the frame's.
//
// The frame's policy adds `worker-src blob:` to the brief's `default-src 'none'; script-src
// 'unsafe-inline' 'unsafe-eval'`: without it the worker could not start. A srcdoc frame also
// inherits the parent's CSP, so a future CSP on course.html must allow inline scripts and eval
// for this frame (see the report).

export type SandboxOutcome =
  | { type: 'results'; results: CaseOutcome[] }
  | { type: 'compile-error'; message: string }
  | { type: 'missing-function'; name: string }
  | { type: 'timeout'; ms: number }
  | { type: 'crashed'; message: string };

export type CaseOutcome = { value: unknown } | { error: string };

export interface SandboxJob {
  code: string;
  functionName: string;
  /** One argument list per case; JSON-safe (finite numbers, arrays, null). */
  inputs: unknown[][];
}

export const SANDBOX_CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; worker-src blob:";

// Runs inside the worker. Each case gets fresh copies of its arguments (a learner who mutates
// an input must not change the next case), and results are reduced to plain data so that
// posting them can never throw (a function or a DOM-like object would not clone).
function workerMain(): void {
  const plain = (value: unknown, depth: number): unknown => {
    if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return value;
    if (typeof value === 'string') return value.length > 200 ? value.slice(0, 200) + '…' : value;
    if (depth > 6) return '[too deeply nested]';
    if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>).slice(0, 100000);
    if (Array.isArray(value)) return value.slice(0, 100000).map((v) => plain(v, depth + 1));
    if (typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value as object).slice(0, 50)) {
        out[key] = plain((value as Record<string, unknown>)[key], depth + 1);
      }
      return out;
    }
    return `[${typeof value}]`;
  };
  self.onmessage = (event: MessageEvent) => {
    const { code, functionName, inputs } = event.data as SandboxJob;
    let fn: unknown;
    try {
      fn = new Function(
        `"use strict";\n${code}\n;return typeof ${functionName} === 'function' ? ${functionName} : undefined;`,
      )();
    } catch (error) {
      self.postMessage({ type: 'compile-error', message: String(error) });
      return;
    }
    if (typeof fn !== 'function') {
      self.postMessage({ type: 'missing-function', name: functionName });
      return;
    }
    const results = inputs.map((args) => {
      try {
        return {
          value: plain((fn as (...a: unknown[]) => unknown)(...structuredClone(args)), 0),
        };
      } catch (error) {
        return {
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        };
      }
    });
    self.postMessage({ type: 'results', results });
  };
}

function frameDocument(job: SandboxJob): string {
  const workerSource = `(${workerMain.toString()})();`;
  // `<` escaped so that nothing in the learner's code can close the script element.
  const safe = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SANDBOX_CSP}"></head><body><script>
(() => {
  const report = (message) => parent.postMessage(message, '*');
  try {
    const url = URL.createObjectURL(new Blob([${safe(workerSource)}], { type: 'text/javascript' }));
    const worker = new Worker(url);
    worker.onmessage = (event) => report(event.data);
    worker.onerror = (event) => { event.preventDefault(); report({ type: 'crashed', message: String(event.message) }); };
    worker.postMessage(${safe(job)});
  } catch (error) {
    report({ type: 'crashed', message: String(error) });
  }
})();
</script></body></html>`;
}

/** Runs `job` in a fresh sandbox; resolves with its outcome, or 'timeout' after timeLimitMs. */
export function runInSandbox(job: SandboxJob, timeLimitMs = 2000): Promise<SandboxOutcome> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.className = 'sandbox-frame';
    frame.title = 'code sandbox';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    let settled = false;
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      frame.remove(); // ends the frame and its worker, whatever they are doing
      resolve(outcome);
    };
    // Only the frame we made may answer; its origin is "null", so the source is the check.
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow) return;
      const data = event.data as SandboxOutcome | null;
      if (!data || typeof data !== 'object' || !('type' in data)) return;
      if (data.type === 'results' && Array.isArray(data.results) && data.results.length === job.inputs.length) {
        finish(data);
      } else if (data.type === 'compile-error' || data.type === 'crashed') {
        finish({ type: data.type, message: String(data.message) });
      } else if (data.type === 'missing-function') {
        finish({ type: 'missing-function', name: job.functionName });
      }
    };
    window.addEventListener('message', onMessage);
    const timer = setTimeout(() => finish({ type: 'timeout', ms: timeLimitMs }), timeLimitMs);
    frame.srcdoc = frameDocument(job);
    document.body.append(frame);
  });
}
