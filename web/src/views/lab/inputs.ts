// The lab's editable numbers: the decoder state s and the annotations h₁…h_T as rows of number
// inputs, with buttons that add or remove a dimension or an annotation and a "visible" box per
// annotation (unticked: masked as padding).
import { el } from '../dom';
import { MAX_ANNOTATIONS, MAX_DIM, type LabState } from './state';

/** Applies a change to the lab's state; `rerenderInputs` false keeps the editors (and focus). */
export type Change = (patch: Partial<LabState>, rerenderInputs?: boolean) => void;

/** A number input that reports finite values and marks anything else aria-invalid. */
export function numberInput(value: number, label: string, onChange: (x: number) => void): HTMLInputElement {
  const input = el('input', { type: 'number', step: 'any', value: String(value), className: 'num' });
  input.setAttribute('aria-label', label);
  input.addEventListener('input', () => {
    const x = Number(input.value);
    const ok = input.value.trim() !== '' && Number.isFinite(x);
    input.setAttribute('aria-invalid', String(!ok));
    if (ok) onChange(x);
  });
  return input;
}

/**
 * The fieldsets for s and h₁…h_T, shaped by the state now; an edit applies to the state it
 * lands on (`current()`), since editing does not rebuild the editors.
 */
export function vectorEditors(current: () => LabState, change: Change): HTMLElement[] {
  const { query, annotations, visible } = current();
  const d = query.length;
  const t = annotations.length;

  const queryRow = el('div', { className: 'vector-row' }, el('span', { className: 'row-label' }, 's'));
  query.forEach((x, j) =>
    queryRow.append(
      numberInput(x, `decoder state s, component ${j + 1}`, (v) => {
        const next = [...current().query];
        next[j] = v;
        change({ query: next }, false);
      }),
    ),
  );

  const dimButtons = el('span', { className: 'buttons' });
  const addDim = el('button', { type: 'button', textContent: '+ dimension', disabled: d >= MAX_DIM });
  addDim.addEventListener('click', () =>
    change({ query: [...query, 0], annotations: annotations.map((row) => [...row, 0]) }),
  );
  const removeDim = el('button', { type: 'button', textContent: '− dimension', disabled: d <= 1 });
  removeDim.addEventListener('click', () =>
    change({ query: query.slice(0, -1), annotations: annotations.map((row) => row.slice(0, -1)) }),
  );
  dimButtons.append(addDim, removeDim);

  const annotationRows = annotations.map((row, i) => {
    const line = el('div', { className: 'vector-row' }, el('span', { className: 'row-label' }, `h${i + 1}`));
    row.forEach((x, j) =>
      line.append(
        numberInput(x, `annotation h${i + 1}, component ${j + 1}`, (v) => {
          const next = current().annotations.map((r) => [...r]);
          next[i][j] = v;
          change({ annotations: next }, false);
        }),
      ),
    );
    const visibleBox = el('input', { type: 'checkbox', checked: visible[i] });
    visibleBox.addEventListener('change', () => {
      const next = [...current().visible];
      next[i] = visibleBox.checked;
      change({ visible: next }, false);
    });
    line.append(el('label', { className: 'visible' }, visibleBox, ' visible'));
    return line;
  });

  const addRow = el('button', { type: 'button', textContent: '+ annotation', disabled: t >= MAX_ANNOTATIONS });
  addRow.addEventListener('click', () =>
    change({ annotations: [...annotations, new Array(d).fill(0)], visible: [...visible, true] }),
  );
  const removeRow = el('button', { type: 'button', textContent: '− annotation', disabled: t <= 1 });
  removeRow.addEventListener('click', () =>
    change({ annotations: annotations.slice(0, -1), visible: visible.slice(0, -1) }),
  );

  return [
    el('fieldset', {}, el('legend', {}, `Decoder hidden state s (d = ${d})`), queryRow, dimButtons),
    el(
      'fieldset',
      {},
      el('legend', {}, `Annotations h₁…h${t}`),
      ...annotationRows,
      el('span', { className: 'buttons' }, addRow, removeRow),
    ),
  ];
}
