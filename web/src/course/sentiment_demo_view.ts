// Lesson 10's sentiment model: trains the Studio's attention classifier (its recipes: 'builtin'
// for the built-in corpus, 'imdb' for an aclImdb archive the learner picks) in the engine worker's
// sentiment session, through the same bridge calls the Studio makes (loadData, createModel, train,
// evaluate) — or opens, in one click, the BiLSTM-attention model the project trained on IMDB
// (web/public/models/, the Studio's loadModel path) — then reads its attention on the learner's
// own sentences: P(positive) and the weight of every token.
import type { EngineBridge } from '../engine/bridge';
import { createLineChart } from '../views/chart';
import { el } from '../views/dom';
import { createHeatmap } from '../views/heatmap';
import { applyRecipe, loadEngineRecipes } from '../views/studio/recipes';
import { DEFAULTS, modelConfig, trainerSettings, type StudioSettings } from '../views/studio/settings';
import type { SentimentDemo } from './lessons/types';
import type { ProgressStore } from './progress';
import { claimSentimentSession, ownsSentimentSession } from './sentiment_owner';
import { percent, quickMode } from '../views/format';
import { fetchShippedModel, findShippedModel, shippedLabel, shippedRecipe } from '../views/studio/shipped_models';

/** The bridge calls the demo needs (the page's EngineBridge). */
export type SentimentEngine = Pick<
  EngineBridge,
  'loadData' | 'createModel' | 'train' | 'cancel' | 'evaluate' | 'predict' | 'call' | 'loadModel'
>;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The Studio's settings for this data: its recipe, the demo's model shape, the quick overrides. */
export function sentimentSettings(demo: SentimentDemo, data: 'builtin' | 'archive', quick: boolean): StudioSettings {
  const recipe = applyRecipe(data === 'builtin' ? 'builtin' : 'imdb', { ...DEFAULTS, ...demo.shape });
  return { ...recipe, ...(quick ? demo.quick : {}) };
}

