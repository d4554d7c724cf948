// Transformer view: open the Transformer the project trained on IMDB (web/public/models/, one
// click), or train (or load) a small Transformer sentiment classifier in a worker of its own, then
// look at its self-attention per layer and head — a grid of heatmaps with each layer's head
// average, a token-to-token line view of one head, what-ifs (a causal mask the model was not
// trained with, heads ablated with the change in P(positive) and in test accuracy) and the
// positional encodings the encoder adds to its embeddings. The view's own EngineBridge (created
// on first show) keeps the Sentiment Studio's model untouched. This module is the coordinator
// (the inspection of the sentence, the URL); the panels are model_panel.ts (the shipped model,
// training, model files), sentence_panel.ts (the sentence and its what-ifs), heads_panel.ts (the
// maps as small multiples), lines_panel.ts, ablation_panel.ts (heads switched off on the test
// set) and positional_panel.ts.
import { VIEW_TITLES } from '../../app/nav';
import { EngineBridge } from '../../engine/bridge';
import type { TransformerInspection } from '../../../generated/attn_engine.mjs';
import { dashboard, el, errorMessage, viewPart } from '../dom';
import './transformer.css';
import { AblationPanel } from './ablation_panel';
import { headFormulas, HeadsPanel } from './heads_panel';
import { LinesPanel } from './lines_panel';
import { ModelPanel } from './model_panel';
import { PositionalPanel } from './positional_panel';
import { SentencePanel } from './sentence_panel';
import type { ViewDefinition } from '../types';
import { explainedIn } from '../../app/course_links';

class TransformerPanel {
  readonly element = el('section', { className: 'transformer' });
  private engine: EngineBridge | null = null;
  private layers = 0;
  private headCount = 0;
  private inspectSeq = 0;

  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly showError = (message: string) => (this.error.textContent = message);
  private readonly model = new ModelPanel({
    root: this.element,
    bridge: () => this.bridge(),
    modelReady: (classifierJson) => this.modelReady(classifierJson),
    modelGone: () => this.modelGone(),
    inspect: () => this.inspect(),
    lock: (busy) => this.ablation.lock(busy),
    showError: this.showError,
  });
  private readonly sentence = new SentencePanel(() => void this.inspect());
  private readonly probabilityOut = el('output', { id: 'tf-probability' });
  private readonly heads = new HeadsPanel();
  private readonly lines = new LinesPanel(() => this.saveParams());
  private readonly positional = new PositionalPanel();
  private readonly ablation = new AblationPanel(
    () => this.bridge(),
    () => this.sentence.causalBox.checked,
    this.showError,
  );

  constructor(private readonly replaceParams: (p: URLSearchParams) => void) {
    // A dashboard: the model to train, the sentence and the what-ifs in the side panel; training,
    // every head, the line view, the ablation and the positions in the main area.
    this.element.append(
      dashboard(
        [...this.model.sideParts, this.sentence.element, headFormulas()],
        [
          this.model.readout,
          viewPart(
            el('h3', {}, 'Self-attention of the sentence'),
            el('p', {}, 'P(positive): ', this.probabilityOut),
            el(
              'p',
              { className: 'hint' },
              'Each layer’s heads side by side, then their mean, on one fixed 0–1 scale: a query’s row is its ' +
                'weights over the keys and sums to 1. Hover or focus a cell for its numbers: the score q·k/√d the ' +
                'engine computed, the softmax numerator and denominator, and the weight.',
            ),
            this.heads.element,
          ),
          this.lines.element,
          this.ablation.element,
          this.positional.element,
          this.error,
        ],
      ),
    );
    this.model.refresh();
  }

  /** The view's own worker, started on first show. */
  bridge(): EngineBridge {
    this.engine ??= new EngineBridge();
    return this.engine;
  }

  /** The URL's sentence, line-view layer/head and causal toggle; re-inspects when a model is there. */
  applyParams(params: URLSearchParams): void {
    const text = params.get('text');
    if (text !== null) this.sentence.textInput.value = text;
    this.sentence.causalBox.checked = params.get('causal') === '1';
    const layer = params.get('layer');
    const head = params.get('head');
    if (layer !== null) this.element.dataset.wantLayer = layer;
    if (head !== null) this.element.dataset.wantHead = head;
    const chosen = this.lines.choice();
    this.lines.choose(Number(layer ?? chosen.layer), Number(head ?? chosen.head));
    if (this.layers > 0) void this.inspect();
  }

