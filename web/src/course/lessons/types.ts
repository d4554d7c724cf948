// What a lesson page is made of. Lesson text is HTML with $…$ TeX (see ../math.ts).
import type { HeatmapData } from '../../views/heatmap';
import type { EngineCall } from '../exercises/types';

export interface TitledHeatmap {
  title: string;
  data: HeatmapData;
}

/** A figure computed by the engine when the page opens. */
export interface LiveFigure {
  caption: string;
  compute(call: EngineCall): Promise<TitledHeatmap[]>;
}

/** A question answered by clicking; the engine's computation then reveals the answer. */
export interface Prediction {
  id: string;
  question: string;
  options: string[];
  reveal(call: EngineCall): Promise<{ answer: number; explanation: string; figures: TitledHeatmap[] }>;
}

/** A training run of a small model on a synthetic task (runToyTask in the engine). */
export interface TrainingDemo {
  id: string;
  title: string;
  description: string;
  /** One or more runs, compared side by side; flat runToyTask settings (snake_case keys). */
  runs: { label: string; config: Record<string, string | number> }[];
}

export type Block =
  | { html: string }
  | { exercise: string }
  | { prediction: Prediction }
  | { figure: LiveFigure }
  | { training: TrainingDemo }
  | { todo: string };

export interface Lesson {
  number: number;
  slug: string;
  title: string;
  summary: string;
  blocks: Block[];
}
