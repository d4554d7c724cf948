// The course's two kinds of page: the map (every lesson with its progress, and a reset) and a
// lesson (text, live figures, predictions, exercises, training demos).
import { el } from '../views/dom';
import { ExerciseView } from './exercise_view';
import { EXERCISES } from './exercises';
import type { EngineCall } from './exercises/types';
import { createFigureView } from './figure_view';
import { LESSONS } from './lessons';
import type { Lesson } from './lessons/types';
import { mathBlock } from '../views/math';
import { PredictionView } from './prediction_view';
import type { ProgressStore } from './progress';
import { createPoolingDemoView, type PoolingEngine } from './pooling_demo_view';
import { createSentimentDemoView, type SentimentEngine } from './sentiment_demo_view';
import { createSeq2SeqDemoView, type Seq2SeqEngine } from './seq2seq_demo_view';
import { createProgressPanel, tasksOf } from './progress_view';
import { createSeq2SeqStepView, type Seq2SeqStepEngine } from './seq2seq_step_view';
import { createTranslationDemoView } from './translation_demo_view';
import { createTransformerCrossView, type TransformerCrossEngine } from './transformer_cross_view';
import { createTransformerMaskView, type TransformerMaskEngine } from './transformer_mask_view';
import { createTrainingView, type ToyEngine } from './training_view';

export function lessonHash(lesson: Lesson): string {
  return `#lesson-${lesson.number}`;
}

export interface LessonProgress {
  exercises: { done: number; total: number };
  questions: { done: number; total: number };
}

/** A lesson's coding exercises solved and prediction questions answered, counted apart. */
export function lessonProgress(lesson: Lesson, progress: ProgressStore): LessonProgress {
  const { exercises, predictions } = tasksOf(lesson);
  const p = progress.snapshot;
  return {
    exercises: { done: exercises.filter((id) => p.solved[id]).length, total: exercises.length },
    questions: {
      done: predictions.filter((id) => p.predictions[id] !== undefined).length,
      total: predictions.length,
    },
  };
}

/** "1/2 exercises · 0/1 question" (a kind the lesson does not have is left out; none: "reading"). */
export function progressLabel({ exercises, questions }: LessonProgress): string {
  const part = (c: { done: number; total: number }, one: string, many: string) =>
    c.total ? `${c.done}/${c.total} ${c.total === 1 ? one : many}` : '';
  const parts = [part(exercises, 'exercise', 'exercises'), part(questions, 'question', 'questions')].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'reading';
}

