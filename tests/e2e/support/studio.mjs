// Helpers of the Studio's browser tests (studio, studio_data, studio_baseline).
import { openPage } from './browser.mjs';

/**
 * A small model and short run: the Studio's tests train in seconds. The training settings are
 * pinned (learning rate 0.005, constant, no dropout) rather than taken from the built-in recipe,
 * so two epochs of this tiny model move its attention visibly and one- and two-worker runs agree
 * up to float rounding (dropout would draw different masks per shard).
 */
export const SMALL = '#/studio?embed=8&units=8&maxlen=64&words=2000&epochs=2&lr=0.005&dropout=0&wdrop=0&sched=constant';

/** Opens the Studio at `hash` and resolves once the engine is ready and its data is loaded. */
export async function openStudio(env, hash = SMALL) {
  const opened = await openPage(env, hash);
  await opened.page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 30000 });
  await opened.page.waitForSelector('.studio-data[data-state="loaded"]', { timeout: 30000 });
  return opened;
}

/** Resolves with the training panel's state once it is one of `states`. */
export async function waitForTrainState(page, states, timeout = 120000) {
  await page.waitForFunction(
    (wanted) => wanted.includes(document.querySelector('.train-panel')?.dataset.state),
    states,
    { timeout },
  );
  return page.locator('.train-panel').getAttribute('data-state');
}
