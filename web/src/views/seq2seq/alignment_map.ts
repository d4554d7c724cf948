// An alignment matrix as the Seq2seq view and the course's translator (course/seq2seq_demo_view.ts)
// draw it: colours on the fixed 0–1 scale, each weight on hover or focus, columns that narrow to fit
// the panel instead of scrolling. Update it with `scale: 'probability'` (or range [0, 1]).
import { createHeatmap, type Heatmap } from '../heatmap';

export function createAlignmentMap(title: string, testId: string): Heatmap {
  return createHeatmap(title, testId, { numbers: 'on-demand', fit: true });
}
