// "Your progress" on the course map: per lesson, exercises solved and models trained (a table),
// and the progress file — export downloads it, import reads one chosen with a file input and adds
// it to this browser's progress (progress.ts validates it in full first and says what was wrong).
import { el } from '../views/dom';
import { LESSONS } from './lessons';
import type { Lesson } from './lessons/types';
import { exportProgress, MAX_PROGRESS_FILE_BYTES, type ProgressStore } from './progress';

/** Ids of the exercises, predictions and trainable models of a lesson, for progress counts. */
export function tasksOf(lesson: Lesson): {
  exercises: string[];
  predictions: string[];
  models: string[];
} {
  const exercises: string[] = [];
  const predictions: string[] = [];
  const models: string[] = [];
  for (const block of lesson.blocks) {
    if ('exercise' in block) exercises.push(block.exercise);
    if ('prediction' in block) predictions.push(block.prediction.id);
    if ('training' in block) models.push(block.training.id);
    if ('seq2seq' in block) models.push(block.seq2seq.id);
    if ('pooling' in block) models.push(block.pooling.id);
    if ('sentiment' in block) models.push(block.sentiment.id);
    if ('translation' in block) models.push(block.translation.id);
  }
  return { exercises, predictions, models };
}

export const PROGRESS_FILE_NAME = 'attention-course-progress.json';

function counts(done: number, total: number): string {
  return total ? `${done} / ${total}` : '—';
}

export function createProgressPanel(progress: ProgressStore): { element: HTMLElement; dispose: () => void } {
  const body = el('tbody');
  const render = () => {
    const p = progress.snapshot;
    body.replaceChildren(
      ...LESSONS.map((lesson) => {
        const { exercises, models } = tasksOf(lesson);
        const solved = exercises.filter((id) => p.solved[id]).length;
        const trained = models.filter((id) => p.modelsTrained[id]).length;
        return el(
          'tr',
          { dataset: { testid: `progress-lesson-${lesson.number}` } },
          el('th', { scope: 'row' }, `${lesson.number}. ${lesson.title}`),
          el('td', { dataset: { testid: 'exercises-solved' } }, counts(solved, exercises.length)),
          el('td', { dataset: { testid: 'models-trained' } }, counts(trained, models.length)),
        );
      }),
    );
  };
  render();
  const dispose = progress.onChange(render);

  const status = el('p', { role: 'status', dataset: { testid: 'progress-file-status' } });
  const say = (state: 'ok' | 'error', text: string) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  const exportButton = el('button', { type: 'button' }, 'Export my progress');
  exportButton.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([exportProgress(progress.snapshot)], { type: 'application/json' }));
    const link = el('a', { href: url });
    link.download = PROGRESS_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
    say('ok', `Saved ${PROGRESS_FILE_NAME}. Import it in another browser to continue there.`);
  });

  const input = el('input', { type: 'file', accept: '.json,application/json' });
  input.setAttribute('aria-label', 'Import a progress file');
  input.dataset.testid = 'progress-import';
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (file.size > MAX_PROGRESS_FILE_BYTES) {
      say('error', `${file.name} is not a progress file: it is ${(file.size / 1e6).toFixed(1)} MB, far too large.`);
      return;
    }
    try {
      const result = progress.importFile(await file.text());
      say(
        result.ok ? 'ok' : 'error',
        result.ok ? result.message : `${file.name}: ${result.message} Nothing was changed.`,
      );
    } catch (error) {
      say('error', `${file.name} could not be read (${error instanceof Error ? error.message : String(error)}).`);
    }
  });

  const element = el(
    'section',
    { className: 'progress-panel', dataset: { testid: 'progress-panel' } },
    el('h3', {}, 'Your progress'),
    el(
      'table',
      { className: 'progress-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'lesson'),
          el('th', { scope: 'col' }, 'exercises solved'),
          el('th', { scope: 'col' }, 'models trained'),
        ),
      ),
      body,
    ),
    el(
      'p',
      { className: 'muted' },
      'Your progress lives in this browser. To move it to another browser, export it to a file here and import that file there; importing adds to what you have and never removes anything.',
    ),
    el(
      'div',
      { className: 'buttons' },
      exportButton,
      el('label', { className: 'file-button' }, 'Import a progress file ', input),
    ),
    status,
  );
  return { element, dispose };
}