export function createCourseMap(progress: ProgressStore): {
  element: HTMLElement;
  dispose: () => void;
} {
  const list = el('ol', { className: 'course-map' });
  const summary = el('p', {
    className: 'muted',
    dataset: { testid: 'course-summary' },
  });
  const render = () => {
    const sum = { solved: 0, exercises: 0, answered: 0, questions: 0 };
    list.replaceChildren(
      ...LESSONS.map((lesson) => {
        const counts = lessonProgress(lesson, progress);
        sum.solved += counts.exercises.done;
        sum.exercises += counts.exercises.total;
        sum.answered += counts.questions.done;
        sum.questions += counts.questions.total;
        const done = counts.exercises.done + counts.questions.done;
        const count = counts.exercises.total + counts.questions.total;
        const complete = count > 0 && done === count;
        const bar = el('progress', { max: Math.max(1, count), value: done });
        bar.setAttribute('aria-label', `${lesson.title}: ${progressLabel(counts)}`);
        return el(
          'li',
          {
            className: complete ? 'complete' : '',
            dataset: { testid: `map-lesson-${lesson.number}` },
          },
          el('a', { href: lessonHash(lesson) }, `${lesson.number}. ${lesson.title}`),
          el('span', { className: 'map-summary' }, lesson.summary),
          el(
            'span',
            {
              className: 'map-progress',
              dataset: { testid: 'lesson-progress' },
            },
            `${progressLabel(counts)}${complete ? ' ✓' : ''}`,
          ),
          bar,
        );
      }),
    );
    summary.textContent =
      `${sum.solved} of ${sum.exercises} coding exercises solved; ` +
      `${sum.answered} of ${sum.questions} prediction questions answered.`;
  };
  render();
  const panel = createProgressPanel(progress);
  const unsubscribe = progress.onChange(render);
  const dispose = () => {
    unsubscribe();
    panel.dispose();
  };

  const reset = el('button', {
    type: 'button',
    textContent: 'Reset my progress',
  });
  let armed = 0;
  reset.addEventListener('click', () => {
    if (!armed) {
      reset.textContent = 'Click again to erase solved exercises and drafts';
      armed = window.setTimeout(() => {
        armed = 0;
        reset.textContent = 'Reset my progress';
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    reset.textContent = 'Reset my progress';
    progress.reset();
  });

  const element = el(
    'section',
    { className: 'course-home' },
    el('h2', {}, 'A course on attention'),
    mathBlock(
      'p',
      `${LESSONS.length} short lessons, from why attention was invented to self-attention and attention-based
      classifiers. Each has live figures computed by the C++ engine (compiled to WebAssembly) and
      functions to complete in JavaScript, checked against the engine on fixed and random inputs;
      most also ask you to predict a result before the engine reveals it. Your progress and code
      stay in this browser.`,
      'intro',
    ),
    summary,
    list,
    el('div', { className: 'buttons' }, reset),
    panel.element,
  );
  return { element, dispose };
}

export function createLessonPage(
  lesson: Lesson,
  call: EngineCall,
  progress: ProgressStore,
  seq2seq: Seq2SeqEngine &
    PoolingEngine &
    Seq2SeqStepEngine &
    ToyEngine &
    SentimentEngine &
    TransformerMaskEngine &
    TransformerCrossEngine,
): HTMLElement {
  const index = LESSONS.indexOf(lesson);
  const previous = LESSONS[index - 1];
  const next = LESSONS[index + 1];
  const nav = () =>
    el(
      'nav',
      { className: 'lesson-nav', ariaLabel: 'lessons' },
      previous ? el('a', { href: lessonHash(previous) }, `← ${previous.number}. ${previous.title}`) : el('span'),
      el('a', { href: '#map' }, 'Course map'),
      next ? el('a', { href: lessonHash(next) }, `${next.number}. ${next.title} →`) : el('span'),
    );
  const article = el(
    'article',
    { className: 'lesson', dataset: { testid: `lesson-${lesson.number}` } },
    nav(),
    el('h2', {}, `${lesson.number}. ${lesson.title}`),
  );
  const exerciseView = (id: string) => {
    const exercise = EXERCISES[id];
    if (!exercise) throw new Error(`lesson ${lesson.number} names an unknown exercise '${id}'`);
    return new ExerciseView(exercise, call, progress).element;
  };
  let figures = 0;
  for (const block of lesson.blocks) {
    if ('html' in block) article.append(mathBlock('div', block.html, 'lesson-text'));
    else if ('todo' in block) article.append(mathBlock('aside', block.todo, 'todo'));
    else if ('figure' in block) article.append(createFigureView(block.figure, call, figures++));
    else if ('prediction' in block) article.append(new PredictionView(block.prediction, call, progress).element);
    else if ('training' in block) article.append(createTrainingView(block.training, seq2seq, progress));
    else if ('seq2seq' in block) article.append(createSeq2SeqDemoView(block.seq2seq, seq2seq, progress));
    else if ('sentiment' in block) article.append(createSentimentDemoView(block.sentiment, seq2seq, progress));
    else if ('pooling' in block) article.append(createPoolingDemoView(block.pooling, seq2seq, progress));
    else if ('seq2seqStep' in block) article.append(createSeq2SeqStepView(block.seq2seqStep, seq2seq, progress));
    else if ('transformerMask' in block)
      article.append(createTransformerMaskView(block.transformerMask, seq2seq, progress));
    else if ('transformerCross' in block)
      article.append(createTransformerCrossView(block.transformerCross, seq2seq, progress));
    else if ('translation' in block)
      article.append(createTranslationDemoView(block.translation, seq2seq, call, progress));
    else if ('exercise' in block) {
      const view = exerciseView(block.exercise);
      const before = article.lastElementChild;
      if (block.beside && before) {
        const pair = el('div', { className: 'lesson-beside' });
        before.replaceWith(pair);
        pair.append(before, view);
      } else article.append(view);
    }
  }
  article.append(nav());
  return article;
}
