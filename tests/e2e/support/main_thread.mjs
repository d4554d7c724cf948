// Main-thread work of a page, measured as CPU time from a Chromium trace.
//
// Wall-clock task lengths (PerformanceObserver 'longtask') grow with the machine's load: on a
// busy 2-core runner a 40 ms frame can take 120 ms of wall time while the page's own work is
// unchanged. The trace's RunTask events on the renderer's main thread carry `tdur`, the thread's
// CPU time in µs, which measures the page's own work whatever else the machine is doing.

// blink.user_timing records performance.mark(), which names the page's main thread below.
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

/**
 * Starts a trace of `page`; `stop()` resolves to the CPU times (ms) of every task the page's
 * main thread ran in between, in order, and their wall times. Tracing is browser-wide: with the
 * test's context `t`, a test that fails before `stop()` still ends the trace when it ends, so
 * the next test can start its own.
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
  await page.evaluate(() => performance.mark('attn-trace-start'));
  return {
    async stop() {
      await end();
      const marker = events.find((e) => e.name === 'attn-trace-start');
      // Without the marker the page's thread cannot be told from another renderer's: fail loudly
      // rather than measure the wrong thread.
      if (!marker) throw new Error('traceMainThread: the page main thread is not in the trace (no start marker)');
      const main = { pid: marker.pid, tid: marker.tid };
      const tasks = events.filter(
        (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === main.pid && e.tid === main.tid,
      );
      return {
        cpuMs: tasks.map((e) => (e.tdur ?? e.dur) / 1000),
        wallMs: tasks.map((e) => e.dur / 1000),
        threadTimes: tasks.every((e) => typeof e.tdur === 'number'),
      };
    },
  };
}

/** The q-quantile (0..1) of `values`, nearest rank; 0 for an empty list. */
export function quantile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
