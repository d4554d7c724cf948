// The offline service worker (template: web/vite.config.ts writes dist/sw.js from it with the
// list of built files and a cache version derived from their contents).
// Install: fetch every file into a cache named after this build. Activate: delete older builds'
// caches and take control of open pages. Fetch: same-origin GETs are answered from the cache
// first (ignoring the query, so ?debug pages match), then the network; everything else (there
// should be nothing: the CSP allows only 'self') goes to the network untouched.
const CACHE = 'attn-playground-__CACHE_VERSION__';
const FILES = __PRECACHE_FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith('attn-playground-') && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // ignoreVary: the server may send "Vary: Origin", and module scripts carry an Origin header
      // that the precaching requests did not.
      const hit = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
      return hit ?? fetch(request);
    }),
  );
});
