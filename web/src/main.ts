// Boots the page: starts the engine worker and mounts the Attention Lab (its state in the URL
// hash) and the sentiment training panel below it.
import { EngineBridge } from './engine/bridge';
import { AttentionLab } from './lab/attention_lab';
import { labStateFromHash, labStateToHash } from './lab/state';
import { TrainPanel } from './sentiment/train_panel';

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
app.append(lab.element, new TrainPanel(engine).element);
window.addEventListener('hashchange', () => lab.setState(labStateFromHash(location.hash)));
