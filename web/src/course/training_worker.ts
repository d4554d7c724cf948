// A worker of its own for the course's training demos: runToyTask is synchronous and reports
// every step through a callback, which cannot cross the page's engine bridge, and a run of
// several seconds must not queue up the lesson's other engine calls behind it.
import createAttnEngine, { type AttnEngine } from '../../generated/attn_engine.mjs';
import wasmUrl from '../../generated/attn_engine.wasm?url';

export type ToTrainingWorker = { type: 'train'; configJson: string };
export type FromTrainingWorker =
  | { type: 'step'; step: number; loss: number }
  | {
      type: 'done';
      testAccuracy: number;
      decisiveAttention: number;
      decisiveArgmaxRate: number;
      losses: number[];
    }
  | { type: 'error'; message: string };

const post = (message: FromTrainingWorker) => self.postMessage(message);

async function instantiate(imports: WebAssembly.Imports): Promise<WebAssembly.Instance> {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`could not load ${wasmUrl}: HTTP ${response.status}`);
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

const engine: Promise<AttnEngine> = createAttnEngine({
  instantiateWasm(imports, receive) {
    instantiate(imports).then(
      (instance) => receive(instance),
      (error: unknown) => post({ type: 'error', message: String(error) }),
    );
    return {};
  },
});

self.addEventListener('message', async (event: MessageEvent<ToTrainingWorker>) => {
  if (event.data?.type !== 'train') return;
  try {
    const module = await engine;
    let last = 0;
    const result = module.runToyTask(event.data.configJson, (step, loss) => {
      const now = performance.now();
      if (now - last > 50) {
        last = now;
        post({ type: 'step', step, loss });
      }
    });
    post({
      type: 'done',
      testAccuracy: result.testAccuracy,
      decisiveAttention: result.decisiveAttention,
      decisiveArgmaxRate: result.decisiveArgmaxRate,
      losses: Array.from(result.losses),
    });
  } catch (error) {
    post({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