  /** A new model: its size sets the grid, the ablation boxes, the line-view choices and the PE map. */
  private async modelReady(classifierJson: string): Promise<void> {
    const config = JSON.parse(classifierJson) as { layers: number; heads: number; pooling?: string };
    this.layers = config.layers;
    this.headCount = config.heads;
    this.model.showShape(config);
    this.ablation.reset(true);
    this.sentence.reset(this.layers, this.headCount);
    this.lines.reset(this.layers, this.headCount);
    this.lines.choose(Number(this.element.dataset.wantLayer ?? 0), Number(this.element.dataset.wantHead ?? 0));
    this.heads.reset(this.layers, this.headCount);
    this.model.refresh();
    await this.positional.show(this.bridge());
  }

  /** The worker now holds a model that is not a Transformer: nothing here can be inspected. */
  private modelGone(): void {
    this.layers = 0;
    this.heads.reset(0, 0);
    this.ablation.reset(false);
    this.sentence.clear();
  }

  private async inspect(): Promise<void> {
    if (this.layers === 0) return;
    const seq = ++this.inspectSeq;
    const text = this.sentence.textInput.value;
    const causal = this.sentence.causalBox.checked;
    const ablated = this.sentence.ablated();
    this.error.textContent = '';
    // data-inspecting marks maps that are not yet the latest request's (the tests wait it out).
    this.element.dataset.inspecting = '';
    try {
      const engine = this.bridge();
      const r = await engine.inspectTransformer(text, { causal, ablated });
      // With heads ablated, the change is measured against the same sentence and mask without.
      const base = ablated.length ? (await engine.inspectTransformer(text, { causal })).probability : r.probability;
      if (seq !== this.inspectSeq) return; // a newer request is on its way
      this.show(r, causal, base, ablated.length > 0);
      this.saveParams();
    } catch (error) {
      this.showError(errorMessage(error));
    } finally {
      if (seq === this.inspectSeq) delete this.element.dataset.inspecting;
    }
  }

  private saveParams(): void {
    const params = new URLSearchParams();
    params.set('text', this.sentence.textInput.value);
    const { layer, head } = this.lines.choice();
    params.set('layer', layer);
    params.set('head', head);
    if (this.sentence.causalBox.checked) params.set('causal', '1');
    this.replaceParams(params);
  }

  private show(r: TransformerInspection, causal: boolean, base: number, ablated: boolean): void {
    const change = r.probability - base;
    this.probabilityOut.textContent = ablated
      ? `${r.probability.toFixed(4)} (${change >= 0 ? '+' : ''}${change.toFixed(4)} from ${base.toFixed(4)} with all heads)`
      : r.probability.toFixed(4);
    this.probabilityOut.dataset.probability = String(r.probability);
    this.probabilityOut.dataset.change = String(change);
    this.element.dataset.causal = causal ? '1' : '0';
    this.heads.show(r, causal);
    this.lines.show(r);
  }
}

export const transformerView: ViewDefinition = {
  id: 'transformer',
  title: VIEW_TITLES.transformer,
  mount: ({ replaceParams }) => {
    const element = el('section', { className: 'transformer-view' });
    element.dataset.testid = 'view-transformer';
    const heading = el('h2', { tabIndex: -1 }, 'Transformer view');
    const intro = el(
      'p',
      { className: 'intro' },
      'Open the Transformer sentiment classifier the project trained on IMDB reviews, or train a small one here ' +
        '(in a worker of its own; the maps refresh about once a second while it trains), then look inside it: the ' +
        'self-attention of every layer and head for a sentence, each layer’s head average, a token-to-token line ' +
        'view, what happens under a causal mask or with heads switched off, and the positional encodings.',
    );
    const panel = new TransformerPanel(replaceParams);
    element.append(heading, intro, explainedIn('transformer'), panel.element);
    return {
      element,
      show(params) {
        panel.bridge();
        panel.applyParams(params);
      },
    };
  },
};
