// Helpers of the course's browser tests (course.test.mjs, course_seq2seq_step.test.mjs).

/** Replaces an exercise editor's content the way a paste would. */
export async function setCode(page, id, code) {
  const content = page.locator(`[data-testid="exercise-${id}"] .cm-content`);
  await content.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** Resolves once the saved progress holds a draft of exercise `id` containing `needle`. */
export function draftSaved(page, id, needle) {
  return page.waitForFunction(
    ([exercise, text]) =>
      (JSON.parse(localStorage.getItem('attention-playground.course.v1') ?? '{}').drafts?.[exercise] ?? '').includes(
        text,
      ),
    [id, needle],
  );
}

/**
 * Arms a "Stop" click for the first time `statusSelector`'s text matches `pattern` (a progress
 * line): a MutationObserver clicks the demo's button in the same task that rendered that progress,
 * so the click lands while the run is still going however fast the machine is.
 */
export function stopOnFirstProgress(page, demoSelector, statusSelector, pattern) {
  return page.evaluate(
    ([demoSel, statusSel, source]) => {
      const demo = document.querySelector(demoSel);
      const status = document.querySelector(statusSel);
      const re = new RegExp(source);
      const observer = new MutationObserver(() => {
        if (!re.test(status.textContent)) return;
        observer.disconnect();
        const stop = [...demo.querySelectorAll('button')].find((b) => b.textContent === 'Stop');
        if (!stop) throw new Error('no Stop button while the run reports progress');
        stop.click();
      });
      observer.observe(status, { childList: true, characterData: true, subtree: true });
    },
    [demoSelector, statusSelector, pattern.source],
  );
}
