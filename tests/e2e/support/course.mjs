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
