// Starts the engine worker and reports its state in the page's status line (data-state
// "ready" or "failed"; the browser tests wait on it). Shared by the playground and the course.
import { EngineBridge } from '../engine/bridge';

export function startEngine(status: HTMLElement): EngineBridge {
  const engine = new EngineBridge();
  engine.ready.then(
    (info) => {
      status.textContent = `Engine ready: ${info.version}, WebAssembly SIMD ${info.simd ? 'on' : 'off'}`;
      status.dataset.state = 'ready';
    },
    (error: Error) => {
      status.textContent = error.message;
      status.dataset.state = 'failed';
    },
  );
  return engine;
}
