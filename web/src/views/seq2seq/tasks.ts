// The Seq2seq view's two tasks (what the page trains for each) and the pure checks of a decode:
// whether an input looks like the training inputs, and how sure the model was of its output.
// Node-tested (tests/js/view_maps.test.mjs).

/** Per task: the size that trains in the browser in seconds (reverse) to minutes (dates). */
export const TASKS = {
  reverse: {
    label: 'Reverse a digit string (4071 → 1704)',
    trainSize: 2000,
    testSize: 200,
    epochs: 8,
    example: '4071385',
    // The engine's default lengths for the task (Seq2SeqSessionConfig: min_len 3, max_len 8).
    minLength: 3,
    maxLength: 8,
  },
  dates: {
    label: 'Normalise a date (3 May 1979 → 1979-05-03)',
    trainSize: 6000,
    testSize: 200,
    epochs: 6,
    example: '3 May 1979',
  },
} as const;
export type TaskName = keyof typeof TASKS;

/** Spaces are invisible in a table header: show them as ␣. */
export const shown = (token: string) => (token === ' ' ? '␣' : token);

/**
 * Why `text` is unlike every input the model was trained on, as sentences for the learner (empty:
 * nothing unusual). A seq2seq model always answers with something in its output's format, however
 * foreign the input; these checks are what can honestly be said about the input itself.
 * `sourceTokens`: the engine's tokens for the text ("<unk>" for a character not in the training
 * vocabulary).
 */
export function inputWarnings(task: TaskName, text: string, sourceTokens: readonly string[]): string[] {
  const warnings: string[] = [];
  const unknown = sourceTokens.filter((t) => t === '<unk>').length;
  if (unknown > 0)
    warnings.push(
      `${unknown} of the ${sourceTokens.length} characters never occurred in the training inputs; the model reads ` +
        'each of them as one “unknown” token.',
    );
  if (task === 'reverse') {
    const spec = TASKS.reverse;
    if (/[^0-9]/.test(text))
      warnings.push('The model was trained on digit strings only; this input has other characters.');
    if (text.length < spec.minLength || text.length > spec.maxLength)
      warnings.push(
        `The model was trained on ${spec.minLength} to ${spec.maxLength} digits; this input has ${text.length} ` +
          'characters, a length it never saw.',
      );
  } else {
    if (!/[0-9]/.test(text))
      warnings.push(
        'Every training date has digits (a day or a year); this input has none, so it is not a date the model knows.',
      );
  }
  return warnings;
}

/**
 * The model's confidence in a decode: the geometric mean of its output tokens' probabilities,
 * exp(log P / steps) — 1 when it was sure of every token. Steps include the final <eos>.
 */
export function meanTokenProbability(logProb: number, steps: number): number {
  return steps > 0 ? Math.exp(logProb / steps) : 0;
}

/** Below this mean token probability the view says the model is unsure. */
export const LOW_CONFIDENCE = 0.8;
