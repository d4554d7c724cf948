// Attention on the watched reviews while training: every snapshot the engine sends is kept on a
// timeline (thinned evenly beyond MAX_SNAPSHOTS) that follows the run live, can be scrubbed or
// played back, and shows each review's pooling weights as a token strip and as a heatmap or
// links (in a race: A, B and B − A).
import { prefersReducedMotion } from '../../app/theme';
import type { WatchedAttention } from '../../engine/protocol';
import { el } from '../dom';
import { createHeatmap, formatValue, type Heatmap } from '../heatmap';
import { attentionModeToggle, createLinkView, type AttentionMode, type LinkView } from '../link_view';
import {
  addSnapshot,
  differenceStrength,
  flatten,
  snapshotKey,
  watchedRows,
  weightDifference,
  type Snapshot,
} from './curves';

export const WATCHED = ['the acting was not good', 'a wonderful film with a moving story'];
const PLAY_MS = 250;
/** While a run is followed live, the watched tables (the costly part to paint) refresh this often. */
const TABLES_MS = 2000;

interface WatchedView {
  stripA: HTMLParagraphElement;
  stripB: HTMLParagraphElement;
  stripDiff: HTMLParagraphElement;
  heatmap: Heatmap;
  /** The same pooling weights as lines from the pooling query to every token. */
  links: LinkView;
}

export class TimelinePanel {
  readonly element: HTMLElement;
  private readonly input = el('textarea', { id: 'watched-text', rows: 2, value: WATCHED.join('\n') });
  private readonly watched = el('div', { className: 'watched', id: 'train-watched' });
  private readonly slider = el('input', {
    id: 'timeline',
    type: 'range',
    min: '0',
    max: '0',
    value: '0',
    disabled: true,
  });
  private readonly stepOut = el('output', { id: 'timeline-step' });
  private readonly playButton = el('button', {
    type: 'button',
    textContent: 'Play',
    id: 'timeline-play',
    disabled: true,
  });
  private snapshots: Snapshot[] = [];
  private views: WatchedView[] = [];
  private texts: string[] = [];
  private mode: AttentionMode = 'heatmap';
  private race = false;
  private following = true;
  private playTimer: number | null = null;
  private shown = '';
  private tablesDrawn = 0;

  /** `live()`: a run is being followed as it trains (tables then refresh only every TABLES_MS). */
  constructor(
    private readonly live: () => boolean,
    busy: () => boolean,
  ) {
    this.slider.addEventListener('input', () => {
      this.following = Number(this.slider.value) === this.snapshots.length - 1;
      this.show(Number(this.slider.value));
    });
    this.playButton.addEventListener('click', () => this.togglePlay());
    this.input.addEventListener('change', () => {
      if (!busy()) this.texts = this.list();
    });
    this.element = el(
      'div',
      { className: 'studio-watched' },
      el('h4', {}, 'Attention on watched reviews while training'),
      el('label', { htmlFor: 'watched-text' }, 'Watched reviews (one per line, up to 5; used from the next run)'),
      this.input,
      el(
        'div',
        { className: 'timeline' },
        el('label', { htmlFor: 'timeline' }, 'Snapshot '),
        this.slider,
        this.stepOut,
        this.playButton,
      ),
      attentionModeToggle('watched-mode', (mode) => this.showAs(mode)),
      this.watched,
    );
    this.texts = this.list();
  }

