// The page's handle on the engine worker: typed calls that return promises.
// One message listener, installed once; each call gets an id and a pending promise.
import type { EngineArgs, EngineMethod, EngineResult, FromWorker, ToWorker } from './protocol';

export interface EngineInfo {
  version: string;
  simd: boolean;
}

export class EngineBridge {
  readonly ready: Promise<EngineInfo>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    let markReady!: (info: EngineInfo) => void;
    let failReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready':
          markReady({ version: message.version, simd: message.simd });
          break;
        case 'init-failed':
          failReady(new Error(`the engine could not start: ${message.message}`));
          break;
        case 'result':
        case 'error': {
          const waiting = this.pending.get(message.id);
          if (!waiting) return;
          this.pending.delete(message.id);
          if (message.type === 'result') waiting.resolve(message.value);
          else waiting.reject(new Error(message.message));
          break;
        }
      }
    });
    this.worker.addEventListener('error', (event) => {
      const error = new Error(`the engine worker failed: ${event.message || 'unknown error'}`);
      failReady(error);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
  }

  /** Calls `method` in the worker; rejects with the engine's message on bad input. */
  call<M extends EngineMethod>(method: M, ...args: EngineArgs<M>): Promise<EngineResult<M>> {
    const id = this.nextId++;
    const request: ToWorker = { type: 'call', id, method, args };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(request);
    });
  }
}