export function createSentimentDemoView(
  demo: SentimentDemo,
  engine: SentimentEngine,
  progress: ProgressStore,
): HTMLElement {
  const name = `sentiment-data-${demo.id}`;
  const builtin = el('input', { type: 'radio', name, value: 'builtin', checked: true });
  const archive = el('input', { type: 'radio', name, value: 'archive' });
  const fileInput = el('input', { type: 'file', accept: '.tar.gz,.tgz,.gz', disabled: true });
  fileInput.setAttribute('aria-label', 'aclImdb archive (.tar.gz)');
  fileInput.dataset.testid = 'sentiment-archive';
  for (const radio of [builtin, archive]) {
    radio.addEventListener('change', () => {
      fileInput.disabled = !archive.checked;
    });
  }
  const trainButton = el('button', { type: 'button', className: 'primary' }, 'Train the classifier');
  // The model the project trained on 22,500 IMDB reviews: a model worth reading, one click away.
  const shippedButton = el('button', {
    type: 'button',
    disabled: true,
    dataset: { testid: 'sentiment-shipped' },
    textContent: 'Open the model trained on IMDB',
  });
  const status = el('p', { role: 'status' }, 'Choose the data and train, or open the model trained on IMDB.');
  const bar = el('progress', { max: 1, value: 0, hidden: true });
  const chart = createLineChart({
    title: 'Training loss of the sentiment model',
    testId: `sentiment-loss-${demo.id}`,
    xLabel: 'step',
    yLabel: 'batch loss',
  });
  chart.element.hidden = true;
  const outcome = el('dl', { className: 'sentiment-outcome' });

  const sentence = el('input', { type: 'text', value: demo.example, className: 'sentiment-sentence' });
  sentence.setAttribute('aria-label', 'Your sentence');
  const readButton = el('button', { type: 'button', disabled: true }, 'Read its attention');
  const reading = el('div', { className: 'sentiment-reading', dataset: { testid: 'sentiment-reading' } });
  const reader = el(
    'div',
    { className: 'sentiment-reader' },
    el('label', {}, 'Your sentence ', sentence),
    readButton,
    reading,
  );

  const root = el(
    'section',
    { className: 'training sentiment-demo', dataset: { testid: `sentiment-${demo.id}`, state: 'idle' } },
    el('h3', {}, 'Train or open a sentiment model, then read its attention'),
    el(
      'fieldset',
      { className: 'sentiment-data' },
      el('legend', {}, 'Data'),
      el('label', {}, builtin, ' the built-in corpus (a few seconds)'),
      el('label', {}, archive, ' an aclImdb archive from your disk (aclImdb_v1.tar.gz; a few minutes) ', fileInput),
    ),
    el('div', { className: 'buttons' }, trainButton, shippedButton),
    status,
    bar,
    chart.element,
    outcome,
    reader,
  );
  const setState = (state: string, text: string) => {
    root.dataset.state = state;
    status.textContent = text;
  };

  let token = 0;
  let running = false;
  let stopped = false;
  trainButton.addEventListener('click', async () => {
    if (running) {
      stopped = true;
      void engine.cancel();
      return;
    }
    const file = archive.checked ? fileInput.files?.[0] : undefined;
    if (archive.checked && !file) {
      setState('error', 'Choose an aclImdb archive (.tar.gz) first, or train on the built-in corpus.');
      return;
    }
    running = true;
    stopped = false;
    shippedButton.disabled = true;
    trainButton.textContent = 'Stop';
    readButton.disabled = true;
    outcome.replaceChildren();
    reading.replaceChildren();
    delete reading.dataset.state;
    delete root.dataset.model;
    token = claimSentimentSession();
    try {
      // The real-data recipe is the engine's table (train/recipes.hpp), fetched once.
      await loadEngineRecipes(engine);
      const settings = sentimentSettings(demo, file ? 'archive' : 'builtin', quickMode());
      bar.hidden = false;
      bar.removeAttribute('value');
      setState('loading', file ? `Reading ${file.name}…` : 'Loading the built-in reviews…');
      const summary = await engine.loadData(
        file ? { kind: 'bytes', bytes: await file.arrayBuffer(), name: file.name } : { kind: 'builtin' },
        (p) => {
          if (p.bytesTotal > 0) bar.value = p.bytesRead / p.bytesTotal;
          status.textContent = `Reading ${file?.name ?? ''}… ${p.examples} reviews so far`;
        },
      );
      if (stopped) throw new Error('stopped');
      await engine.createModel(modelConfig(settings));
      setState('training', `Training on ${summary.trainExamples} reviews…`);
      const xs: number[] = [];
      const ys: number[] = [];
      chart.element.hidden = false;
      const run = await engine.train(trainerSettings(settings), (p) => {
        if (!root.isConnected) void engine.cancel();
        for (const loss of p.losses) {
          xs.push(xs.length + 1);
          ys.push(loss);
        }
        bar.max = Math.max(1, p.plannedSteps);
        bar.value = p.step;
        status.textContent =
          `Training on ${summary.trainExamples} reviews: step ${p.step} of ${p.plannedSteps} ` +
          `(epoch ${p.epoch + 1} of ${settings.epochs}), batch loss ${p.loss.toFixed(3)}`;
        chart.update([{ name: 'batch loss', xs, ys }]);
      });
      if (stopped || run.cancelled) throw new Error('stopped');
      const test = await engine.evaluate('test');
      outcome.replaceChildren(
        el('dt', {}, 'data'),
        el('dd', {}, `${summary.source}: ${summary.trainExamples} training and ${summary.testExamples} test reviews`),
        el('dt', {}, 'training'),
        el('dd', {}, `${run.steps} steps, ${run.elapsed.toFixed(1)} s`),
        el('dt', {}, 'test accuracy'),
        el('dd', { dataset: { testid: 'sentiment-accuracy' } }, percent(test.accuracy)),
      );
      progress.markTrained(demo.id);
      readButton.disabled = false;
      setState('trained', 'Trained. Type a sentence of your own and read the model’s attention on it.');
      void read();
    } catch (error) {
      token = 0;
      if (message(error) === 'stopped') setState('stopped', 'Stopped.');
      else setState('error', `${file ? `Could not train on ${file.name}` : 'Training failed'}: ${message(error)}`);
    } finally {
      running = false;
      shippedButton.disabled = false;
      bar.hidden = true;
      trainButton.textContent = 'Train again';
    }
  });

  void findShippedModel('bilstm-attention').then(
    (m) => {
      shippedButton.textContent = shippedLabel(m);
      shippedButton.disabled = running;
      shippedButton.addEventListener('click', async () => {
        if (running) return;
        running = true;
        trainButton.disabled = true;
        shippedButton.disabled = true;
        readButton.disabled = true;
        outcome.replaceChildren();
        reading.replaceChildren();
        delete reading.dataset.state;
        chart.element.hidden = true;
        token = claimSentimentSession();
        setState('loading', `Loading ${m.title}…`);
        try {
          await engine.loadModel(await fetchShippedModel(m.file));
          outcome.replaceChildren(
            el('dt', {}, 'model'),
            el('dd', {}, `${m.title}: ${shippedRecipe(m)}`),
            el('dt', {}, 'held-out accuracy'),
            el('dd', { dataset: { testid: 'sentiment-accuracy' } }, percent(m.heldOutAccuracy)),
          );
          root.dataset.model = m.file;
          readButton.disabled = false;
          setState('trained', 'Opened. Type a sentence of your own and read the model’s attention on it.');
          void read();
        } catch (error) {
          token = 0;
          setState('error', `Could not open ${m.title}: ${message(error)}`);
        } finally {
          running = false;
          trainButton.disabled = false;
          shippedButton.disabled = false;
          // Disabled while it loaded, the button lost the focus: give it back (keyboard users).
          if (document.activeElement === document.body) shippedButton.focus({ preventScroll: true });
        }
      });
    },
    (error: unknown) => {
      shippedButton.hidden = true;
      status.textContent += ` (The trained model is not available: ${message(error)}.)`;
    },
  );

  const read = async () => {
    if (!ownsSentimentSession(token)) {
      readButton.disabled = true;
      reading.replaceChildren(el('p', {}, 'Another demo has trained a model since: train this one again.'));
      reading.dataset.state = 'stale';
      return;
    }
    const text = sentence.value.trim();
    if (!text) {
      reading.replaceChildren(el('p', {}, 'Type a sentence first.'));
      return;
    }
    reading.dataset.state = 'reading';
    try {
      const p = await engine.predict(text);
      const heatmap = createHeatmap('attention weight of every token', 'sentiment-weights');
      heatmap.update({
        values: p.weights,
        rows: 1,
        cols: p.tokens.length,
        rowLabels: ['α'],
        colLabels: p.tokens,
        // From 0 to the largest weight: a long sentence's weights are all small, and the colour
        // should still show which tokens stand out.
        range: [0, Math.max(1e-6, ...p.weights)],
      });
      const top = p.tokens
        .map((token, i) => ({ token, weight: p.weights[i] }))
        .sort((a, b) => b.weight - a.weight)
        .slice(0, 3);
      reading.replaceChildren(
        el(
          'p',
          { dataset: { testid: 'sentiment-probability' } },
          `P(positive) = ${p.probability.toFixed(3)}: the model reads this as ${p.probability > 0.5 ? 'positive' : 'negative'}.`,
        ),
        el('p', {}, `Most attended: ${top.map((t) => `“${t.token}” (${percent(t.weight)})`).join(', ')}.`),
        heatmap.element,
      );
      reading.dataset.state = 'read';
    } catch (error) {
      reading.replaceChildren(el('p', {}, `The model could not read it: ${message(error)}`));
      reading.dataset.state = 'error';
    }
  };
  readButton.addEventListener('click', () => void read());
  sentence.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !readButton.disabled) void read();
  });
  return root;
}
