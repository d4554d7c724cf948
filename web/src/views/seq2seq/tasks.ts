// The Seq2seq view's two tasks (what the page trains for each) and the pure checks of a decode:
// whether an input looks like the training inputs, and how sure the model was of its output.
// Node-tested (tests/js/view_maps.test.mjs).
import type { Seq2SeqRecipe, Seq2SeqSettings } from '../../../generated/attn_engine.mjs';

/**
 * The view's two tasks: what the select shows and the example it decodes. What each trains is the
 * engine recipe named here (core train/seq2seq_recipes.cpp, `seq2seqRecipes()`: the settings
 * `attn train --recipe <name>` trains); the view adds only its attention and epochs controls
 * (taskSettings; tests/js/seq2seq_recipes.test.mjs holds both to the recipe).
 */
export const TASKS = {
  reverse: { label: 'Reverse a digit string (4071 → 1704)', recipe: 'reverse-page', example: '4071385' },
  dates: { label: 'Normalise a date (3 May 1979 → 1979-05-03)', recipe: 'dates-page', example: '3 May 1979' },
} as const;
export type TaskName = keyof typeof TASKS;
export type Attention = 'bahdanau' | 'luong' | 'none';

/** The settings of the view's run: the task's recipe, the attention picked, and the epochs asked
 *  for (1..50; not a number: the recipe's). */
export function taskSettings(recipe: Seq2SeqRecipe, attention: Attention, epochs: number): Required<Seq2SeqSettings> {
  const { settings } = recipe;
  return { ...settings, attention, epochs: Math.min(50, Math.max(1, Math.round(epochs) || settings.epochs)) };
}

/** The lengths of the digit strings a model was trained on (its settings' minLen, maxLen). */
export interface TrainedLengths {
  minLen: number;
  maxLen: number;
}

/** Spaces are invisible in a table header: show them as ␣. */
export const shown = (token: string) => (token === ' ' ? '␣' : token);

/**
 * Why `text` is unlike every input the model was trained on, as sentences for the learner (empty:
 * nothing unusual). A seq2seq model always answers with something in its output's format, however
 * foreign the input; these checks are what can honestly be said about the input itself.
 * `sourceTokens`: the engine's tokens for the text ("<unk>" for a character not in the training
 * vocabulary); `lengths`: the training strings' (task reverse).
 */
export function inputWarnings(
  task: TaskName,
  text: string,
  sourceTokens: readonly string[],
  lengths: TrainedLengths,
): string[] {
  const warnings: string[] = [];
  const unknown = sourceTokens.filter((t) => t === '<unk>').length;
  if (unknown > 0)
    warnings.push(
      `${unknown} of the ${sourceTokens.length} characters never occurred in the training inputs; the model reads ` +
        'each of them as one “unknown” token.',
    );
  if (task === 'reverse') {
    if (/[^0-9]/.test(text))
      warnings.push('The model was trained on digit strings only; this input has other characters.');
    if (text.length < lengths.minLen || text.length > lengths.maxLen)
      warnings.push(
        `The model was trained on ${lengths.minLen} to ${lengths.maxLen} digits; this input has ${text.length} ` +
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
