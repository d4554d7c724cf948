// The link view: attention drawn as lines between two columns of tokens (queries or output tokens
// on the left, keys or source tokens on the right), one line per pair whose weight is at least a
// threshold, its opacity and width from the weight (views/links.ts decides which and how strong).
// Hovering or focusing a token isolates its links and lists them in a live region. The tokens are
// buttons in one tab stop (roving tabindex): arrow keys move up and down a column and across to
// the other, Home/End jump, Escape shows every link again.
//
// Redrawing is cheap enough to follow a training run: the token buttons are kept while the labels
// stay the same, the SVG lines are a pool reused from one snapshot to the next (only attributes
// change), and nothing reads layout. While the view is hidden, updates are only stored and drawn
// when it is shown.
import './link_view.css';
import { el } from './dom';
import { formatValue } from './heatmap';
import { linksAbove, linkTouches, strongestPerRow, type Link, type LinkData, type LinkSide } from './links';

export interface LinkViewOptions {
  /** Pairs with a smaller weight get no line (default 0.01). */
  threshold?: number;
  /** What the left and right columns are, for the caption and the screen-reader text. */
  rowsName?: string;
  colsName?: string;
}

export interface LinkView {
  readonly element: HTMLElement;
  update(data: LinkData): void;
  /** Shows or hides the view; a hidden view draws its latest data when shown again. */
  setVisible(visible: boolean): void;
  /** The data last given (drawn or pending). */
  current(): LinkData | undefined;
}

const ROW_PX = 26;
const SVG_NS = 'http://www.w3.org/2000/svg';
const VIEW_WIDTH = 100;

