// The Web Worker that owns the wasm engine: it instantiates the module once, answers stateless
// calls, and hosts the sentiment session (session_host.ts), the seq2seq session (seq2seq_host.ts)
// and the course's toy runs (toy_host.ts). Results are posted with their
// typed-array buffers transferred (fresh copies, so nothing else holds them).
import createAttnEngine, { type AttnEngine } from '../../generated/attn_engine.mjs';
import wasmUrl from '../../generated/attn_engine.wasm?url';
import { classifyError } from './errors';
import { ENGINE_METHODS, type FromWorker, type ToWorker, type Track, type TrackRequest } from './protocol';
import { Seq2SeqHost } from './seq2seq_host';
import { SessionHost } from './session_host';
import { ToyHost } from './toy_host';
import { transferables } from './transfer';

const allowed = new Set<string>(ENGINE_METHODS);

function post(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
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

type Post = (message: FromWorker, transfer?: Transferable[]) => void;
type Answer = Promise<{ value: unknown; transfer?: Transferable[] }>;
interface Host<T extends Track> {
  handle(id: number, request: TrackRequest<T>): Answer;
}

/** The host of each training track (protocol.ts, TrackOps): one registration per track. */
const HOSTS: { [T in Track]: new (engine: AttnEngine, post: Post) => Host<T> } = {
  session: SessionHost,
  seq2seq: Seq2SeqHost,
  toy: ToyHost,
};
const hosts: { [T in Track]?: Host<T> } = {};

// Each host is made on its track's first request, once (the engine is awaited before: two
// requests sent before it was ready must not each build one).
function hostFor<T extends Track>(track: T, module: AttnEngine): Host<T> {
  return (hosts[track] ??= new HOSTS[track](module, post) as (typeof hosts)[T] & Host<T>) as Host<T>;
}

engine.then(
  (module) => post({ type: 'ready', version: module.version(), simd: module.simdEnabled() }),
  (error: unknown) => post({ type: 'init-failed', message: String(error) }),
);

/** Answers request `id` with what `handle` resolves to (its typed arrays' buffers transferred). */
async function answer(id: number, handle: (module: AttnEngine) => Answer): Promise<void> {
  try {
    const { value, transfer } = await handle(await engine);
    post({ type: 'result', id, value }, transfer);
  } catch (error) {
    fail(id, error);
  }
}

self.addEventListener('message', async (event: MessageEvent<ToWorker>) => {
  const request = event.data;
  if (request && Object.hasOwn(HOSTS, request.type)) {
    const { type, id } = request as Extract<ToWorker, { type: Track }>;
    await answer(id, (module) => hostFor(type, module).handle(id, (request as unknown as { request: never }).request));
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
    post({ type: 'result', id: request.id, value }, transferables(value));
  } catch (error) {
    fail(request.id, error);
  }
});
