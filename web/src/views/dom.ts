// The DOM helpers the views and the course share: el(), an element with properties (and data-*
// attributes) and children in one call. Children given as strings become text nodes, never HTML.
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const { dataset, ...rest } = props;
  const node = Object.assign(document.createElement(tag), rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

/** One line of a readout list (<dl>): a label and the output that shows its value. */
export function readoutRow(label: string, output: HTMLOutputElement): HTMLDivElement {
  return el('div', { className: 'readout-row' }, el('dt', {}, label), el('dd', {}, output));
}

/** One part of a view drawn as a card (design.css `.card`), stacked under the previous part. */
export function viewPart(...children: (Node | string)[]): HTMLDivElement {
  return el('div', { className: 'card view-part' }, ...children);
}

/** The text to show for a caught error (an Error's message, anything else as a string). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
