// Placeholder with the interface h-explain's panel has (prediction as you type, counterfactuals,
// "is attention an explanation?", confusion matrix, misclassified reviews); replaced at merge.
import type { EngineBridge } from '../../engine/bridge';
import { el } from '../dom';

export class ExplainPanel {
  readonly element: HTMLElement;

  constructor(engine: EngineBridge) {
    void engine;
    this.element = el('section', { className: 'explain-panel' }, el('h3', {}, 'Explain the model'));
  }

  modelChanged(info: { trained: boolean }): void {
    this.element.dataset.trained = String(info.trained);
  }
}
