// The Transformer view's positional encodings: the table the encoder adds to its embeddings, one
// row per position and one column per model dimension, on a diverging scale centred at 0 (the
// sinusoids run from −1 to 1, so the scale is fixed at ±1; a learned table is stretched to its
// largest |value| and the legend says so).
import type { EngineBridge } from '../../engine/bridge';
import { el, viewPart } from '../dom';
import { createHeatmap } from '../heatmap';
import { formulaList } from '../math';

const PE_POSITIONS = 24;

export class PositionalPanel {
  private readonly map = createHeatmap(
    'Positional encoding added at each position (rows) in each model dimension (columns)',
    'tf-positional',
    { numbers: 'on-demand' },
  );
  readonly element = viewPart(
    el('h3', {}, 'Positional encodings'),
    formulaList('tf-pe-formulas', [
      ['Even dimensions 2i', 'PE_{p,\\,2i} = \\sin\\left(p / 10000^{2i/D}\\right)'],
      ['Odd dimensions 2i + 1', 'PE_{p,\\,2i+1} = \\cos\\left(p / 10000^{2i/D}\\right)'],
    ]),
    this.map.element,
  );

  constructor() {
    this.map.element.hidden = true;
    this.map.element.classList.add('tf-positional');
  }

  async show(engine: EngineBridge): Promise<void> {
    const table = await engine.positionalEncoding(PE_POSITIONS);
    this.map.update({
      values: table.values,
      rows: table.positions,
      cols: table.dim,
      rowLabels: Array.from({ length: table.positions }, (_, i) => `pos ${i}`),
      colLabels: Array.from({ length: table.dim }, (_, i) => `d${i}`),
      scale: 'signed',
      range: table.kind === 'sinusoidal' ? [-1, 1] : undefined,
    });
    this.map.element.dataset.kind = table.kind;
    this.map.element.hidden = false;
  }
}
