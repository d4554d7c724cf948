// Registers the service worker that makes the app work offline once loaded (dist/sw.js, written
// at build time by the precache plugin in web/vite.config.ts: every built file, cache-first,
// under a cache name that changes with the files). Skipped in the dev server (its modules change
// on every edit) and where service workers cannot run (file://, insecure origins).
export function registerOfflineSupport(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (location.protocol !== 'https:' && location.protocol !== 'http:') return;
  // The page works without it; a failed registration only means no offline copy.
  navigator.serviceWorker.register(new URL('./sw.js', document.baseURI), { scope: './' }).catch(() => {});
}
