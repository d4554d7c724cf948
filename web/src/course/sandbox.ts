// Runs a learner's code where it cannot hurt the page: web/public/sandbox.html in an iframe with
// sandbox="allow-scripts" (no allow-same-origin, so an opaque origin: no access to the page's
// DOM, cookies or storage), whose own CSP forbids every request, and inside it a Worker that
// evaluates the code (so it has no `document` either, and the page stays responsive whatever it
// does). The page keeps a timer: after `timeLimitMs` it removes the frame, which ends the
// worker, so an infinite loop costs the learner two seconds and nothing else.
//
// Why a file and not a srcdoc: a srcdoc frame inherits the embedding page's CSP, so the course
// page would have to allow inline scripts and eval for itself. A frame loaded from a URL carries
// only its own policy (default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; worker-src
// blob:), and course.html keeps a strict one.
//
// Handshake: the frame posts {type: 'sandbox-ready'}; the page answers with the job; the frame
// posts one outcome. The frame's origin is "null", so messages are matched by their source
// window, and the job is posted with targetOrigin '*' (it holds nothing but the learner's code).

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
  /** One argument list per case (structured-cloneable). */
  inputs: unknown[][];
  /** Source evaluated before the code; its `np` is in the code's scope (see np_helper.ts). */
  prelude?: string;
}

const SANDBOX_URL = new URL('./sandbox.html', document.baseURI).href;

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
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow) return;
      const data = event.data as { type?: unknown; results?: unknown; message?: unknown } | null;
      if (!data || typeof data !== 'object') return;
      switch (data.type) {
        case 'sandbox-ready':
          frame.contentWindow?.postMessage(job, '*');
          break;
        case 'results':
          if (Array.isArray(data.results) && data.results.length === job.inputs.length) {
            finish({ type: 'results', results: data.results as CaseOutcome[] });
          } else {
            finish({ type: 'crashed', message: 'the sandbox answered with the wrong number of results' });
          }
          break;
        case 'compile-error':
        case 'crashed':
          finish({ type: data.type, message: String(data.message) });
          break;
        case 'missing-function':
          finish({ type: 'missing-function', name: job.functionName });
          break;
      }
    };
    window.addEventListener('message', onMessage);
    const timer = setTimeout(() => finish({ type: 'timeout', ms: timeLimitMs }), timeLimitMs);
    frame.src = SANDBOX_URL;
    document.body.append(frame);
  });
}

/**
 * The learner's function run once per case in the sandbox, for a demo that puts it inside a
 * model: each case's value or error; when the whole run failed (no such function, a syntax
 * error, a timeout) every case carries that one reason.
 */
export async function runCases(job: SandboxJob, timeLimitMs: number): Promise<CaseOutcome[]> {
  const outcome = await runInSandbox(job, timeLimitMs);
  if (outcome.type === 'results') return outcome.results;
  const why =
    outcome.type === 'timeout'
      ? `it did not finish in ${outcome.ms / 1000} s`
      : outcome.type === 'missing-function'
        ? `the code defines no function ${outcome.name}`
        : outcome.message;
  return job.inputs.map(() => ({ error: why }));
}
