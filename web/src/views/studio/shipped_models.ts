// The models the project trained on real IMDB reviews and ships with the page
// (web/public/models/, made by scripts/train-shipped-models.mjs): one click loads one into the
// Studio's engine, so the explanation and the watched reviews have a model worth reading. Also
// says what the small built-in corpus can give and where real reviews come from.
import type { EngineBridge } from '../../engine/bridge';
import type { ModelInfo } from '../../../generated/attn_engine.mjs';
import { el, errorMessage } from '../dom';
import { percent } from '../format';

/** One entry of web/public/models/manifest.json. */
export interface ShippedModel {
  file: string;
  title: string;
  model: 'bilstm-attention' | 'transformer';
  /** Accuracy on the held-out reviews, all of movies the model never saw in training. */
  heldOutAccuracy: number;
  heldOutReviews: number;
  trainingReviews: number;
  epochsRun: number;
  /** The engine's settings the model was trained with (the CLI's recipe for IMDB). */
  recipe: {
    vocabulary: number;
    maxlen: number;
    classifier: {
      encoder: string;
      pooling: string;
      score: string;
      embed_dim: number;
      units: number;
      attention_dim: number;
      layers: number;
      heads: number;
      ff_dim: number;
      bigram_buckets?: number;
    };
    trainer: { learning_rate: number; batch_size: number; schedule: string; validation_split: number };
  };
  parameters: number;
  bytes: number;
  date: string;
  command: string;
}

export interface ShippedManifest {
  models: ShippedModel[];
}

/** Where the shipped files are, relative to the page (dist/ serves web/public/ at its root). */
export function shippedUrl(file: string, base: string = document.baseURI): string {
  return new URL(`models/${file}`, base).href;
}

/** The manifest of the shipped models. */
export async function fetchShippedManifest(fetchImpl: typeof fetch = fetch): Promise<ShippedManifest> {
  const response = await fetchImpl(shippedUrl('manifest.json'));
  if (!response.ok) throw new Error(`models/manifest.json: HTTP ${response.status}`);
  return (await response.json()) as ShippedManifest;
}

