// Attention Lab: edit a decoder state and its annotations, pick a scoring function, and watch
// scores → softmax weights → weighted annotations → context vector, computed by the engine.
// Two experiments follow: why Transformers divide by √d_k (a d_k slider over random q, K), and
// padding/causal masks on a self-attention matrix. Every heatmap cell, hovered or focused,
// explains itself with the numbers that made it.
// This file holds the lab's state, its main controls and the editable vectors; each experiment
// is a module of its own: pipeline.ts (the main one), scaling_experiment.ts, self_attention.ts.
import type { EngineBridge } from '../../engine/bridge';
import { el } from '../dom';
import { formulaList, setTex } from '../math';
import { CONTEXT_TEX, SCORE_FORMULAS, WEIGHT_TEX } from './formulas';
import { vectorEditors } from './inputs';
import { ScorePipeline } from './pipeline';
import { ScalingExperiment } from './scaling_experiment';
import { SelfAttentionExperiment } from './self_attention';
import { SCORE_KINDS, TEMPERATURE_RANGE, defaultLabState, normalise, sameLabState, type LabState } from './state';
import { explainedIn } from '../../app/course_links';

export class AttentionLab {
  readonly element = el('section', { className: 'lab' });
  private state: LabState = defaultLabState();
  private started = false;
  private readonly engine: EngineBridge;
  private readonly onState: (state: LabState) => void;

  private readonly kindSelect = el('select', { id: 'lab-kind' });
  /** The score formula of the chosen kind, typeset (its row in `formulas`). */
  private readonly formula = el('span', { className: 'formula', id: 'lab-formula' });
  private formulaKind?: string;
  private readonly formulas = formulaList('lab-formulas', [
    ['Score', this.formula],
    ['Weight (softmax at temperature τ)', WEIGHT_TEX],
    ['Context vector', CONTEXT_TEX],
  ]);
  private readonly temperature = el('input', { id: 'lab-temperature', type: 'range' });
  private readonly temperatureValue = el('output');
  private readonly seedInput = el('input', { id: 'lab-seed', type: 'number', min: '0', step: '1' });
  private readonly reseed = el('button', { type: 'button', textContent: 'New random parameters' });
  private readonly seedLabel = el('span', { className: 'seed' });
  private readonly inputs = el('div', { className: 'lab-inputs' });
  private withParameters = new Set<string>(['general', 'additive', 'concat', 'location']);
  private readonly pipeline: ScorePipeline;
  private readonly scaling: ScalingExperiment;
  private readonly selfAttention: SelfAttentionExperiment;

  constructor(engine: EngineBridge, onState: (state: LabState) => void) {
    this.engine = engine;
    this.onState = onState;
    this.temperatureValue.setAttribute('for', 'lab-temperature');
    const change = (patch: Partial<LabState>, rerenderInputs?: boolean) => this.change(patch, rerenderInputs);
    this.pipeline = new ScorePipeline(engine);
    this.scaling = new ScalingExperiment(engine, change);
    this.selfAttention = new SelfAttentionExperiment(engine, change);
    this.build();
  }

  /** Replaces the state (e.g. from the URL) and recomputes what changed. */
  setState(next: LabState): void {
    const state = normalise(next);
    if (this.started && sameLabState(state, this.state)) return;
    const before = this.state;
    this.state = state;
    this.syncControls();
    this.renderInputs();
    this.recompute(before, !this.started);
    this.started = true;
  }

  /** Recomputes the experiments that `before` → the current state changes (all with `all`). */
  private recompute(before: LabState, all: boolean): void {
    const state = this.state;
    if (all || !this.sameMain(before)) void this.pipeline.compute(state);
    if (all || ScalingExperiment.changed(before, state)) void this.scaling.compute(state);
    if (all || SelfAttentionExperiment.changed(before, state)) void this.selfAttention.compute(state);
  }

  private sameMain(before: LabState): boolean {
    const keys: (keyof LabState)[] = ['kind', 'temperature', 'query', 'annotations', 'visible', 'seed'];
    return keys.every((k) => JSON.stringify(before[k]) === JSON.stringify(this.state[k]));
  }

