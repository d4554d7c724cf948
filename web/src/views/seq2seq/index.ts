// Seq2seq Alignment: train a small encoder–decoder (digit reversal or date normalisation, with
// Bahdanau, Luong or no attention) in the engine worker, then decode an input and watch the
// decoder emit one token per step. This module is the coordinator (settings, the run and its
// readouts); the panels are decode_panel.ts (decoding, the alignment, greedy against beam, the
// input checks) and length_panel.ts (held-out exact match by input length); tasks.ts holds the
// tasks and the pure checks.
import { explainedIn } from '../../app/course_links';
import { VIEW_TITLES } from '../../app/nav';
import { EngineBridge } from '../../engine/bridge';
import type { Seq2SeqProgress } from '../../engine/protocol';
import { dashboard, el, errorMessage, readoutRow, trainCard, viewPart } from '../dom';
import { percent } from '../format';
import { formulaList } from '../math';
import { RunControls } from '../run_controls';
import { createTabs } from '../tabs';
import { TranslationPanel } from '../translation';
import type { ViewDefinition } from '../types';
import { DecodePanel } from './decode_panel';
import { LengthPanel } from './length_panel';
import './seq2seq.css';
import type { Seq2SeqRecipe } from '../../../generated/attn_engine.mjs';
import { TASKS, taskSettings, type Attention, type TaskName } from './tasks';

class Seq2SeqPanel {
  readonly element = el('section', { className: 'seq2seq' });
  private latest: Seq2SeqProgress | null = null;
  private frameRequested = false;
  private firstLoss: number | null = null;

  private readonly taskSelect = el('select', { id: 's2s-task' });
  private readonly attentionSelect = el('select', { id: 's2s-attention' });
  // Empty until the engine's recipes arrive (then the task's epochs, unless typed in first).
  private readonly epochsInput = el('input', { id: 's2s-epochs', type: 'number', min: '1', max: '50' });
  /** The engine's recipe table (train/seq2seq_recipes.cpp), fetched once. */
  private readonly recipes: Promise<ReadonlyMap<string, Seq2SeqRecipe>>;
  private readonly run = new RunControls({
    stateHost: this.element,
    texts: {
      idle: 'No model yet: choose a task and an attention, then press Train.',
      preparing: 'Generating the data and building the model…',
      training: 'Training…',
      paused: 'Paused. You can decode with the current parameters.',
      finished: 'Finished: the model holds its best validated epoch.',
      cancelled: 'Cancelled: the model keeps its best validated parameters.',
      failed: 'Training failed.',
    },
    onTrain: () => void this.train(),
    pause: async () => void (await this.engine.seq2seqPause()),
    resume: async () => void (await this.engine.seq2seqResume()),
    cancel: async () => void (await this.engine.seq2seqCancel()),
    onError: (error) => (this.error.textContent = errorMessage(error)),
    onChange: (_, busy) => {
      for (const input of [this.taskSelect, this.attentionSelect, this.epochsInput]) input.disabled = busy;
    },
  });
  private readonly readout = {
    step: el('output', { id: 's2s-step' }),
    loss: el('output', { id: 's2s-loss' }),
    validation: el('output', { id: 's2s-validation' }),
    test: el('output', { id: 's2s-test' }),
  };
  private readonly lengths = new LengthPanel(
    (value) => [...this.attentionSelect.options].find((o) => o.value === value)?.textContent ?? value,
  );
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly decoding: DecodePanel;

  constructor(private readonly engine: EngineBridge) {
    this.decoding = new DecodePanel(engine, this.element, (message) => (this.error.textContent = message));
    this.recipes = engine.call('seq2seqRecipes').then((rows) => new Map(rows.map((r) => [r.name, r])));
    void this.recipes.then(
      () => {
        if (this.epochsInput.value === '') void this.showTaskEpochs();
      },
      (error) => (this.error.textContent = errorMessage(error)),
    );
    this.build();
    this.run.refresh();
    this.lengths.showTask(this.task());
  }

  private build(): void {
    for (const [value, task] of Object.entries(TASKS))
      this.taskSelect.append(el('option', { value, textContent: task.label }));
    for (const [value, label] of [
      ['bahdanau', 'Bahdanau (additive, previous state)'],
      ['luong', 'Luong (general, current state)'],
      ['none', 'None (fixed-length context)'],
    ])
      this.attentionSelect.append(el('option', { value, textContent: label }));
    this.taskSelect.addEventListener('change', () => {
      void this.showTaskEpochs();
      this.lengths.showTask(this.task());
    });
    // A dashboard: what to train and what to decode in the side panel; the live training and the
    // alignment in the main area.
    this.element.append(
      dashboard(
        [
          trainCard(
            [
              ['Task', this.taskSelect],
              ['Attention', this.attentionSelect],
              ['Epochs', this.epochsInput],
            ],
            this.run.buttons,
            this.run.status,
          ),
          this.decoding.controls,
          viewPart(
            el('h3', {}, 'How the decoder attends'),
            formulaList('s2s-formulas', [
              ['Bahdanau score (previous decoder state)', 'e_{tj} = v^\\top \\tanh(W s_{t-1} + U h_j)'],
              ['Luong score (general, current decoder state)', 'e_{tj} = s_t^\\top W h_j'],
              ['Weights over the input', '\\alpha_{tj} = \\frac{\\exp e_{tj}}{\\sum_k \\exp e_{tk}}'],
              ['Context', 'c_t = \\sum_j \\alpha_{tj} h_j'],
              ['Luong’s output state', '\\tilde h_t = \\tanh(W_c\\,[c_t; s_t])'],
            ]),
          ),
        ],
        [
          viewPart(
            el('h3', {}, 'Training'),
            el(
              'dl',
              { className: 'train-readout' },
              readoutRow('Step', this.readout.step),
              readoutRow('Loss (last batch)', this.readout.loss),
              readoutRow('Validation exact match', this.readout.validation),
              readoutRow('Held-out exact match', this.readout.test),
            ),
            ...this.lengths.elements,
          ),
          this.decoding.result,
          this.error,
        ],
      ),
    );
  }