/** The bytes of one shipped model file. */
export async function fetchShippedModel(file: string, fetchImpl: typeof fetch = fetch): Promise<ArrayBuffer> {
  const response = await fetchImpl(shippedUrl(file));
  if (!response.ok) throw new Error(`models/${file}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The manifest's entry for one kind of model (the Transformer view wants the Transformer). */
export async function findShippedModel(
  model: ShippedModel['model'],
  fetchImpl: typeof fetch = fetch,
): Promise<ShippedModel> {
  const found = (await fetchShippedManifest(fetchImpl)).models.find((m) => m.model === model);
  if (!found) throw new Error(`models/manifest.json lists no ${model} model`);
  return found;
}

/** "Open a trained IMDB model — 88.2% on reviews of unseen movies". */
export function shippedLabel(m: ShippedModel): string {
  const what = m.model === 'transformer' ? 'Open the trained IMDB Transformer' : 'Open a trained IMDB model';
  return `${what} — ${percent(m.heldOutAccuracy)} on reviews of unseen movies`;
}

/**
 * What a shipped model is, in a sentence: its shape, its recipe and its held-out accuracy, e.g.
 * "1 Transformer layer of 2 heads (d_model 32, feed-forward 64), mean pooling; 5,000 words, reviews
 * cut at 500 tokens; trained on 22,500 IMDB reviews (Adam 0.0005, batch 32; 10% of them set aside to
 * keep the best of 3 epochs). 86.7% on 2,500 held-out reviews of movies it never saw."
 */
export function shippedRecipe(m: ShippedModel): string {
  const c = m.recipe.classifier;
  const t = m.recipe.trainer;
  const en = (n: number) => n.toLocaleString('en');
  const pooling =
    c.pooling === 'attention' ? `${c.score} attention pooling (${c.attention_dim})` : `${c.pooling} pooling`;
  const shape =
    c.encoder === 'transformer'
      ? `${c.layers} Transformer layer${c.layers === 1 ? '' : 's'} of ${c.heads} heads (d_model ${c.embed_dim}, ` +
        `feed-forward ${c.ff_dim}), ${c.pooling} pooling`
      : c.encoder === 'none'
        ? `embeddings of ${c.embed_dim} for words and ${en(c.bigram_buckets ?? 0)} hashed bigrams, no encoder, ${pooling}`
        : `embeddings of ${c.embed_dim}, a ${c.encoder === 'bigru' ? 'BiGRU' : 'BiLSTM'} of ${c.units} units, ${pooling}`;
  const epochs = m.epochsRun === 1 ? '1 epoch' : `the best of ${m.epochsRun} epochs`;
  return (
    `${shape}; ${en(m.recipe.vocabulary)} words, reviews cut at ${m.recipe.maxlen} tokens; trained on ` +
    `${en(m.trainingReviews)} IMDB reviews (Adam ${Number(t.learning_rate.toPrecision(2))}, batch ${t.batch_size}; ` +
    `${Math.round(100 * t.validation_split)}% of them set aside to keep ${epochs}). ` +
    `${percent(m.heldOutAccuracy)} on ${en(m.heldOutReviews)} held-out reviews of movies it never saw.`
  );
}

/** What the panel needs from the Studio. */
export interface ShippedHost {
  readonly engine: EngineBridge;
  busy(): boolean;
  /** A model was loaded into the engine (the form, explanation and watched reviews follow it). */
  modelLoaded(info: ModelInfo): void;
}

export class ShippedModelsPanel {
  readonly element = el('section', { className: 'studio-shipped', id: 'shipped-models' });
  private readonly buttons = el('div', { className: 'shipped-buttons' });
  private readonly status = el('p', { role: 'status', id: 'shipped-status' });
  private readonly error = el('p', { className: 'error', role: 'alert', id: 'shipped-error' });

  constructor(private readonly host: ShippedHost) {
    this.element.setAttribute('aria-label', 'Models trained on real reviews');
    const link = el('a', {
      href: 'https://ai.stanford.edu/~amaas/data/sentiment/',
      textContent: 'the Large Movie Review Dataset',
      rel: 'noopener',
      target: '_blank',
    });
    this.element.append(
      el(
        'p',
        { className: 'shipped-note', id: 'small-corpus-note' },
        'The built-in corpus is 660 short reviews: a model trained on it reaches about 70–75 % on its 132 test ' +
          'reviews, and its attention is hard to read. For a model worth inspecting, open one trained on 22,500 ' +
          'real IMDB reviews, or train your own on ',
        link,
        ' (download aclImdb_v1.tar.gz, 84 MB, and choose it as “My file”).',
      ),
      this.buttons,
      this.status,
      this.error,
    );
    void this.list();
  }

  private async list(): Promise<void> {
    let manifest: ShippedManifest;
    try {
      manifest = await fetchShippedManifest();
    } catch (error) {
      this.error.textContent = `The trained models are not available: ${errorMessage(error)}`;
      return;
    }
    this.buttons.replaceChildren(
      ...manifest.models.map((m) => {
        const button = el('button', {
          type: 'button',
          className: m.model === 'bilstm-attention' ? 'primary' : '',
          textContent: shippedLabel(m),
          title: `${m.title}: ${m.heldOutReviews.toLocaleString('en')} held-out reviews, ${m.parameters.toLocaleString('en')} parameters, trained ${m.date}`,
        });
        button.dataset.file = m.file;
        button.addEventListener('click', () => void this.open(m));
        return button;
      }),
    );
    this.element.dataset.state = 'listed';
  }

  private async open(m: ShippedModel): Promise<void> {
    this.error.textContent = '';
    if (this.host.busy()) {
      this.error.textContent = 'Cancel the training run before opening a trained model.';
      return;
    }
    this.status.textContent = `Loading ${m.title}…`;
    try {
      const info = await this.host.engine.loadModel(await fetchShippedModel(m.file));
      this.status.textContent =
        `Opened ${m.title}: ${percent(m.heldOutAccuracy)} on ${m.heldOutReviews.toLocaleString('en')} ` +
        `reviews of movies it never saw; ${info.parameters.toLocaleString('en')} parameters. ` +
        'Explain a prediction below, or see its attention on the watched reviews.';
      this.element.dataset.loaded = m.file;
      this.host.modelLoaded(info);
    } catch (error) {
      this.status.textContent = '';
      this.error.textContent = `Could not open ${m.title}: ${errorMessage(error)}`;
    }
  }
}
