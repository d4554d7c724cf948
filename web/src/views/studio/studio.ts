// Sentiment Studio: pick data (built-in corpus, synthetic generator, or the user's CSV / TSV /
// aclImdb .tar.gz by file picker or drop), see its statistics, choose a model and its
// hyperparameters (kept in the URL), train with live loss / accuracy charts, watch the attention
// over a few reviews change as training proceeds (every snapshot kept on a timeline), race a
// second configuration in a second worker from the same seed, train one run on two workers (data
// parallel), recover from divergence with a lower learning rate, and save / load models.
//
// This class holds the settings and the run and connects the panels: data (data_panel.ts) and
// its statistics (stats_panel.ts), the settings form (settings_form.ts), the live training
// (training_panel.ts, curves.ts), the watched reviews' timeline (timeline_panel.ts), the race
// (race.ts), saving (save_panel.ts) and the explanations (explain_panel.ts); layout.ts places
// them on the page. All engine work happens in workers (EngineBridge); the page renders once per
// animation frame at most. Text from data files (file names, reviews, tokens) is only ever set as
// text nodes.
import type { EngineBridge } from '../../engine/bridge';
import { errorKind } from '../../engine/errors';
import type { TrainingProgress } from '../../engine/protocol';
import type { DataSummary, ModelInfo } from '../../../generated/attn_engine.mjs';
import { el, errorMessage } from '../dom';
import type { RunState } from '../run_state';
import type { ViewContext } from '../types';
import { BowPanel } from './bow_panel';
import { addProgress, newCurves, SNAPSHOTS_PER_RUN, type Curves } from './curves';
import { DataPanel } from './data_panel';
import { ErrorsPanel } from './errors_panel';
import { ExplainPanel } from './explain_panel';
import { studioLayout } from './layout';
import { ChallengerRejected, Race, sideLabels } from './race';
import { baselineRecipe, loadEngineRecipes } from './recipes';
import { SavePanel } from './save_panel';
import { ShippedModelsPanel } from './shipped_models';
import {
  DEFAULTS,
  describeDifference,
  formatRate,
  modelConfig,
  settingsFromModel,
  settingsFromParams,
  settingsToParams,
  trainerSettings,
  type StudioSettings,
} from './settings';
import { SettingsForm } from './settings_form';
import { describeData, outcomeText } from './readouts';
import { percent } from '../format';
import { StatsPanel } from './stats_panel';
import { TimelinePanel } from './timeline_panel';
import { TrainingPanel } from './training_panel';

/** Progress is drawn at most this often (in an animation frame). */
const RENDER_MS = 200;