export function createLinkView(title: string, testId: string, options: LinkViewOptions = {}): LinkView {
  const threshold = options.threshold ?? 0.01;
  const rowsName = options.rowsName ?? 'queries';
  const colsName = options.colsName ?? 'keys';
  const element = el('figure', { className: 'link-view', dataset: { testid: testId } });
  const caption = el(
    'figcaption',
    {},
    title,
    el(
      'span',
      { className: 'link-note' },
      `${rowsName[0].toUpperCase()}${rowsName.slice(1)} (left) to ${colsName} (right); ` +
        `a line for each weight ≥ ${threshold}, ` +
        'its opacity and width relative to the largest weight. Hover or focus a token to isolate its links.',
    ),
  );
  const left = el('div', { className: 'link-tokens link-rows' });
  const right = el('div', { className: 'link-tokens link-cols' });
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('link-lines');
  const stage = el('div', { className: 'link-stage' }, left, svg as unknown as Node, right);
  stage.setAttribute('role', 'group');
  stage.setAttribute('aria-label', `${title}: tokens; focus one to list its links`);
  const explanation = el('p', { className: 'link-explain', dataset: { testid: `${testId}-explain` } });
  explanation.setAttribute('aria-live', 'polite');
  const summary = el('ul', { className: 'link-summary' });
  element.append(caption, stage, explanation, summary);

  let data: LinkData | undefined;
  let drawn: LinkData | undefined;
  let visible = true;
  element.hidden = true; // until there is data
  let links: Link[] = [];
  let draws = 0; // how many times the lines were drawn (data-draws, for tests)
  const pool: SVGLineElement[] = [];
  let rowButtons: HTMLButtonElement[] = [];
  let colButtons: HTMLButtonElement[] = [];
  let labelsKey = '';
  let focus: { side: LinkSide; index: number } = { side: 'row', index: 0 };
  let isolated: { side: LinkSide; index: number } | undefined;

  const buttons = (side: LinkSide) => (side === 'row' ? rowButtons : colButtons);

  function tokenButton(label: string, side: LinkSide, index: number): HTMLButtonElement {
    const button = el('button', {
      type: 'button',
      className: 'link-token',
      textContent: label,
      tabIndex: -1,
      dataset: { side, index: String(index) },
    });
    return button;
  }

  function buildTokens(next: LinkData): void {
    rowButtons = next.rowLabels.map((label, i) => tokenButton(label, 'row', i));
    colButtons = next.colLabels.map((label, i) => tokenButton(label, 'col', i));
    left.replaceChildren(...rowButtons);
    right.replaceChildren(...colButtons);
    if (focus.index >= buttons(focus.side).length) focus = { side: 'row', index: 0 };
    const first = buttons(focus.side)[focus.index] ?? rowButtons[0] ?? colButtons[0];
    if (first) first.tabIndex = 0;
  }

  function y(index: number, count: number, height: number): number {
    return (height - count * ROW_PX) / 2 + (index + 0.5) * ROW_PX;
  }

  function draw(next: LinkData): void {
    drawn = next;
    const key = JSON.stringify([next.rowLabels, next.colLabels]);
    if (key !== labelsKey) {
      labelsKey = key;
      const hadFocus = stage.contains(document.activeElement);
      buildTokens(next);
      if (hadFocus) buttons(focus.side)[focus.index]?.focus();
    }
    const height = Math.max(next.rows, next.cols, 1) * ROW_PX;
    svg.setAttribute('viewBox', `0 0 ${VIEW_WIDTH} ${height}`);
    svg.setAttribute('height', String(height));
    stage.style.setProperty('--link-height', `${height}px`);
    links = linksAbove(next, threshold);
    while (pool.length < links.length) {
      const line = document.createElementNS(SVG_NS, 'line');
      line.setAttribute('x1', '0');
      line.setAttribute('x2', String(VIEW_WIDTH));
      line.append(document.createElementNS(SVG_NS, 'title'));
      pool.push(line);
    }
    links.forEach((link, i) => {
      const line = pool[i];
      line.setAttribute('y1', y(link.row, next.rows, height).toFixed(1));
      line.setAttribute('y2', y(link.col, next.cols, height).toFixed(1));
      line.setAttribute('stroke-opacity', link.opacity.toFixed(3));
      line.setAttribute('stroke-width', link.width.toFixed(2));
      line.dataset.row = String(link.row);
      line.dataset.col = String(link.col);
      line.dataset.weight = String(link.weight);
      line.firstChild!.textContent = `${next.rowLabels[link.row] ?? ''} → ${next.colLabels[link.col] ?? ''}: ${formatValue(link.weight)}`;
      if (!line.isConnected) svg.append(line);
    });
    for (let i = links.length; i < pool.length && pool[i].isConnected; i++) pool[i].remove();
    element.dataset.links = String(links.length);
    element.dataset.draws = String(++draws);
    const best = strongestPerRow(next);
    summary.replaceChildren(
      ...best.map((c, r) =>
        el(
          'li',
          {},
          `${next.rowLabels[r] ?? ''} attends most to ${next.colLabels[c] ?? ''} ` +
            `(${formatValue(next.values[r * next.cols + c])})`,
        ),
      ),
    );
    if (isolated && isolated.index < buttons(isolated.side).length) isolate(isolated.side, isolated.index);
    else isolate(undefined, 0);
  }

  /** Keeps only the links of one token (undefined: all links). */
  function isolate(side: LinkSide | undefined, index: number): void {
    isolated = side ? { side, index } : undefined;
    if (!side) {
      delete element.dataset.isolated;
      explanation.textContent = '';
    } else {
      element.dataset.isolated = `${side}:${index}`;
    }
    for (let i = 0; i < links.length; i++) {
      pool[i].classList.toggle('on', side !== undefined && linkTouches(links[i], side, index));
    }
    for (const b of rowButtons) b.classList.toggle('active', side === 'row' && Number(b.dataset.index) === index);
    for (const b of colButtons) b.classList.toggle('active', side === 'col' && Number(b.dataset.index) === index);
    if (!side || !drawn) return;
    const d = drawn;
    const own = links.filter((link) => linkTouches(link, side, index)).sort((a, b) => b.weight - a.weight);
    const label = (side === 'row' ? d.rowLabels : d.colLabels)[index] ?? '';
    const other = (link: Link) => (side === 'row' ? d.colLabels[link.col] : d.rowLabels[link.row]) ?? '';
    const arrow = side === 'row' ? '→' : '←';
    explanation.textContent = own.length
      ? `${label} ${arrow} ${own.map((link) => `${other(link)} (${formatValue(link.weight)})`).join(', ')}`
      : `${label}: no link at or above ${threshold}`;
  }

  function tokenOf(target: EventTarget | null): { side: LinkSide; index: number } | undefined {
    const button = (target as Element | null)?.closest?.('.link-token') as HTMLButtonElement | null;
    if (!button) return undefined;
    return { side: button.dataset.side as LinkSide, index: Number(button.dataset.index) };
  }

  stage.addEventListener('mouseover', (event) => {
    const token = tokenOf(event.target);
    if (token) isolate(token.side, token.index);
  });
  stage.addEventListener('mouseleave', () => {
    if (!stage.contains(document.activeElement)) isolate(undefined, 0);
  });
  stage.addEventListener('focusin', (event) => {
    const token = tokenOf(event.target);
    if (!token) return;
    buttons(focus.side)[focus.index]?.setAttribute('tabindex', '-1');
    focus = token;
    buttons(token.side)[token.index]?.setAttribute('tabindex', '0');
    isolate(token.side, token.index);
  });
  stage.addEventListener('focusout', (event) => {
    if (!stage.contains(event.relatedTarget as Node | null)) isolate(undefined, 0);
  });
  stage.addEventListener('keydown', (event) => {
    const token = tokenOf(event.target);
    if (!token) return;
    if (event.key === 'Escape') {
      isolate(undefined, 0);
      return;
    }
    const count = buttons(token.side).length;
    const moves: Record<string, [LinkSide, number]> = {
      ArrowUp: [token.side, token.index - 1],
      ArrowDown: [token.side, token.index + 1],
      ArrowLeft: ['row', token.side === 'row' ? token.index : Math.min(token.index, rowButtons.length - 1)],
      ArrowRight: ['col', token.side === 'col' ? token.index : Math.min(token.index, colButtons.length - 1)],
      Home: [token.side, 0],
      End: [token.side, count - 1],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const [side, index] = move;
    const target = buttons(side)[index];
    if (target && (side !== token.side || index !== token.index)) target.focus();
  });

  function update(next: LinkData): void {
    data = next;
    element.hidden = !visible;
    if (visible) draw(next);
  }

  /** Shown only once there is something to draw. */
  function setVisible(show: boolean): void {
    visible = show;
    element.hidden = !show || !data;
    if (show && data && data !== drawn) draw(data);
  }

  return { element, update, setVisible, current: () => data };
}

export type AttentionMode = 'heatmap' | 'links';

/**
 * A "Show attention as: heatmap / links" radio pair (`idPrefix` names its inputs, which tests and
 * the keyboard reach by label). `onChange` gets the chosen mode.
 */
export function attentionModeToggle(
  idPrefix: string,
  onChange: (mode: AttentionMode) => void,
  initial: AttentionMode = 'heatmap',
): HTMLFieldSetElement {
  const fieldset = el('fieldset', { className: 'attention-mode' }, el('legend', {}, 'Show attention as'));
  for (const mode of ['heatmap', 'links'] as const) {
    const id = `${idPrefix}-${mode}`;
    const input = el('input', { type: 'radio', name: idPrefix, id, value: mode, checked: mode === initial });
    input.addEventListener('change', () => {
      if (input.checked) onChange(mode);
    });
    fieldset.append(el('label', { htmlFor: id }, input, mode === 'heatmap' ? ' heatmap' : ' links'));
  }
  return fieldset;
}
