// The Studio's model and hyperparameter form: a recipe to start from, one input per setting
// (their values live in the URL through the Studio), and the suggestion of the real-data recipe
// when a large data set is loaded. The engine checks the values; its message shows under the form.
import { el } from '../dom';
import {
  applyRecipe,
  hasEngineRecipes,
  matchingRecipe,
  RECIPE_LABELS,
  suggestsRealDataRecipe,
  type RecipeName,
} from './recipes';
import { CHOICES, formatRate, type StudioSettings } from './settings';

/** What the form needs from the Studio. */
export interface SettingsHost {
  settings(): StudioSettings;
  /** The form changed the settings (the Studio keeps them, redraws what depends on them, writes the URL). */
  changed(next: StudioSettings): void;
  /** How many reviews the loaded data has (0: none). */
  reviews(): number;
}

export class SettingsForm {
  /** The form and its error (the Studio places them in the side panel). */
  readonly elements: HTMLElement[];
  /**
   * What the next run will train with, in one line, and the suggestion of the real-data recipe:
   * the Studio shows them next to Train, so the first click never trains with settings the
   * learner has not seen.
   */
  readonly recipeLine = el('p', { id: 'train-recipe', className: 'train-recipe' });
  readonly error = el('p', { className: 'error', role: 'alert', id: 'settings-error' });
  private readonly inputs = new Map<keyof StudioSettings, HTMLInputElement | HTMLSelectElement>();
  private readonly recipeSelect = el('select', { id: 'set-recipe' });
  readonly suggestion = el('div', {
    className: 'recipe-suggestion',
    id: 'recipe-suggestion',
    role: 'status',
    hidden: true,
  });
  private readonly suggestionText = el('p', {});
  private readonly suggestionButton = el('button', {
    type: 'button',
    id: 'recipe-suggestion-apply',
    textContent: `Use the recommended recipe (${RECIPE_LABELS.imdb})`,
  });

  constructor(private readonly host: SettingsHost) {
    const form = el('fieldset', { className: 'studio-settings' }, el('legend', {}, 'Model and hyperparameters'));
    const row = (control: HTMLInputElement | HTMLSelectElement, label: string) =>
      form.append(el('div', { className: 'setting' }, el('label', { htmlFor: control.id }, label), control));
    const select = (key: keyof typeof CHOICES & keyof StudioSettings, label: string, names: Record<string, string>) => {
      const s = el('select', { id: `set-${key}` });
      for (const value of CHOICES[key]) if (names[value]) s.append(el('option', { value, textContent: names[value] }));
      this.inputs.set(key, s);
      row(s, label);
    };
    const number = (key: keyof StudioSettings, label: string, step = '1') => {
      const input = el('input', { id: `set-${key}`, type: 'number', step });
      this.inputs.set(key, input);
      row(input, label);
    };
    for (const name of Object.keys(RECIPE_LABELS) as RecipeName[]) {
      // "imdb" waits for the engine's recipe table (recipesArrived).
      this.recipeSelect.append(
        el('option', {
          value: name,
          textContent: RECIPE_LABELS[name],
          disabled: name === 'imdb' && !hasEngineRecipes(),
        }),
      );
    }
    this.recipeSelect.append(
      el('option', { value: 'custom', textContent: 'Custom (changed by hand)', disabled: true }),
    );
    this.recipeSelect.addEventListener('change', () => this.useRecipe(this.recipeSelect.value as RecipeName));
    row(this.recipeSelect, 'Recipe');
    select('encoder', 'Encoder', {
      bilstm: 'Bidirectional LSTM',
      bigru: 'Bidirectional GRU',
      transformer: 'Transformer',
      none: 'None (words + bigrams)',
    });
    select('pooling', 'Pooling', { attention: 'Attention', last: 'Last state', mean: 'Mean' });
    select('score', 'Attention score', {
      additive: 'Additive (Bahdanau)',
      dot: 'Dot',
      scaled_dot: 'Scaled dot',
      general: 'General (bilinear)',
    });
    number('embedDim', 'Embedding size');
    number('units', 'Units');
    number('bigramBuckets', 'Bigram buckets (0 = words only)');
    number('maxlen', 'Max length (tokens)');
    number('numWords', 'Vocabulary size');
    number('epochs', 'Epochs');
    number('batchSize', 'Batch size');
    number('learningRate', 'Learning rate', 'any');
    number('dropout', 'Dropout', 'any');
    number('wordDropout', 'Word dropout', 'any');
    select('schedule', 'Learning-rate schedule', {
      constant: 'Constant',
      linear: 'Linear decay',
      cosine: 'Cosine decay',
      inverse_sqrt: 'Inverse square root',
    });
    number('patience', 'Early-stopping patience (0 = off)');
    number('seed', 'Seed');
    // Both cores for one run: the batch is split between two engine workers (not in a race,
    // whose two sides already take a worker each).
    select('workers', 'Workers (cores) per run', { '1': '1', '2': '2' });
    for (const input of this.inputs.values()) input.addEventListener('change', () => this.read());
    this.suggestionButton.addEventListener('click', () => this.useRecipe('imdb'));
    this.suggestion.append(this.suggestionText, this.suggestionButton);
    this.elements = [form, this.error];
  }

