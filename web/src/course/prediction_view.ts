// A prediction question: the learner clicks an answer, then the engine computes the truth.
import { createHeatmap } from '../views/heatmap';
import { el } from '../views/dom';
import type { EngineCall } from './exercises/types';
import type { Prediction } from './lessons/types';
import { mathBlock } from '../views/math';
import type { ProgressStore } from './progress';

export class PredictionView {
  readonly element: HTMLElement;
  private readonly optionButtons: HTMLButtonElement[];
  private readonly result = el('div', {
    className: 'prediction-result',
    role: 'status',
  });

  constructor(
    private readonly prediction: Prediction,
    private readonly call: EngineCall,
    private readonly progress: ProgressStore,
  ) {
    this.optionButtons = prediction.options.map((option, i) => {
      const button = el('button', { type: 'button', className: 'option' });
      button.innerHTML = mathBlock('span', option).innerHTML;
      button.addEventListener('click', () => void this.answer(i));
      return button;
    });
    this.element = el(
      'section',
      {
        className: 'prediction',
        dataset: { testid: `prediction-${prediction.id}` },
      },
      el('h3', {}, 'Predict'),
      mathBlock('p', prediction.question),
      el('div', { className: 'options', role: 'group', ariaLabel: 'answers' }, ...this.optionButtons),
      this.result,
    );
    const earlier = progress.snapshot.predictions[prediction.id];
    if (earlier !== undefined) void this.answer(earlier, false);
  }

  private async answer(choice: number, record = true): Promise<void> {
    if (record) this.progress.answerPrediction(this.prediction.id, choice);
    this.optionButtons.forEach((b) => (b.disabled = true));
    this.result.textContent = 'Asking the engine…';
    try {
      const { answer, explanation, figures } = await this.prediction.reveal(this.call);
      this.optionButtons.forEach((b, i) => {
        b.classList.toggle('chosen', i === choice);
        b.classList.toggle('correct', i === answer);
      });
      const verdict =
        choice === answer
          ? '✓ Right!'
          : `✗ Not quite: the answer is “${this.prediction.options[answer].replace(/\$/g, '')}”.`;
      const maps = el('div', { className: 'figure-row' });
      for (const figure of figures) {
        const map = createHeatmap(figure.title, `prediction-heatmap-${this.prediction.id}`);
        map.update(figure.data);
        maps.append(map.element);
      }
      this.element.dataset.state = choice === answer ? 'right' : 'wrong';
      this.result.replaceChildren(el('p', { className: 'verdict' }, verdict), mathBlock('p', explanation), maps);
    } catch (error) {
      this.result.textContent = `The engine could not compute the answer: ${error instanceof Error ? error.message : String(error)}`;
      this.optionButtons.forEach((b) => (b.disabled = false));
    }
  }
}
