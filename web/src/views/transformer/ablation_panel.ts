// The Transformer view's head ablation on the test set: each head switched off in turn, with the
// test accuracy it leaves and the change from all heads, as a table with signed bars.
import type { HeadAblationReport } from '../../../generated/attn_engine.mjs';
import type { EngineBridge } from '../../engine/bridge';
import { el, errorMessage, viewPart } from '../dom';
import { percent } from '../format';

export class AblationPanel {
  private readonly button = el('button', {
    type: 'button',
    textContent: 'Measure each head on the test set',
    disabled: true,
  });
  private readonly table = el('table', { className: 'tf-ablation-table', hidden: true });
  private readonly status = el('p', { className: 'hint', role: 'status' });
  readonly element = viewPart(el('h3', {}, 'Head ablation on the test set'), this.button, this.status, this.table);
  private busy = false;
  private hasModel = false;

  constructor(
    private readonly engine: () => EngineBridge,
    private readonly causal: () => boolean,
    private readonly onError: (message: string) => void,
  ) {
    this.button.addEventListener('click', () => void this.measure());
  }

  /** A new model (or none): the last table is stale. */
  reset(hasModel: boolean): void {
    this.hasModel = hasModel;
    this.table.hidden = true;
    this.lock(false);
  }

  /** Locked while a run trains the model. */
  lock(locked: boolean): void {
    this.button.disabled = locked || this.busy || !this.hasModel;
  }

  private async measure(): Promise<void> {
    this.busy = true;
    this.lock(true);
    this.status.textContent = 'Evaluating the test set once per head…';
    try {
      this.render(await this.engine().headAblation(0, this.causal()));
      this.status.textContent = '';
    } catch (error) {
      this.status.textContent = '';
      this.onError(errorMessage(error));
    } finally {
      this.busy = false;
      this.lock(false);
    }
  }

  private render(report: HeadAblationReport): void {
    const caption = el(
      'caption',
      {},
      `Test accuracy with one head ablated (${report.examples} reviews; all heads: ${percent(report.baselineAccuracy)})`,
    );
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Head'),
      el('th', { scope: 'col' }, 'Accuracy'),
      el('th', { scope: 'col' }, 'Change'),
      el('th', { scope: 'col' }, 'Bar'),
    );
    const largest = Math.max(0.01, ...report.heads.map((e) => Math.abs(e.delta)));
    const body = report.heads.map((e) => {
      const bar = el('span', { className: `tf-bar ${e.delta < 0 ? 'tf-bar-worse' : 'tf-bar-better'}` });
      bar.style.width = `${(60 * Math.abs(e.delta)) / largest}px`;
      bar.setAttribute('aria-hidden', 'true');
      return el(
        'tr',
        { dataset: { layer: String(e.layer), head: String(e.head), delta: String(e.delta) } },
        el('th', { scope: 'row' }, `layer ${e.layer + 1} head ${e.head + 1}`),
        el('td', {}, percent(e.accuracy)),
        el('td', {}, `${e.delta >= 0 ? '+' : ''}${(100 * e.delta).toFixed(1)} points`),
        el('td', {}, bar),
      );
    });
    this.table.replaceChildren(caption, el('thead', {}, head), el('tbody', {}, ...body));
    this.table.hidden = false;
  }
}