  private list(): string[] {
    return this.input.value
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 5);
  }

  /** Starts a new run's timeline; returns the reviews to watch. `race`: two sides to show. */
  reset(race: boolean): string[] {
    this.stopPlay();
    this.texts = this.list();
    this.race = race;
    this.snapshots = [];
    this.shown = '';
    this.following = true;
    this.watched.replaceChildren();
    this.views = this.texts.map((text, i) => {
      const stripA = el('p', { className: 'predict-tokens token-strip' });
      const stripB = el('p', { className: 'token-strip', hidden: !race });
      const stripDiff = el('p', { className: 'token-strip diff-strip', hidden: !race });
      const heatmap = createHeatmap(`Attention weights on watched review ${i + 1}`, `watched-${i}`, {
        numbers: 'on-demand',
      });
      const links = createLinkView(`Pooling weights on watched review ${i + 1}`, `watched-links-${i}`, {
        threshold: 0.005,
        rowsName: 'the pooling query',
        colsName: 'the tokens',
      });
      links.setVisible(this.mode === 'links');
      this.watched.append(
        el(
          'div',
          { className: 'watched-review' },
          el('p', { className: 'watched-text' }, `“${text}”`),
          stripA,
          stripB,
          stripDiff,
          heatmap.element,
          links.element,
        ),
      );
      return { stripA, stripB, stripDiff, heatmap, links };
    });
    this.slider.max = '0';
    this.slider.value = '0';
    this.slider.disabled = true;
    this.playButton.disabled = true;
    this.stepOut.textContent = '';
    return this.texts;
  }

  add(side: number, step: number, items: WatchedAttention[]): void {
    this.snapshots = addSnapshot(this.snapshots, side, step, items);
  }

  /** The next frame draws the shown snapshot again, whatever it skipped while live. */
  invalidate(): void {
    this.shown = '';
  }

  /** Follows the newest snapshot (unless scrubbed or playing) and draws it if it changed. */
  render(): void {
    const n = this.snapshots.length;
    if (!n) return;
    this.slider.disabled = false;
    this.playButton.disabled = false;
    this.slider.max = String(n - 1);
    if (this.following && this.playTimer === null) this.slider.value = String(n - 1);
    const index = Number(this.slider.value);
    // Only a different snapshot (or the other side's half arriving) is worth a redraw.
    if (snapshotKey(this.snapshots, index) !== this.shown) this.show(index);
  }

  /** Shows snapshot `index` in the strips and heatmaps of the watched reviews. */
  private show(index: number): void {
    index = Math.max(0, Math.min(index, this.snapshots.length - 1));
    const snap = this.snapshots[index];
    if (!snap) return;
    this.shown = snapshotKey(this.snapshots, index);
    this.stepOut.textContent = `step ${snap.step} (${index + 1} of ${this.snapshots.length})`;
    this.slider.setAttribute('aria-valuetext', `step ${snap.step}`);
    this.watched.dataset.step = String(snap.step);
    const live = this.live() && this.following;
    const now = performance.now();
    const tablesDue = now - this.tablesDrawn >= TABLES_MS;
    if (!live || tablesDue) this.tablesDrawn = now;
    const race = this.race;
    this.views.forEach((view, i) => {
      const a = snap.a?.[i];
      const b = snap.b?.[i];
      const tokens = a?.tokens ?? b?.tokens ?? [];
      const wa = a?.weights ?? new Float32Array(0);
      const wb = b?.weights ?? new Float32Array(0);
      showStrip(view.stripA, a ? `A: P(positive) = ${a.probability.toFixed(2)}: ` : '', a?.tokens ?? [], wa);
      view.stripB.hidden = view.stripDiff.hidden = !race;
      if (race) {
        showStrip(view.stripB, b ? `B: P(positive) = ${b.probability.toFixed(2)}: ` : '', b?.tokens ?? [], wb);
        const diff = weightDifference(wa, wb, tokens.length);
        showDiffStrip(view.stripDiff, tokens, diff, differenceStrength(diff, wa, wb));
      }
      // While following a live run the tables refresh every TABLES_MS; scrubbing, a paused or a
      // finished run shows every snapshot's numbers at once.
      if (live && !tablesDue) return;
      const rows = watchedRows(wa, wb, tokens, race);
      if (!rows.length) {
        view.heatmap.element.hidden = true;
        return;
      }
      view.heatmap.element.hidden = this.mode === 'links';
      // Pooling: one query (per model) to every token; drawn only while the link view is shown.
      const pools = rows.filter((r) => r.label !== 'B − A');
      view.links.update({
        values: flatten(pools, tokens.length),
        rows: pools.length,
        cols: tokens.length,
        rowLabels: pools.map((r) => (race ? `pooling ${r.label}` : 'pooling')),
        colLabels: tokens,
      });
      view.heatmap.update({
        values: flatten(rows, tokens.length),
        rows: rows.length,
        cols: tokens.length,
        rowLabels: rows.map((r) => r.label),
        colLabels: tokens,
        rowScales: rows.map((r) => r.kind),
      });
    });
  }

  /** The watched reviews' attention as heatmaps or as links (the other one is hidden and not drawn). */
  private showAs(mode: AttentionMode): void {
    this.mode = mode;
    this.watched.dataset.mode = mode;
    for (const view of this.views) {
      if (view.heatmap.current()) view.heatmap.element.hidden = mode === 'links';
      view.links.setVisible(mode === 'links');
    }
  }

  private togglePlay(): void {
    if (this.playTimer !== null) {
      this.stopPlay();
      return;
    }
    if (this.snapshots.length < 2) return;
    // Reduced motion: no animation, just the first snapshot, then the user scrubs.
    if (prefersReducedMotion()) {
      this.slider.value = '0';
      this.following = false;
      this.show(0);
      return;
    }
    let index = Number(this.slider.value) >= this.snapshots.length - 1 ? 0 : Number(this.slider.value);
    this.following = false;
    this.playButton.textContent = 'Stop';
    this.playButton.setAttribute('aria-pressed', 'true');
    const tick = () => {
      this.slider.value = String(index);
      this.show(index);
      index += 1;
      if (index >= this.snapshots.length) {
        this.following = true;
        this.stopPlay();
      } else this.playTimer = window.setTimeout(tick, PLAY_MS);
    };
    tick();
  }

  stopPlay(): void {
    if (this.playTimer !== null) window.clearTimeout(this.playTimer);
    this.playTimer = null;
    this.playButton.textContent = 'Play';
    this.playButton.removeAttribute('aria-pressed');
  }
}

