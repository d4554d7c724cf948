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

/**
 * A view as a dashboard (styles/dashboards.css `.dashboard`): settings in a side panel, the live work
 * (training, attention) in the main area; below 900 px the side panel stacks above the main area.
 */
export function dashboard(side: Node[], main: Node[]): HTMLDivElement {
  return el(
    'div',
    { className: 'dashboard' },
    el('div', { className: 'dash-side' }, ...side),
    el('div', { className: 'dash-main' }, ...main),
  );
}

/** The text to show for a caught error (an Error's message, anything else as a string). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A dashboard's training card: each setting as [label, control] (the control has an id), then
 * the run's buttons and any further controls in one wrapping row, then `after` (status, notes).
 */
export function trainCard(
  settings: readonly [label: string, control: HTMLElement][],
  buttons: readonly Node[],
  ...after: Node[]
): HTMLDivElement {
  const fields = settings.flatMap(([label, control]) => [el('label', { htmlFor: control.id }, `${label} `), control]);
  return viewPart(el('h3', {}, 'Train'), el('div', { className: 'train-controls' }, ...fields, ...buttons), ...after);
}
