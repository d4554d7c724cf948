// The Transformer view's sentence and its what-ifs: the text to inspect, a causal mask the model
// was not trained with, and heads to ablate (their output zeroed before W_o), one box per head of
// the model on show. Any change asks the view (index.ts) to inspect again.
import { el, viewPart } from '../dom';

const DEFAULT_TEXT = 'the acting was not good but the music was wonderful';

export class SentencePanel {
  readonly textInput = el('input', { id: 'tf-text', type: 'text', autocomplete: 'off', spellcheck: false });
  private readonly inspectButton = el('button', { type: 'button', textContent: 'Inspect', disabled: true });
  readonly causalBox = el('input', { id: 'tf-causal', type: 'checkbox' });
  private readonly ablationBoxes = el('fieldset', { className: 'tf-ablation' });
  readonly element = viewPart(
    el('h3', {}, 'A sentence'),
    el(
      'div',
      { className: 'decode-controls' },
      el('label', { htmlFor: 'tf-text' }, 'Sentence '),
      this.textInput,
      this.inspectButton,
      el('label', { htmlFor: 'tf-causal' }, this.causalBox, ' Causal mask (what-if: the model was trained without)'),
    ),
    this.ablationBoxes,
  );

  /** `inspect`: the sentence, the mask or the ablated heads changed (or Inspect was pressed). */
  constructor(inspect: () => void) {
    this.textInput.value = DEFAULT_TEXT;
    this.inspectButton.addEventListener('click', () => inspect());
    this.textInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.inspectButton.disabled) inspect();
    });
    this.causalBox.addEventListener('change', () => inspect());
    this.ablationBoxes.addEventListener('change', () => inspect());
  }

  /** A new model's size: one ablation box per head, and the sentence can be inspected. */
  reset(layers: number, heads: number): void {
    this.ablationBoxes.replaceChildren(el('legend', {}, 'Ablate heads (their output is zeroed before W_o)'));
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) {
        const id = `tf-ablate-${l}-${h}`;
        const box = el('input', { id, type: 'checkbox', dataset: { layer: String(l), head: String(h) } });
        this.ablationBoxes.append(el('label', { htmlFor: id }, box, ` layer ${l + 1} head ${h + 1} `));
      }
    }
    this.inspectButton.disabled = false;
  }

  /** No model to inspect: no boxes, no Inspect. */
  clear(): void {
    this.ablationBoxes.replaceChildren();
    this.inspectButton.disabled = true;
  }

  /** The heads ticked for ablation, as [layer, head] (0-based). */
  ablated(): [number, number][] {
    const out: [number, number][] = [];
    for (const box of this.ablationBoxes.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
      if (box.checked) out.push([Number(box.dataset.layer), Number(box.dataset.head)]);
    return out;
  }
}
