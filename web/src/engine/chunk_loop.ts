// The chunked scheduling both worker hosts (session_host.ts, seq2seq_host.ts) train with: a run
// advances one chunk of steps per macrotask, posted through a MessageChannel (no setTimeout 4 ms
// clamp), so the worker's event loop answers pause / resume / cancel / queries between chunks;
// each chunk's size adapts so it takes about `chunkMs` of wall time.

/** At most one tick in flight, however often runs are paused, resumed or restarted. */
export class ChunkTicker {
  private readonly channel = new MessageChannel();
  private pending = false;

  constructor(onTick: () => void) {
    this.channel.port1.onmessage = () => {
      this.pending = false;
      onTick();
    };
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    this.channel.port2.postMessage(null);
  }
}

/**
 * The next chunk's step count after `stepsRun` steps (of `steps` asked) took `ms`: aimed at
 * `chunkMs` (per-step time varies with the batch's length), growing at most 4× per chunk.
 */
export function nextChunkSize(steps: number, stepsRun: number, ms: number, chunkMs: number): number {
  const perStep = ms / Math.max(1, stepsRun);
  return Math.max(1, Math.min(4 * steps, Math.floor(chunkMs / Math.max(perStep, 0.01))));
}