/** Resolves once the page has rendered a frame (a task after the next animation frame). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export class Studio {
  readonly element = el('section', { className: 'studio', dataset: { testid: 'view-studio' } });
  private settings: StudioSettings = { ...DEFAULTS };
  /** The run in progress or the last one (its challenger's worker is gone once it ends). */
  private race: Race | null = null;
  private curves: Curves[] = [];
  private frameRequested = false;
  private renderedAt = 0;
  private readonly explain: ExplainPanel;
  private readonly bow: BowPanel;
  private readonly errors: ErrorsPanel;
  private readonly stats: StatsPanel;
  private readonly data: DataPanel;
  private readonly form: SettingsForm;
  private readonly timeline: TimelinePanel;
  private readonly save: SavePanel;
  private readonly training: TrainingPanel;
  /** Next to Train: the loaded data in one line (and why a run would have no test figure). */
  private readonly dataLine = el('p', { id: 'train-data', className: 'train-data' }, 'Loading the data…');

  constructor(
    private readonly engine: EngineBridge,
    private readonly context: Pick<ViewContext, 'replaceParams'>,
  ) {
    const settings = () => this.settings;
    const busy = () => this.busy();
    const writeUrl = () => this.writeUrl();
    this.explain = new ExplainPanel(engine);
    this.bow = new BowPanel(
      engine,
      () => this.explain.reviewText,
      () => ({ seed: this.settings.seed, ...baselineRecipe() }),
    );
    this.explain.addComparison(this.bow.element, () => this.bow.textChanged());
    this.errors = new ErrorsPanel(engine);
    this.stats = new StatsPanel(engine, settings, () => this.data.loadedSplit);
    this.data = new DataPanel(
      {
        engine,
        settings,
        busy,
        writeUrl,
        dataLoaded: (summary) => this.dataLoaded(summary),
        dataFailed: () => {
          this.dataLine.textContent = 'Data: none loaded (the message is under Data).';
          this.dataLine.dataset.testExamples = '0';
        },
      },
      this.stats,
    );
    this.data.acceptDrops(this.element);
    this.form = new SettingsForm({
      settings,
      changed: (next) => this.settingsChanged(next),
      reviews: () => (this.stats.summary ? this.stats.summary.trainExamples + this.stats.summary.testExamples : 0),
    });
    this.timeline = new TimelinePanel(() => this.training.controls.state === 'training', busy);
    this.save = new SavePanel({
      engine,
      busy,
      settingsParams: () => settingsToParams(this.settings).toString(),
      modelLoaded: (info) => this.modelLoaded(info),
    });
    this.training = new TrainingPanel({
      train: (race) => void this.train(race),
      retry: (rate) => {
        this.form.setLearningRate(rate);
        void this.train(false);
      },
      pause: () => this.race?.pause() ?? Promise.resolve(),
      resume: () => this.race?.resume() ?? Promise.resolve(),
      cancel: () => this.race?.cancel(),
      onChange: (state, isBusy) => this.stateChanged(state, isBusy),
    });
    const shipped = new ShippedModelsPanel({ engine, busy, modelLoaded: (info) => this.modelLoaded(info) });
    this.element.append(
      ...studioLayout({
        setup: [this.dataLine, this.form.recipeLine, this.form.suggestion],
        training: this.training,
        timeline: this.timeline.element,
        data: this.data.element,
        model: this.form.elements,
        stats: this.stats.element,
        shipped: shipped.element,
        explain: this.explain.element,
        errors: this.errors.element,
        save: this.save.element,
      }),
    );
    this.training.controls.refresh();
    void this.loadRecipes();
  }

  /** The real-data presets are the engine's recipe table (the CLI's defaults), read once. */
  private async loadRecipes(): Promise<void> {
    await loadEngineRecipes(this.engine);
    this.form.recipesArrived();
  }

  /** Applies the route's parameters (first visit, links, back/forward). */
  show(params: URLSearchParams): void {
    const next = settingsFromParams(params);
    // A link cannot carry a file: fall back to the built-in corpus unless one was chosen here.
    if (next.data === 'file' && !this.data.hasFile()) next.data = 'builtin';
    const dataChanged =
      next.data !== this.settings.data ||
      (next.data === 'synthetic' &&
        (next.syntheticCount !== this.settings.syntheticCount || next.syntheticSeed !== this.settings.syntheticSeed));
    this.settings = next;
    this.writeForm();
    if ((dataChanged || !this.data.loaded) && next.data !== 'file' && !this.busy()) void this.data.load();
  }

  private writeForm(): void {
    this.form.write(this.settings);
    this.data.write(this.settings);
  }

  private writeUrl(): void {
    this.context.replaceParams(settingsToParams(this.settings));
  }

  private busy(): boolean {
    return this.training.controls.busy();
  }

  /** The form changed the settings: the statistics mark maxlen and name numWords. */
  private settingsChanged(next: StudioSettings): void {
    const redraw = next.maxlen !== this.settings.maxlen || next.numWords !== this.settings.numWords;
    this.settings = next;
    if (redraw) this.stats.render();
    this.writeUrl();
  }

  private async dataLoaded(summary: DataSummary): Promise<void> {
    this.save.setModel(false);
    this.dataLine.textContent = describeData(summary, this.data.loadedSplit.percent);
    this.training.setSplit(summary.split === 'by group' ? 'by group' : 'random');
    this.dataLine.dataset.testExamples = String(summary.testExamples);
    await this.stats.refresh(summary);
    this.bow.dataChanged();
    this.form.updateSuggestion();
  }

  /** A saved model was loaded: the form shows its architecture (Train would rebuild it from the form). */
  private modelLoaded(info: ModelInfo): void {
    this.settings = settingsFromModel(this.settings, info);
    this.writeForm();
    this.writeUrl();
    if (this.stats.has()) void this.refreshStats();
    this.modelTrained();
    void this.watchLoadedModel();
  }

  /** A loaded model's attention on the watched reviews, as one snapshot (step 0) of the timeline. */
  private async watchLoadedModel(): Promise<void> {
    const texts = this.timeline.reset(false);
    try {
      const items = await Promise.all(texts.map(async (text) => ({ text, ...(await this.engine.predict(text)) })));
      this.timeline.add(0, 0, items);
      this.timeline.render();
    } catch {
      // A model without attention pooling (mean or last) has no weights to watch.
    }
  }

  /** The engine holds a trained (or loaded) model: the explanations and its errors follow it. */
  private modelTrained(): void {
    this.explain.modelChanged({ trained: true });
    this.errors.modelChanged({ trained: true });
  }

  private async refreshStats(): Promise<void> {
    await this.stats.refresh().catch(() => undefined);
    this.form.updateSuggestion();
  }

  private stateChanged(state: RunState, busy: boolean): void {
    this.data.setBusy(busy);
    this.form.setBusy(busy);
    this.save.update();
    // While a run is followed live the watched tables refresh only now and then; when it ends
    // (or pauses) the last snapshot's tables are drawn at once, whatever the last frame skipped.
    if (!busy || state === 'paused') {
      this.timeline.invalidate();
      this.render();
    }
  }

  private async train(raceMode: boolean): Promise<void> {
    if (this.busy()) return;
    this.form.read();
    // The previous run's numbers go at once (a new run shows its own from its first step).
    this.curves = [];
    this.training.begin();
    this.timeline.stopPlay();
    const settings = { ...this.settings };
    const controls = this.training.controls;
    const race = (this.race = new Race(this.engine, settings, raceMode ? this.training.raceKind() : null));
    controls.send('prepare');
    // The "preparing" state is painted before the worker is woken: once it trains it takes a core,
    // and the click's own style and layout work would then compete with it for the other.
    await afterNextPaint();
    const raceReadout = this.training.raceReadout;
    try {
      if (!this.data.loaded || !(await this.data.loaded)) {
        if (!(await this.data.load())) throw new Error('no data: ' + this.data.error.textContent);
      }
      try {
        await this.engine.createModel(modelConfig(settings));
      } catch (error) {
        this.form.error.textContent = `Settings rejected: ${errorMessage(error)}`;
        controls.send('fail', 'Fix the highlighted setting and press Train again.');
        return;
      }
      this.save.setModel(true);
      void this.refreshStats();
      raceReadout.hidden = !race.challengerSettings;
      await race.prepare(
        () => this.data.source(),
        (text) => {
          raceReadout.hidden = false;
          raceReadout.textContent = text;
        },
      );
      this.training.setWorkers(race.workers);
      this.curves = sideLabels(settings, race.challengerSettings).map(newCurves);
      this.training.reset();
      const watched = this.timeline.reset(race.challengerSettings !== null);
      controls.send('start');
      const options = {
        ...trainerSettings(settings),
        snapshots: SNAPSHOTS_PER_RUN,
        watched,
      };
      const result = await race.train(options, (side, p) => this.onProgress(side, p));
      if ('challengerError' in result) raceReadout.textContent = `Challenger: ${errorMessage(result.challengerError)}`;
      const outcome = result.outcome;
      this.modelTrained();
      if (outcome.cancelled) {
        controls.send('cancel');
      } else {
        // No test set (a tiny file), no test figure: the engine would report 0 of 0 as 0 %.
        const hasTest = (this.stats.summary?.testExamples ?? 0) > 0;
        const test = hasTest ? await this.engine.evaluate('test') : null;
        // The numbers behind the status line, unrounded, for the benches (time to accuracy).
        controls.status.dataset.bestEpoch = String(outcome.bestEpoch + 1);
        controls.status.dataset.epochs = String(outcome.epochs);
        controls.status.dataset.steps = String(outcome.steps);
        if (test) controls.status.dataset.testAccuracy = String(test.accuracy);
        let text = outcomeText({
          steps: outcome.steps,
          epochsRun: outcome.epochs,
          epochsPlanned: settings.epochs,
          bestEpoch: outcome.bestEpoch,
          earlyStopped: outcome.earlyStopped,
          patience: settings.patience,
          testAccuracy: test ? test.accuracy : null,
        });
        const accuracyB = await race.challengerAccuracy(result);
        if (accuracyB !== null) {
          text += ` Challenger (${describeDifference(settings, race.challengerSettings!)}): ${percent(accuracyB)}.`;
          raceReadout.textContent = `Challenger test accuracy ${percent(accuracyB)}.`;
        }
        controls.send('finish', text);
      }
    } catch (error) {
      const text = errorMessage(error);
      if (error instanceof ChallengerRejected) this.form.error.textContent = `Challenger settings rejected: ${text}`;
      if (errorKind(error) === 'diverged') {
        this.modelTrained();
        this.training.showDiverged(text, settings.learningRate);
        controls.send('diverge', `Training diverged at learning rate ${formatRate(settings.learningRate)}.`);
      } else {
        this.training.error.textContent = text;
        controls.send('fail');
      }
    } finally {
      race.dispose();
      this.render();
    }
  }

  private onProgress(side: number, p: TrainingProgress): void {
    const c = this.curves[side];
    if (!c) return;
    addProgress(c, p, this.settings.epochs);
    if (side === 0)
      for (const e of p.epochs)
        if (e.validation) this.training.showValidation(e.validation.loss, e.validation.accuracy);
    if (p.snapshot) this.timeline.add(side, p.snapshot.step, p.snapshot.items);
    if (this.frameRequested) return;
    this.frameRequested = true;
    // At most RENDER_MS apart, in an animation frame: the page's drawing (software raster without
    // a GPU) must leave the CPU to the workers that train.
    const wait = Math.max(0, this.renderedAt + RENDER_MS - performance.now());
    window.setTimeout(
      () =>
        requestAnimationFrame(() => {
          this.frameRequested = false;
          this.renderedAt = performance.now();
          this.render();
        }),
      wait,
    );
  }

  private render(): void {
    this.training.render(this.curves, this.curves.length > 1, this.busy());
    this.timeline.render();
  }
}
