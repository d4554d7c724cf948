// One coding exercise on a lesson page: the prompt, a CodeMirror editor holding the learner's
// draft, and Check / Hint / Solution. Check runs the code in the sandbox on every case, compares
// with the engine's results, and shows the first failure (case, expected vs got, advice) with
// the learner's heatmap next to the reference.
import { basicSetup, EditorView } from 'codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { themedHighlighting } from './code_highlight';
import { createHeatmap, valueRange, type HeatmapData } from '../views/heatmap';
import { el } from '../views/dom';
import type { EngineCall, Exercise } from './exercises/types';
import { ABS_TOL, REL_TOL, compare, describeMismatch, formatData, matchMistake, sentence } from './grader';
import { mathBlock } from '../views/math';
import type { ProgressStore } from './progress';
import { NP_SOURCE } from './np_helper';
import { runInSandbox, type CaseOutcome } from './sandbox';
import { findSyntaxError, showSyntaxError, syntaxErrorMarker } from './syntax_error';

export const TIME_LIMIT_MS = 2000;

export class ExerciseView {
  readonly element: HTMLElement;
  private readonly editor: EditorView;
  private readonly feedback = el('div', {
    className: 'feedback',
    role: 'status',
  });
  private readonly figures = el('div', { className: 'exercise-figures' });
  private readonly hintList = el('ol', { className: 'hints' });
  private readonly solutionArea = el('div', {
    className: 'solution',
    hidden: true,
  });
  private readonly checkButton = el('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Check',
  });
  private readonly solutionButton = el('button', {
    type: 'button',
    textContent: 'Show the solution',
  });
  private readonly badge = el('span', { className: 'badge' });
  private expected: Promise<unknown[]> | null = null;
  private hintsShown = 0;
  private saveTimer = 0;

  constructor(
    private readonly exercise: Exercise,
    private readonly call: EngineCall,
    private readonly progress: ProgressStore,
  ) {
    const hintButton = el('button', { type: 'button', textContent: 'Hint' });
    const resetButton = el('button', {
      type: 'button',
      textContent: 'Start over',
    });
    const editorHost = el('div', { className: 'editor' });
    this.element = el(
      'section',
      { className: 'exercise', dataset: { testid: `exercise-${exercise.id}` } },
      el('h3', {}, `Exercise: ${exercise.title} `, this.badge),
      mathBlock('p', exercise.prompt),
      editorHost,
      el('div', { className: 'buttons' }, this.checkButton, hintButton, this.solutionButton, resetButton),
      this.feedback,
      this.figures,
      this.hintList,
      this.solutionArea,
    );
    this.editor = new EditorView({
      doc: progress.snapshot.drafts[exercise.id] ?? exercise.starter,
      parent: editorHost,
      extensions: [
        basicSetup,
        javascript(),
        themedHighlighting,
        syntaxErrorMarker(),
        EditorView.contentAttributes.of({
          'aria-label': `Code of ${exercise.functionName}`,
          // Already in the tab order (contenteditable); said outright so that checkers (axe-core's
          // scrollable-region-focusable) see the editor's scrolling box holds focusable content
          // once a long draft makes it scroll.
          tabindex: '0',
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          clearTimeout(this.saveTimer);
          this.saveTimer = window.setTimeout(() => this.progress.saveDraft(exercise.id, this.code), 300);
        }),
      ],
    });
    this.checkButton.addEventListener('click', () => void this.check());
    hintButton.addEventListener('click', () => this.showHint(hintButton));
    this.solutionButton.addEventListener('click', () => this.showSolution());
    resetButton.addEventListener('click', () => {
      this.setCode(exercise.starter);
      this.progress.clearDraft(exercise.id);
    });
    this.renderBadge();
    // A failed try (in this visit or an earlier one) points at the solution.
    if (progress.snapshot.failedOnce[exercise.id]) this.solutionButton.classList.add('suggested');
  }

  get code(): string {
    return this.editor.state.doc.toString();
  }

  setCode(code: string): void {
    this.editor.dispatch({
      changes: { from: 0, to: this.editor.state.doc.length, insert: code },
    });
  }

  private renderBadge(): void {
    const solved = Boolean(this.progress.snapshot.solved[this.exercise.id]);
    this.badge.textContent = solved ? '✓ solved' : '';
    this.element.dataset.solved = String(solved);
  }

  private showHint(button: HTMLButtonElement): void {
    const hints = this.exercise.hints;
    if (this.hintsShown >= hints.length) return;
    this.hintList.append(mathBlock('li', hints[this.hintsShown++]));
    if (this.hintsShown >= hints.length) {
      button.disabled = true;
      button.textContent = 'No more hints';
    }
  }

  private showSolution(): void {
    const use = el('button', {
      type: 'button',
      textContent: 'Put the solution in the editor',
    });
    use.addEventListener('click', () => this.setCode(this.exercise.solution));
    this.solutionArea.replaceChildren(
      el('h4', {}, 'Solution'),
      el('pre', {}, el('code', {}, this.exercise.solution)),
      use,
    );
    this.solutionArea.hidden = false;
  }

  private say(state: string, ...lines: (string | Node)[]): void {
    this.feedback.dataset.state = state;
    this.feedback.replaceChildren(...lines.map((line) => (typeof line === 'string' ? el('p', {}, line) : line)));
  }

  private showFigures(got: unknown, expected: unknown, args: unknown[]): void {
    this.figures.replaceChildren();
    const reference = this.exercise.figure(expected, args);
    if (!reference) return;
    const yours = this.exercise.figure(got, args);
    const add = (title: string, testId: string, data: HeatmapData) => {
      const map = createHeatmap(title, testId);
      map.update(data);
      this.figures.append(map.element);
    };
    if (yours)
      add('Your result', 'heatmap-yours', {
        ...yours,
        range: yours.range ?? valueRange(reference),
      });
    else this.figures.append(el('p', { className: 'muted' }, 'Your result cannot be drawn as a heatmap.'));
    add('Reference (C++ engine)', 'heatmap-reference', reference);
  }

  async check(): Promise<void> {
    const exercise = this.exercise;
    const cases = exercise.cases();
    const code = this.code;
    this.checkButton.disabled = true;
    showSyntaxError(this.editor, null);
    this.say('running', 'Running your code…');
    try {
      this.expected ??= Promise.all(cases.map((c) => exercise.reference(this.call, c.args)));
      const [expected, outcome] = await Promise.all([
        this.expected,
        runInSandbox(
          {
            code,
            functionName: exercise.functionName,
            inputs: cases.map((c) => c.args),
            prelude: NP_SOURCE,
          },
          TIME_LIMIT_MS,
        ),
      ]);
      if (outcome.type === 'compile-error') {
        // The sandbox's SyntaxError has no position: find it and mark it in the editor.
        const place = findSyntaxError(code);
        if (code === this.code) showSyntaxError(this.editor, place);
        this.figures.replaceChildren();
        this.fail(
          outcome.type,
          sentence(
            `✗ Your code does not run: ${outcome.message}${place ? ` (line ${place.line}, column ${place.column}, marked in the editor)` : ''}`,
          ),
        );
        return;
      }
      if (outcome.type !== 'results') {
        this.figures.replaceChildren();
        this.fail(outcome.type, this.outcomeMessage(outcome));
        return;
      }
      for (let i = 0; i < cases.length; i++) {
        const result: CaseOutcome = outcome.results[i];
        if ('error' in result) {
          this.figures.replaceChildren();
          this.fail('fail', sentence(`✗ Case “${cases[i].name}” threw ${result.error}`));
          return;
        }
        const mismatch = compare(expected[i], result.value);
        if (mismatch) {
          const advice =
            (await this.knownMistake(cases[i].args, expected[i], result.value)) ??
            exercise.diagnose?.(expected[i], result.value, cases[i].args);
          const data = (text: string) => el('p', { className: 'data' }, text);
          const detail = describeMismatch(mismatch, cases[i].args);
          this.fail(
            'fail',
            sentence(`✗ Case “${cases[i].name}” failed${detail.startsWith('at ') ? ' ' : ': '}${detail}`),
            ...(advice ? [advice] : []),
            data(`Arguments: ${formatData(cases[i].args)}`),
            data(`Expected: ${formatData(expected[i])}`),
            data(`Got: ${formatData(result.value)}`),
          );
          this.showFigures(result.value, expected[i], cases[i].args);
          return;
        }
      }
      this.progress.markSolved(exercise.id);
      this.renderBadge();
      this.say(
        'pass',
        `✓ All ${cases.length} cases pass — the same results as the C++ engine (within ${ABS_TOL} + ${REL_TOL}·|expected|).`,
      );
      this.showFigures(
        outcome.results[0] && 'value' in outcome.results[0] ? outcome.results[0].value : null,
        expected[0],
        cases[0].args,
      );
    } catch (error) {
      this.expected = null;
      this.say(
        'error',
        `The reference could not be computed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      this.checkButton.disabled = false;
    }
  }

  /** The hint of the exercise's known mistake whose result on this case is the learner's, if any. */
  private async knownMistake(args: unknown[], expected: unknown, got: unknown): Promise<string | null> {
    const mistakes = this.exercise.mistakes ?? [];
    if (mistakes.length === 0) return null;
    const outcomes = await Promise.all(
      mistakes.map((m) =>
        runInSandbox(
          { code: m.code, functionName: this.exercise.functionName, inputs: [args], prelude: NP_SOURCE },
          TIME_LIMIT_MS,
        ),
      ),
    );
    const values = outcomes.map((o) =>
      o.type === 'results' && o.results[0] && 'value' in o.results[0] ? o.results[0].value : undefined,
    );
    return matchMistake(mistakes, values, expected, got);
  }

  private outcomeMessage(
    outcome: Exclude<Awaited<ReturnType<typeof runInSandbox>>, { type: 'results' | 'compile-error' }>,
  ): string {
    switch (outcome.type) {
      case 'timeout':
        return `✗ Stopped after ${outcome.ms / 1000} s: your code did not finish (an infinite loop?).`;
      case 'missing-function':
        return `✗ There is no function named ${outcome.name} in your code.`;
      case 'crashed':
        return `✗ The sandbox stopped: ${outcome.message}`;
    }
  }

  private fail(state: string, ...lines: (string | Node)[]): void {
    this.progress.markFailed(this.exercise.id);
    this.say(state, ...lines, 'Try again, ask for a hint, or look at the solution.');
    this.solutionButton.classList.add('suggested');
  }
}
