// The Web Worker that owns the wasm engine: it instantiates the module once, answers stateless
// calls, and hosts the sentiment session (session_host.ts), the seq2seq session (seq2seq_host.ts)
// and the course's toy runs (toy_host.ts). Results are posted with their
// typed-array buffers transferred (fresh copies, so nothing else holds them).
import createAttnEngine, { type AttnEngine } from '../../generated/attn_engine.mjs';
import wasmUrl from '../../generated/attn_engine.wasm?url';
import { classifyError } from './errors';
import { ENGINE_METHODS, type FromWorker, type ToWorker } from './protocol';
import { Seq2SeqHost } from './seq2seq_host';
import { SessionHost } from './session_host';
import { ToyHost } from './toy_host';

const allowed = new Set<string>(ENGINE_METHODS);

function post(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
}

function collectBuffers(value: unknown, out: Set<ArrayBuffer>): void {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) collectBuffers(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collectBuffers(item, out);
  }
}

// Answers a failed request with its kind (errors.ts); a wasm trap (RuntimeError: unreachable, out of bounds, Aborted(OOM))
// leaves the module's memory in an unknown state, so it also tells the bridge to replace us.
function fail(id: number, error: unknown): void {
  post({ type: 'error', id, ...classifyError(error) });
  if (error instanceof WebAssembly.RuntimeError) post({ type: 'fatal', message: `${error.name}: ${error.message}` });
}

// Streaming compilation when the server sends application/wasm, bytes otherwise.
async function instantiate(imports: WebAssembly.Imports): Promise<WebAssembly.Instance> {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`could not load ${wasmUrl}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

const engine: Promise<AttnEngine> = createAttnEngine({
  instantiateWasm(imports, receive) {
    instantiate(imports).then(
      (instance) => receive(instance),
      (error: unknown) => post({ type: 'init-failed', message: String(error) }),
    );
    return {};
  },
});

let host: SessionHost | null = null;
let seq2seq: Seq2SeqHost | null = null;
let toy: ToyHost | null = null;

engine.then(
  (module) => post({ type: 'ready', version: module.version(), simd: module.simdEnabled() }),
  (error: unknown) => post({ type: 'init-failed', message: String(error) }),
);

/** Answers request `id` with what `handle` resolves to (its typed arrays' buffers transferred). */
async function answer(
  id: number,
  handle: (module: AttnEngine) => Promise<{ value: unknown; transfer?: Transferable[] }>,
): Promise<void> {
  try {
    // Await the engine before touching a host: `host ??= new SessionHost(await engine, …)` would
    // let two requests sent before the engine was ready each build (and the second replace) one.
    const { value, transfer } = await handle(await engine);
    post({ type: 'result', id, value }, transfer);
  } catch (error) {
    fail(id, error);
  }
}

self.addEventListener('message', async (event: MessageEvent<ToWorker>) => {
  const request = event.data;
  if (request?.type === 'session') {
    await answer(request.id, (module) => (host ??= new SessionHost(module, post)).handle(request.id, request.request));
    return;
  }
  if (request?.type === 'seq2seq') {
    await answer(request.id, (module) =>
      (seq2seq ??= new Seq2SeqHost(module, post)).handle(request.id, request.request),
    );
    return;
  }
  if (request?.type === 'toy') {
    await answer(request.id, (module) => (toy ??= new ToyHost(module, post)).handle(request.id, request.request));
    return;
  }
  if (request?.type === 'memory') {
    try {
      post({ type: 'result', id: request.id, value: (await engine).HEAPU8.buffer.byteLength });
    } catch (error) {
      fail(request.id, error);
    }
    return;
  }
  if (request?.type === 'crash-test') {
    // Outside any handler, like a trap in a timer callback: an uncaught error event.
    setTimeout(() => {
      throw new WebAssembly.RuntimeError('unreachable executed (crash test)');
    });
    return;
  }
  if (request?.type !== 'call') return;
  try {
    if (!allowed.has(request.method)) throw new Error(`unknown engine method '${String(request.method)}'`);
    const module = await engine;
    const fn = module[request.method] as (...args: unknown[]) => unknown;
    const value = fn(...request.args);
    const buffers = new Set<ArrayBuffer>();
    collectBuffers(value, buffers);
    post({ type: 'result', id: request.id, value }, [...buffers]);
  } catch (error) {
    fail(request.id, error);
  }
});