  private build(): void {
    for (const kind of SCORE_KINDS) {
      this.kindSelect.append(el('option', { value: kind, textContent: SCORE_FORMULAS[kind].label }));
    }
    this.kindSelect.addEventListener('change', () => this.change({ kind: this.kindSelect.value as LabState['kind'] }));
    // The engine is the authority on which scoring functions exist and which have parameters:
    // a kind it does not know is disabled rather than failing on selection.
    this.engine.call('scoreKinds').then(
      (kinds) => {
        this.withParameters = new Set(kinds.filter((k) => k.hasParameters).map((k) => k.name));
        const known = new Set<string>(kinds.map((k) => k.name));
        for (const option of this.kindSelect.options) option.disabled = !known.has(option.value);
        this.syncControls();
      },
      () => {}, // the engine status line reports a failed start
    );

    // The slider moves in log space so 0.05..10 is usable; 0 on the slider is τ = 1.
    const [lo, hi] = TEMPERATURE_RANGE;
    Object.assign(this.temperature, { min: String(Math.log(lo)), max: String(Math.log(hi)), step: '0.01' });
    this.temperature.addEventListener('input', () => {
      const t = Math.exp(Number(this.temperature.value));
      this.change({ temperature: Number(t.toPrecision(3)) }, false);
    });
    this.seedInput.addEventListener('change', () => {
      const seed = Number(this.seedInput.value);
      if (Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 31) this.change({ seed });
    });
    this.reseed.addEventListener('click', () => this.change({ seed: (this.state.seed * 7919 + 17) % 100003 }));
    this.seedLabel.append(el('label', { htmlFor: 'lab-seed' }, 'Parameter seed '), this.seedInput, ' ', this.reseed);

    const reset = el('button', { type: 'button', textContent: 'Reset to the course example' });
    reset.addEventListener('click', () => {
      this.setState(defaultLabState());
      this.onState(this.state);
    });

    const controls = el(
      'div',
      { className: 'lab-controls' },
      el('label', { htmlFor: 'lab-kind' }, 'Scoring function '),
      this.kindSelect,
      el('label', { htmlFor: 'lab-temperature' }, 'Temperature τ '),
      this.temperature,
      this.temperatureValue,
      this.seedLabel,
      reset,
    );
    const heading = el('h2', { tabIndex: -1 }, 'Attention Lab');
    this.element.dataset.testid = 'view-lab';
    this.element.append(
      heading,
      el(
        'p',
        { className: 'intro' },
        'A decoder state s looks at annotations h₁…h_T. Each annotation gets a score, softmax turns the ' +
          'scores into weights that sum to 1, and the context vector is the weighted sum of the annotations. ' +
          'Edit any number; untick an annotation to mask it as padding. Hover or focus any cell (arrow keys ' +
          'move inside a map) to see the arithmetic behind it.',
      ),
      explainedIn('lab'),
      // Inputs and the results they drive side by side (stacked on narrow screens): changing the
      // scoring function or τ changes what is on screen (styles/lab.css .lab-workbench).
      el(
        'div',
        { className: 'lab-workbench' },
        el('div', { className: 'lab-workbench-inputs' }, controls, this.formulas, this.inputs),
        el('div', { className: 'lab-workbench-outputs' }, ...this.pipeline.elements),
      ),
      this.scaling.element,
      this.selfAttention.element,
    );
  }

  private syncControls(): void {
    const s = this.state;
    this.kindSelect.value = s.kind;
    if (this.formulaKind !== s.kind) {
      this.formulaKind = s.kind;
      setTex(this.formula, SCORE_FORMULAS[s.kind].tex, true);
    }
    this.temperature.value = String(Math.log(s.temperature));
    this.temperatureValue.textContent = `τ = ${s.temperature}`;
    this.seedInput.value = String(s.seed);
    this.seedLabel.hidden = !this.withParameters.has(s.kind);
    this.scaling.sync(s);
    this.selfAttention.sync(s);
  }

  private change(patch: Partial<LabState>, rerenderInputs = true): void {
    const before = this.state;
    this.state = normalise({ ...this.state, ...patch });
    this.syncControls();
    if (rerenderInputs) this.renderInputs();
    this.onState(this.state);
    this.recompute(before, false);
  }

  /** Rebuilds the editable vectors; called when their structure (T or D) changes. */
  private renderInputs(): void {
    this.inputs.replaceChildren(
      ...vectorEditors(
        () => this.state,
        (patch, rerender) => this.change(patch, rerender),
      ),
    );
  }
}
