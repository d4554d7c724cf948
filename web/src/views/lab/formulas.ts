import type { ScoreKindName } from '../../../generated/attn_engine.mjs';

/** How each scoring function turns the decoder state s and an annotation h_t into a score. */
export const SCORE_FORMULAS: Record<ScoreKindName, { label: string; formula: string }> = {
  dot: { label: 'Dot product', formula: 'score(s, hₜ) = sᵀ hₜ' },
  scaled_dot: { label: 'Scaled dot product', formula: 'score(s, hₜ) = sᵀ hₜ / √d' },
  general: { label: 'General (Luong)', formula: 'score(s, hₜ) = sᵀ W hₜ' },
  additive: { label: 'Additive (Bahdanau)', formula: 'score(s, hₜ) = vᵀ tanh(W₁ s + W₂ hₜ)' },
  concat: { label: 'Concat (Luong)', formula: 'score(s, hₜ) = vᵀ tanh(W [s; hₜ])' },
  location: { label: 'Location (Luong)', formula: 'score(s)ₜ = (W s)ₜ — ignores the annotations' },
  cosine: { label: 'Cosine similarity', formula: 'score(s, hₜ) = sᵀ hₜ / (‖s‖ ‖hₜ‖)' },
};
