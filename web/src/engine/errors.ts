// What kind of failure an engine call met, decided in one place (the worker, from the thrown
// error) and carried in the protocol's 'error' message, so views branch on a field instead of
// matching message text. The engine's C++ exceptions reach the worker as plain JS Errors with
// their message (wasm/convert.hpp `guarded`), so the worker's classification reads the message;
// the bridge adds the kinds only it can know (a crashed or stopped worker).

/**
 * - 'diverged': training stopped on a non-finite loss, gradient or validation loss (the model
 *   keeps the last finite parameters; a smaller learning rate may help).
 * - 'out-of-memory': the engine could not allocate (std::bad_alloc, a failed ArrayBuffer).
 * - 'crashed': the worker died (a wasm trap or uncaught error); the bridge restarted it, so
 *   models and data that lived there are gone.
 * - 'unavailable': the engine could not start, was shut down, or stopped restarting.
 * - 'cancelled': the call was cancelled before it ran.
 * - 'engine': anything else the engine refused, bad input included (the message says what).
 */
export type ErrorKind = 'diverged' | 'out-of-memory' | 'crashed' | 'unavailable' | 'cancelled' | 'engine';

/** An engine call's failure as the page sees it: the engine's message and its kind. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The kind of any caught value: an EngineError's own, 'engine' for everything else. */
export function errorKind(error: unknown): ErrorKind {
  return error instanceof EngineError ? error.kind : 'engine';
}

const OUT_OF_MEMORY = /bad_alloc|\bOOM\b|out of memory|Cannot enlarge memory|allocation failed/i;

/**
 * The worker's classification of a thrown value: its kind and the message the page shows (an
 * allocation failure's terse "std::bad_alloc" gets a sentence saying what to do).
 */
export function classifyError(error: unknown): { kind: ErrorKind; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof WebAssembly.RuntimeError) return { kind: 'crashed', message };
  if (/^training diverged\b/.test(message)) return { kind: 'diverged', message };
  if (OUT_OF_MEMORY.test(message) || (error instanceof RangeError && /buffer|memory/i.test(message))) {
    return {
      kind: 'out-of-memory',
      message: `the engine ran out of memory (${message}): try a smaller model, batch size or maximum length`,
    };
  }
  return { kind: 'engine', message };
}