/**
 * Shows `label` then one span per token in `container`. The spans of the same tokens are reused
 * from the last call (a live run or a scrubbed timeline changes only the weights), so a new
 * snapshot restyles them instead of laying out new text.
 */
function tokenSpans(container: HTMLElement, label: string, tokens: string[]): HTMLSpanElement[] {
  const key = JSON.stringify(tokens);
  if (container.dataset.tokens !== key) {
    container.dataset.tokens = key;
    container.replaceChildren(
      document.createTextNode(label),
      ...tokens.map((token) => el('span', { textContent: token })),
    );
  } else if (container.firstChild?.textContent !== label) container.firstChild!.textContent = label;
  return [...container.querySelectorAll<HTMLSpanElement>(':scope > span')];
}

/** A label, then each token with its weight as background strength (relative to the largest). */
function showStrip(container: HTMLElement, label: string, tokens: string[], weights: ArrayLike<number>): void {
  let max = 1e-9;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, weights[i]);
  tokenSpans(container, label, tokens).forEach((span, i) => {
    const w = weights[i];
    span.className = 'token';
    span.title = w === undefined ? 'no attention weights' : `attention ${formatValue(w)}`;
    span.style.setProperty('--weight', w === undefined ? '0' : (w / max).toFixed(3));
    if (w !== undefined) span.dataset.weight = String(w);
    else delete span.dataset.weight;
  });
}

/**
 * Tokens coloured by B − A: blue where B attends more, orange where A does (with the sign in the
 * title), as strongly as `strength` (curves.ts differenceStrength) says.
 */
function showDiffStrip(container: HTMLElement, tokens: string[], diff: number[], strength: number[]): void {
  tokenSpans(container, 'B − A: ', tokens).forEach((span, i) => {
    const d = diff[i];
    span.className = `token ${d >= 0 ? 'more-b' : 'more-a'}`;
    span.title = `B − A = ${formatValue(d)}`;
    span.style.setProperty('--weight', strength[i].toFixed(3));
    span.dataset.diff = String(d);
  });
}
