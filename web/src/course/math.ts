// TeX in lesson text: $$…$$ for display maths, $…$ inline, rendered by KaTeX at run time with
// its fonts bundled by Vite (no CDN). Lesson text is ours, so its HTML is trusted; a TeX error
// is a bug in a lesson and throws.
import katex from 'katex';
import 'katex/dist/katex.min.css';

export function tex(source: string, displayMode = false): string {
  return katex.renderToString(source, {
    displayMode,
    throwOnError: true,
    output: 'htmlAndMathml',
  });
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
