import { lesson01 } from './01_why_attention';
import { lesson02 } from './02_dot_product';
import { lesson03 } from './03_matrix_scores';
import { lesson04 } from './04_softmax';
import { lesson05 } from './05_context';
import { lesson06 } from './06_score_functions';
import { lesson07 } from './07_masks';
import { lesson08 } from './08_self_attention';
import { lesson09 } from './09_seq2seq';
import { lesson10 } from './10_sentiment';
import { lesson11 } from './11_transformer';
import { lesson12 } from './12_translation';
import type { Lesson } from './types';

export const LESSONS: Lesson[] = [
  lesson01,
  lesson02,
  lesson03,
  lesson04,
  lesson05,
  lesson06,
  lesson07,
  lesson08,
  lesson09,
  lesson10,
  lesson11,
  lesson12,
];