  private task(): TaskName {
    return this.taskSelect.value as TaskName;
  }

  /** The recipe of `task` (the engine's table). */
  private async recipe(task: TaskName): Promise<Seq2SeqRecipe> {
    const recipe = (await this.recipes).get(TASKS[task].recipe);
    if (!recipe) throw new Error(`the engine has no recipe '${TASKS[task].recipe}'`);
    return recipe;
  }

  /** The epochs input shows the chosen task's recipe. */
  private async showTaskEpochs(): Promise<void> {
    const task = this.task();
    const { settings } = await this.recipe(task);
    if (this.task() === task) this.epochsInput.value = String(settings.epochs);
  }

  private async train(): Promise<void> {
    this.error.textContent = '';
    this.latest = null;
    this.firstLoss = null;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.lengths.clear();
    this.decoding.reset();
    this.run.send('prepare');
    const task = this.task();
    const attention = this.attentionSelect.value as Attention;
    try {
      const settings = taskSettings(await this.recipe(task), attention, Number(this.epochsInput.value));
      const { info, samples } = await this.engine.seq2seqCreate(settings);
      this.decoding.ready(
        task,
        { minLen: settings.minLen, maxLen: settings.maxLen },
        samples,
        this.element.dataset.task !== task,
      );
      this.element.dataset.task = task;
      this.run.send(
        'start',
        `Training ${info.parameters.toLocaleString()} parameters (${info.attention} attention, ${info.cell} cells) on ` +
          `${info.trainExamples} pairs…`,
      );
      const outcome = await this.engine.seq2seqTrain({}, (p) => this.onProgress(p));
      this.run.send(outcome.cancelled ? 'cancel' : 'finish');
      const metrics = await this.engine.seq2seqEvaluate('test', 0);
      this.readout.test.textContent = `${percent(metrics.exactMatch)} of ${metrics.count} (token accuracy ${percent(metrics.tokenAccuracy)})`;
      this.lengths.show(task, attention, metrics.byLength, !outcome.cancelled);
    } catch (error) {
      this.error.textContent = errorMessage(error);
      this.run.send('fail');
    }
  }

  // Progress arrives up to ten times a second; render the latest once per frame.
  private onProgress(progress: Seq2SeqProgress): void {
    if (this.firstLoss === null && progress.losses.length > 0) this.firstLoss = progress.losses[0];
    const epochs = progress.epochs;
    const last = epochs[epochs.length - 1];
    if (last?.validation) {
      this.readout.validation.textContent = `${percent(last.validation.exactMatch)} after epoch ${last.epoch + 1}`;
    }
    this.latest = progress;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      const p = this.latest;
      if (!p) return;
      this.readout.step.textContent = `${p.step} of ${p.plannedSteps} (epoch ${p.epoch + 1})`;
      this.readout.step.dataset.step = String(p.step);
      this.readout.loss.textContent = p.loss.toFixed(4);
      this.readout.loss.dataset.loss = String(p.loss);
      if (this.firstLoss !== null) this.readout.loss.dataset.firstLoss = String(this.firstLoss);
    });
  }
}

export const seq2seqView: ViewDefinition = {
  id: 'seq2seq',
  title: VIEW_TITLES.seq2seq,
  mount: ({ engine, replaceParams }) => {
    const element = el('section', { className: 'seq2seq-view' });
    element.dataset.testid = 'view-seq2seq';
    const heading = el('h2', { tabIndex: -1 }, 'Seq2seq Alignment');
    const intro = el(
      'p',
      { className: 'intro' },
      'Train an encoder–decoder (a bidirectional GRU encoder and a GRU decoder) on digit reversal or date ' +
        'normalisation, then decode an input step by step: each output character attends over the input characters, ' +
        'and the rows of attention weights stack into the alignment matrix. Without attention the decoder sees the ' +
        'input only through one fixed-length vector. The Translation tab does the same on real English→French ' +
        'sentences, with BLEU, and adds the Transformer.',
    );
    // Translation trains in its own worker (the toy tab's session stays as it is), started the
    // first time the tab opens.
    const translationHost = el('div', { className: 'translation-host' });
    let translation: TranslationPanel | null = null;
    const tabs = createTabs('s2s', 'Toy tasks or translation', [
      { id: 'toy', label: 'Toy tasks', content: new Seq2SeqPanel(engine).element },
      { id: 'translation', label: 'Translation (English → French)', content: translationHost },
    ]);
    const translationPanel = () => translationHost.parentElement as HTMLElement;
    const opened = () => {
      const open = !translationPanel().hidden;
      if (open && !translation) {
        translation = new TranslationPanel(new EngineBridge());
        translationHost.append(translation.element);
      }
      return open;
    };
    const record = () => replaceParams(new URLSearchParams(opened() ? { tab: 'translation' } : {}));
    tabs.element.querySelector('[role="tablist"]')?.addEventListener('click', record);
    tabs.element.querySelector('[role="tablist"]')?.addEventListener('keyup', record);
    element.append(heading, intro, explainedIn('seq2seq'), tabs.element);
    return {
      element,
      show(params) {
        tabs.select(params.get('tab') === 'translation' ? 'translation' : 'toy');
        opened();
      },
    };
  },
};