  /** Shows `settings` in the inputs and names the recipe they match. */
  write(settings: StudioSettings): void {
    for (const [key, input] of this.inputs) {
      const value = settings[key];
      input.value = key === 'learningRate' ? formatRate(value as number) : String(value);
    }
    this.recipeSelect.value = matchingRecipe(settings) ?? 'custom';
    this.describe();
  }

  /** Takes the inputs' values into the settings. */
  read(): void {
    const next = { ...this.host.settings() } as Record<string, string | number>;
    for (const [key, input] of this.inputs) next[key] = key in CHOICES ? input.value : Number(input.value);
    this.error.textContent = '';
    this.host.changed(next as unknown as StudioSettings);
    this.recipeSelect.value = matchingRecipe(this.host.settings()) ?? 'custom';
    this.updateSuggestion();
  }

  /** Sets the learning rate (the retry after a divergence) as if typed. */
  setLearningRate(rate: number): void {
    this.inputs.get('learningRate')!.value = formatRate(rate);
    this.read();
  }

  /** The engine's recipe table is in: every preset can be chosen, and the form names the one it matches. */
  recipesArrived(): void {
    for (const option of this.recipeSelect.options) option.disabled = option.value === 'custom';
    this.recipeSelect.value = matchingRecipe(this.host.settings()) ?? 'custom';
    this.updateSuggestion();
  }

  setBusy(busy: boolean): void {
    for (const input of [...this.inputs.values(), this.recipeSelect, this.suggestionButton]) input.disabled = busy;
  }

  /** The real-data recipe is suggested while a large data set is loaded and the form differs from it. */
  updateSuggestion(): void {
    this.describe();
    const reviews = this.host.reviews();
    const show = suggestsRealDataRecipe(this.host.settings(), reviews);
    this.suggestion.hidden = !show;
    this.suggestionText.textContent = show
      ? `${reviews} reviews are loaded: a data set this large trains better with the “${RECIPE_LABELS.imdb}” recipe ` +
        '(the command line’s settings for real reviews: longer reviews, dropout, a decaying learning rate, early stopping).'
      : '';
  }

  /** The recipe line next to Train: the recipe's name (or "your own settings") and its main values. */
  private describe(): void {
    const s = this.host.settings();
    const recipe = matchingRecipe(s);
    const option = (key: 'encoder' | 'pooling') =>
      [...(this.inputs.get(key) as HTMLSelectElement).options].find((o) => o.value === s[key])?.textContent ?? s[key];
    this.recipeLine.dataset.recipe = recipe ?? 'custom';
    this.recipeLine.textContent =
      `Recipe: ${recipe ? RECIPE_LABELS[recipe] : 'your own settings'} — ${option('encoder')}, ` +
      `${option('pooling').toLowerCase()} pooling, ${s.epochs} epochs, reviews cut at ${s.maxlen} tokens, ` +
      `learning rate ${formatRate(s.learningRate)}. Change it under Model.` +
      (s.encoder === 'none' && s.workers === '2' && s.bigramBuckets > 0
        ? ' With 2 workers every step sends the whole gradient, bigram table included, between them: for ' +
          'this model that costs more than the second core saves, and 1 worker trains it faster.'
        : '');
  }

  /** Fills the settings with a recipe's values and shows them. */
  private useRecipe(name: RecipeName): void {
    const next = applyRecipe(name, this.host.settings());
    this.write(next);
    this.host.changed(next);
    this.updateSuggestion();
  }
}
