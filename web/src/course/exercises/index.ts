// Every exercise of the course, by id. Adding one = adding a folder and a line here.
import { additiveScore } from './additive_score/exercise';
import { applyWeights } from './apply_weights/exercise';
import { attentionContext } from './attention_context/exercise';
import { causalMask } from './causal_mask/exercise';
import { dotScores } from './dot_scores/exercise';
import { paddingMask } from './padding_mask/exercise';
import { scaledDotProductAttention } from './scaled_dot_product_attention/exercise';
import { scaledDotScores } from './scaled_dot_scores/exercise';
import { singleDotScore } from './single_dot_score/exercise';
import { softmax } from './softmax/exercise';
import type { Exercise } from './types';

export const EXERCISES: Record<string, Exercise> = Object.fromEntries(
  [
    singleDotScore,
    dotScores,
    softmax,
    applyWeights,
    attentionContext,
    scaledDotScores,
    additiveScore,
    causalMask,
    paddingMask,
    scaledDotProductAttention,
  ].map((exercise) => [exercise.id, exercise]),
);
