import type { ScoreKindName } from '../../../generated/attn_engine.mjs';

/**
 * How each scoring function turns the decoder state s and an annotation h_t into a score: as
 * plain text (in tooltips and explanations) and as TeX (typeset above the maps).
 */
export const SCORE_FORMULAS: Record<ScoreKindName, { label: string; formula: string; tex: string }> = {
  dot: { label: 'Dot product', formula: 'score(s, hₜ) = sᵀ hₜ', tex: 'e_t = s^\\top h_t' },
  scaled_dot: {
    label: 'Scaled dot product',
    formula: 'score(s, hₜ) = sᵀ hₜ / √d',
    tex: 'e_t = \\frac{s^\\top h_t}{\\sqrt{d}}',
  },
  general: { label: 'General (Luong)', formula: 'score(s, hₜ) = sᵀ W hₜ', tex: 'e_t = s^\\top W h_t' },
  additive: {
    label: 'Additive (Bahdanau)',
    formula: 'score(s, hₜ) = vᵀ tanh(W₁ s + W₂ hₜ)',
    tex: 'e_t = v^\\top \\tanh(W_1 s + W_2 h_t)',
  },
  concat: {
    label: 'Concat (Luong)',
    formula: 'score(s, hₜ) = vᵀ tanh(W [s; hₜ])',
    tex: 'e_t = v^\\top \\tanh(W\\,[s; h_t])',
  },
  location: {
    label: 'Location (Luong)',
    formula: 'score(s)ₜ = (W s)ₜ — ignores the annotations',
    tex: 'e_t = (W s)_t \\quad \\text{(ignores the annotations)}',
  },
  cosine: {
    label: 'Cosine similarity',
    formula: 'score(s, hₜ) = sᵀ hₜ / (‖s‖ ‖hₜ‖)',
    tex: 'e_t = \\frac{s^\\top h_t}{\\lVert s \\rVert \\, \\lVert h_t \\rVert}',
  },
};

/** The rest of the Lab's pipeline after the score: weights and the context vector. */
export const WEIGHT_TEX = '\\alpha_t = \\frac{\\exp(e_t / \\tau)}{\\sum_u \\exp(e_u / \\tau)}';
export const CONTEXT_TEX = 'c = \\sum_t \\alpha_t h_t';
