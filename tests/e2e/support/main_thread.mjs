// Main-thread work of a page, measured as CPU time from a Chromium trace.
//
// Wall-clock task lengths (PerformanceObserver 'longtask') grow with the machine's load: on a
// busy 2-core runner a 40 ms frame can take 120 ms of wall time while the page's own work is
// unchanged. The trace's RunTask events on the renderer's main thread carry `tdur`, the thread's
// CPU time in µs, which measures the page's own work whatever else the machine is doing.
//
// Chromium leaves `tdur` out of an event whose thread clock did not advance: in traces taken
// under `stress-ng` every event without it lasted under 50 µs of wall time, and none carried
// `tdur: 0`. Such a task is counted at its wall time, an upper bound of its CPU time, so a
// missing thread time can make the budget stricter, never looser.

// blink.user_timing records performance.mark(), which names the page's main thread below.
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];
const START_MARK = 'attn-trace-start';

/**
 * The page's main-thread tasks in a trace's events: `cpuMs` (thread CPU time, or the wall time
 * where the trace has none), `wallMs`, and `withoutThreadTime`, how many had no thread time.
 */
export function mainThreadTasks(events) {
  const marker = events.find((e) => e.name === START_MARK);
  // Without the marker the page's thread cannot be told from another renderer's: fail loudly
  // rather than measure the wrong thread.
  if (!marker) throw new Error('traceMainThread: the page main thread is not in the trace (no start marker)');
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === marker.pid && e.tid === marker.tid,
  );
  return {
    cpuMs: tasks.map((e) => (typeof e.tdur === 'number' ? e.tdur : e.dur) / 1000),
    wallMs: tasks.map((e) => e.dur / 1000),
    withoutThreadTime: tasks.filter((e) => typeof e.tdur !== 'number').length,
  };
}

/**
 * Starts a trace of `page`; `stop()` resolves to mainThreadTasks() of what the page's main
 * thread ran in between. Tracing is browser-wide: with the test's context `t`, a test that fails
 * before `stop()` still ends the trace when it ends, so the next test can start its own.
 */
export async function traceMainThread(page, t) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (message) => events.push(...message.value));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES },
    transferMode: 'ReportEvents',
  });
  let ended = null;
  const end = () =>
    (ended ??= (async () => {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
    })());
  t?.after(() => end().catch(() => {}));
  // The renderer's main thread is the one that ran this marker.
  await page.evaluate((name) => performance.mark(name), START_MARK);
  return {
    async stop() {
      await end();
      return mainThreadTasks(events);
    },
  };
}

/**
 * What breaks the main-thread budget while a model trains, judged on the CPU time of each task
 * (the page's own work whatever the machine's load): drawing is budgeted at 50 ms per task on
 * the 99th percentile of the run's tasks, and no task may take 100 ms of CPU (the long-task
 * rule, in CPU time). An empty list when the budget holds; at least 100 tasks must be traced
 * for the percentile to mean anything.
 */
export function mainThreadBudgetViolations({ cpuMs }) {
  const violations = [];
  if (cpuMs.length < 100) violations.push(`only ${cpuMs.length} tasks traced (at least 100 needed)`);
  const p99 = quantile(cpuMs, 0.99);
  if (p99 > 50) violations.push(`99th percentile of main-thread task CPU time ${p99.toFixed(1)} ms (budget 50 ms)`);
  const long = cpuMs.filter((ms) => ms > 100);
  if (long.length > 0) violations.push(`main-thread tasks over 100 ms of CPU: ${long.map((ms) => ms.toFixed(1))}`);
  return violations;
}

/** One line on the traced tasks for a test's diagnostics. */
export function describeTasks({ cpuMs, wallMs, withoutThreadTime }) {
  const max = (values) => (values.length ? Math.max(...values) : 0);
  return (
    `main-thread tasks: ${cpuMs.length}, CPU ms p50 ${quantile(cpuMs, 0.5).toFixed(1)}, ` +
    `p99 ${quantile(cpuMs, 0.99).toFixed(1)}, max ${max(cpuMs).toFixed(1)}; wall ms max ${max(wallMs).toFixed(1)}; ` +
    `without a thread time (counted at wall time): ${withoutThreadTime}`
  );
}

/** The q-quantile (0..1) of `values`, nearest rank; 0 for an empty list. */
export function quantile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
