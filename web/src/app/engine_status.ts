// Starts the engine worker and reports its state in the page's status line (data-state
// "ready" or "failed"; the browser tests wait on it). Shared by the playground and the course.
// When the worker crashes and the bridge restarts it, an alert under the status line says so
// (and that unsaved models are lost), and the status line follows the new worker's start.
import { EngineBridge } from '../engine/bridge';
import { trainOnTwoWorkers } from '../engine/data_parallel';

export function startEngine(status: HTMLElement): EngineBridge {
  // `?debug` in the page URL enables the bridge's crashForTest() and exposes the bridge as
  // `window.attnDebug.engine` for the browser tests and the benches (long run, translation speed),
  // with the bridge class (more workers) and the pages' two-worker run (trainOnTwoWorkers). It
  // gives page scripts nothing they could not already do (the engine is the page's own worker).
  const debug = new URLSearchParams(location.search).has('debug');
  const engine = new EngineBridge({ debug });
  if (debug) (window as unknown as { attnDebug: unknown }).attnDebug = { engine, EngineBridge, trainOnTwoWorkers };

  const notice = document.createElement('p');
  notice.className = 'engine-notice';
  notice.setAttribute('role', 'alert');
  notice.dataset.testid = 'engine-notice';
  notice.hidden = true;
  status.after(notice);

  const follow = () =>
    engine.ready.then(
      (info) => {
        // In words a learner reads; the build's name and version are in the tooltip.
        status.textContent = info.simd
          ? 'Engine ready — runs on this device (WebAssembly with SIMD)'
          : 'Engine ready — runs on this device (WebAssembly without SIMD: slower)';
        status.title = `${info.version}, WebAssembly SIMD ${info.simd ? 'on' : 'off'}`;
        status.dataset.simd = info.simd ? 'on' : 'off';
        status.dataset.state = 'ready';
      },
      (error: Error) => {
        status.textContent = error.message;
        status.dataset.state = 'failed';
      },
    );
  follow();
  engine.onRestart((reason) => {
    notice.textContent =
      `The engine stopped: ${reason}. It was restarted; models that were not saved are lost — ` +
      'saved ones are in browser storage.';
    notice.hidden = false;
    status.textContent = 'Restarting the engine…';
    status.dataset.state = 'restarting';
    follow();
  });
  return engine;
}
