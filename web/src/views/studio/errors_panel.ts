// The trained model's errors on the test set: the confusion matrix, then the misclassified
// reviews (the most confidently wrong first, five per page) with their attention highlighted.
// Review text from data files is only ever set as text, never parsed as HTML.
import type { EngineBridge } from '../../engine/bridge';
import type { MisclassifiedReview } from '../../engine/protocol';
import { el, errorMessage } from '../dom';
import { percent } from '../format';
import { highlighted } from './explain_panel';

const PAGE_SIZE = 5;
const MISCLASSIFIED_LIMIT = 200;

export class ErrorsPanel {
  readonly element: HTMLElement;
  private trained = false;
  /** Increments with every evaluation: replies for an older model are dropped. */
  private evalSeq = 0;
  private misclassified: MisclassifiedReview[] = [];
  private page = 0;
  private readonly hint = el('p', {
    className: 'explain-hint',
    textContent: 'Train or load a model first: its test-set errors show here.',
  });
  private readonly confusion = el('table', {
    className: 'explain-confusion',
    dataset: { testid: 'explain-confusion' },
  });
  private readonly status = el('p', { className: 'explain-eval-status', role: 'status' });
  private readonly list = el('ol', {
    className: 'explain-misclassified',
    dataset: { testid: 'explain-misclassified' },
  });
  private readonly previous = el('button', { type: 'button', textContent: 'Previous', disabled: true });
  private readonly next = el('button', { type: 'button', textContent: 'Next', disabled: true });
  private readonly pageLabel = el('span', { className: 'explain-page', role: 'status' });

  constructor(private readonly engine: EngineBridge) {
    const heading = el('h2', { id: 'errors-heading', textContent: 'Test-set errors' });
    this.element = el(
      'section',
      { className: 'errors-panel', dataset: { testid: 'errors-panel', state: 'disabled' } },
      heading,
      this.hint,
      this.status,
      this.confusion,
      this.list,
      el('div', { className: 'buttons' }, this.previous, this.pageLabel, this.next),
    );
    this.element.setAttribute('aria-labelledby', heading.id);
    this.previous.addEventListener('click', () => this.showPage(this.page - 1));
    this.next.addEventListener('click', () => this.showPage(this.page + 1));
  }

  /** The Studio calls this whenever the model changes (created, trained, loaded). */
  modelChanged(info: { trained: boolean }): void {
    this.trained = info.trained;
    this.element.dataset.state = info.trained ? 'ready' : 'disabled';
    this.hint.hidden = info.trained;
    this.evalSeq++;
    this.misclassified = [];
    this.page = 0;
    this.confusion.replaceChildren();
    this.list.replaceChildren();
    this.pageLabel.textContent = '';
    this.status.textContent = '';
    this.previous.disabled = this.next.disabled = true;
    if (info.trained) void this.evaluate();
  }

  private async evaluate(): Promise<void> {
    const seq = ++this.evalSeq;
    this.status.textContent = 'Evaluating on the test set…';
    try {
      const metrics = await this.engine.evaluate('test');
      if (seq !== this.evalSeq) return;
      const count = metrics.tp + metrics.fp + metrics.tn + metrics.fn;
      if (count === 0) {
        this.status.textContent = 'There is no test set to evaluate.';
        return;
      }
      this.showConfusion(metrics);
      this.status.textContent =
        `Accuracy ${percent(metrics.accuracy)} on ${count} test reviews; ` +
        `${metrics.fp + metrics.fn} misclassified, the most confidently wrong first.`;
      const list = await this.engine.misclassified('test', MISCLASSIFIED_LIMIT);
      if (seq !== this.evalSeq) return;
      this.misclassified = list;
      this.showPage(0);
    } catch (error) {
      if (seq === this.evalSeq) this.status.textContent = errorMessage(error);
    }
  }

  private showConfusion(m: { tp: number; fp: number; tn: number; fn: number }): void {
    const cell = (value: number, name: string) => {
      const td = el('td', { textContent: String(value) });
      td.dataset.cell = name;
      return td;
    };
    const th = (text: string, scope: 'row' | 'col') => el('th', { scope, textContent: text });
    this.confusion.replaceChildren(
      el('caption', { textContent: 'Confusion matrix (test set; rows: true label, columns: prediction)' }),
      el('thead', {}, el('tr', {}, el('td'), th('predicted negative', 'col'), th('predicted positive', 'col'))),
      el(
        'tbody',
        {},
        el('tr', {}, th('negative', 'row'), cell(m.tn, 'tn'), cell(m.fp, 'fp')),
        el('tr', {}, th('positive', 'row'), cell(m.fn, 'fn'), cell(m.tp, 'tp')),
      ),
    );
  }

  private showPage(page: number): void {
    const pages = Math.max(1, Math.ceil(this.misclassified.length / PAGE_SIZE));
    this.page = Math.min(Math.max(0, page), pages - 1);
    const items = this.misclassified.slice(this.page * PAGE_SIZE, (this.page + 1) * PAGE_SIZE);
    this.list.start = this.page * PAGE_SIZE + 1;
    this.list.replaceChildren(
      ...items.map((r) =>
        el(
          'li',
          { className: 'explain-review' },
          el(
            'p',
            { className: 'explain-review-label' },
            `labelled ${r.label === 1 ? 'positive' : 'negative'}, predicted P(positive) = ${r.probability.toFixed(3)}`,
            r.origin ? ` (${r.origin})` : '',
          ),
          el('p', { className: 'explain-review-text' }, r.text),
          el('p', { className: 'predict-tokens' }, ...highlighted(r.tokens, r.weights)),
        ),
      ),
    );
    this.pageLabel.textContent = this.misclassified.length
      ? `page ${this.page + 1} of ${pages}`
      : 'No misclassified test reviews.';
    this.previous.disabled = !this.trained || this.page === 0;
    this.next.disabled = !this.trained || this.page + 1 >= pages;
  }
}
