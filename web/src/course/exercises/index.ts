// Every exercise of the course, by id. Adding one = adding a folder and a line here.
import { additiveScore } from './additive_score/exercise';
import { alignmentBatch } from './alignment_batch/exercise';
import { applyWeights } from './apply_weights/exercise';
import { attentionContext } from './attention_context/exercise';
import { attentionPooling } from './attention_pooling/exercise';
import { attentionalState } from './attentional_state/exercise';
import { bidirectionalAnnotations } from './bidirectional_annotations/exercise';
import { causalMask } from './causal_mask/exercise';
import { dotScores } from './dot_scores/exercise';
import { greedyDecode } from './greedy_decode/exercise';
import { imdbVocabulary } from './imdb_vocabulary/exercise';
import { luongConcatScore } from './luong_concat_score/exercise';
import { luongGeneralScore } from './luong_general_score/exercise';
import { luongLocationScore } from './luong_location_score/exercise';
import { luongStep } from './luong_step/exercise';
import { meanContext } from './mean_context/exercise';
import { mergeHeads } from './merge_heads/exercise';
import { padSequences } from './pad_sequences/exercise';
import { paddingMask } from './padding_mask/exercise';
import { positionalEncoding } from './positional_encoding/exercise';
import { scaledDotProductAttention } from './scaled_dot_product_attention/exercise';
import { scaledDotScores } from './scaled_dot_scores/exercise';
import { singleDotScore } from './single_dot_score/exercise';
import { softmax } from './softmax/exercise';
import { splitHeads } from './split_heads/exercise';
import { teacherForcing } from './teacher_forcing/exercise';
import { brevityPenalty } from './brevity_penalty/exercise';
import { cachedDecodingStep } from './cached_decoding_step/exercise';
import { clippedPrecision } from './clipped_precision/exercise';
import { corpusBleu } from './corpus_bleu/exercise';
import { crossAttention } from './cross_attention/exercise';
import { decoderMask } from './decoder_mask/exercise';
import { frenchTokens } from './french_tokens/exercise';
import { noPeeking } from './no_peeking/exercise';
import type { Exercise } from './types';

export const EXERCISES: Record<string, Exercise> = Object.fromEntries(
  [
    meanContext,
    singleDotScore,
    dotScores,
    softmax,
    applyWeights,
    attentionContext,
    scaledDotScores,
    additiveScore,
    luongGeneralScore,
    luongConcatScore,
    luongLocationScore,
    causalMask,
    paddingMask,
    padSequences,
    scaledDotProductAttention,
    positionalEncoding,
    splitHeads,
    mergeHeads,
    bidirectionalAnnotations,
    alignmentBatch,
    luongStep,
    attentionalState,
    teacherForcing,
    greedyDecode,
    imdbVocabulary,
    attentionPooling,
    decoderMask,
    crossAttention,
    cachedDecodingStep,
    noPeeking,
    frenchTokens,
    clippedPrecision,
    brevityPenalty,
    corpusBleu,
  ].map((exercise) => [exercise.id, exercise]),
);
