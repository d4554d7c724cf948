// Boots the page: starts the engine worker and mounts the Attention Lab, keeping its state in
// the URL hash.
import { EngineBridge } from './engine/bridge';
import { AttentionLab } from './lab/attention_lab';
import { labStateFromHash, labStateToHash } from './lab/state';

const status = document.querySelector<HTMLElement>('[data-testid="engine-status"]')!;
const app = document.querySelector<HTMLElement>('#app')!;

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

const lab = new AttentionLab(engine, labStateFromHash(location.hash), (state) => {
  history.replaceState(null, '', labStateToHash(state));
});
app.append(lab.element);
window.addEventListener('hashchange', () => lab.setState(labStateFromHash(location.hash)));
