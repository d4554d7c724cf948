import { mistake } from '../mistakes';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import { weightCases } from '../apply_weights/exercise';
import type { Exercise } from '../types';

const CONTEXT_SOLUTION = `function attentionContext(weights, annotations) {
  const d = annotations[0].length;
  const context = new Array(d).fill(0);
  for (let t = 0; t < annotations.length; t++) {
    for (let i = 0; i < d; i++) context[i] += weights[t] * annotations[t][i];
  }
  return context;
}
`;

export const attentionContext: Exercise = {
  id: 'attention_context',
  title: 'Sum into the context vector',
  functionName: 'attentionContext',
  prompt: `Complete <code>attentionContext(weights, annotations)</code>: return the context vector
    $c = \\sum_t \\alpha_t h_t$, one number per feature ($d$ numbers), not one per annotation.`,
  starter: `function attentionContext(weights, annotations) {
  // weights: [T], annotations: [T][d]  ->  context: [d]
  const d = annotations[0].length;
  const context = new Array(d).fill(0);
  // TODO
  return context;
}
`,
  solution: CONTEXT_SOLUTION,
  hints: [
    'Start from the weighted annotations of the previous exercise: a T × d matrix.',
    'Add its rows together (sum over t, the annotation axis), keeping the d columns apart.',
  ],
  mistakes: [
    mistake(
      CONTEXT_SOLUTION,
      'weights[t] * annotations[t][i]',
      'weights[t] + annotations[t][i]',
      'Your context adds each weight to the annotation’s entries; the context is Σₜ αₜ · hₜ: multiply, then sum.',
    ),
  ],
  cases: () => weightCases(6),
  async reference(call, [weights, annotations]) {
    return fromTensor(await call('contextVector', toTensor(weights), toTensor(annotations)));
  },
  figure: (value) => heatmapOf(value, 'c', 'd'),
  diagnose(expected, got) {
    if (Array.isArray(got) && Array.isArray(expected) && got.length !== expected.length) {
      return `The context vector has one entry per feature (${expected.length} here), but yours has ${got.length}: that is one per annotation, so the sum ran along the feature axis instead of the annotation axis.`;
    }
    return null;
  },
};
