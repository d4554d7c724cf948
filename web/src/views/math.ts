// TeX typeset by KaTeX, for the course and the app, with its fonts bundled by Vite (no CDN).
// Two ways out of one set of options:
// - renderMath/mathBlock turn $$…$$ (display) and $…$ (inline) in lesson HTML into markup. Lesson
//   text is ours, so its HTML is trusted; the course's policy allows the inline styles KaTeX writes.
// - texElement/formula build DOM nodes with KaTeX's render(), which sets its sizes through the
//   CSSOM: the app's style-src 'self' policy refuses style="" attributes in markup but not that.
//   (Avoid \fcolorbox and \boldsymbol there: KaTeX writes those as style attributes.)
// A TeX error is a bug in our text and throws.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { el } from './dom';

function options(displayMode: boolean): katex.KatexOptions {
  return { displayMode, throwOnError: true, output: 'htmlAndMathml' };
}

export function tex(source: string, displayMode = false): string {
  return katex.renderToString(source, options(displayMode));
}

export function renderMath(html: string): string {
  return html
    .replace(/\$\$([\s\S]+?)\$\$/g, (_, source: string) => tex(source, true))
    .replace(/\$([^$]+?)\$/g, (_, source: string) => tex(source));
}

/** An element whose content is lesson HTML with its maths typeset. */
export function mathBlock(tag: keyof HTMLElementTagNameMap, html: string, className = ''): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.innerHTML = renderMath(html);
  return node;
}

/** One formula as DOM nodes (no HTML parsing): inline, or on a line of its own. */
export function texElement(source: string, displayMode = false): HTMLElement {
  const node = el('span', { className: 'tex' });
  setTex(node, source, displayMode);
  return node;
}

/** Puts `source` typeset into `node` in place of what was there (a formula that changes). */
export function setTex(node: HTMLElement, source: string, displayMode = false): void {
  katex.render(source, node, options(displayMode));
}

/**
 * A view's formula block: display formulas, one per line, each with a short plain caption
 * (what it computes), as a definition list. A row's formula is TeX, or an element the caller
 * typesets (and retypesets) itself with setTex.
 */
export function formulaList(testId: string, rows: readonly [caption: string, formula: string | HTMLElement][]) {
  const list = el('dl', { className: 'formula-list', dataset: { testid: testId } });
  for (const [caption, formula] of rows) {
    list.append(el('dt', {}, caption), el('dd', {}, typeof formula === 'string' ? texElement(formula, true) : formula));
  }
  return list;
}
