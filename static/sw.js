// The service worker: it keeps the client's shell (the page, its styles, modules, font and
// icons) so that the site opens without a network, showing that it is offline, and reconnects
// by itself. Everything is asked of the network first, so that a page never mixes files of two
// versions of the client; the cache answers only when the network does not. The API and the
// socket are never cached.

const CACHE = 'jungle-shell-1';
/** Kept at install: enough for the page to open and say that it is offline. */
const SHELL = ['/', '/css/app.css', '/js/main.js', '/fonts/jungle-glyphs.woff2', '/icons/icon-192.png', '/manifest.webmanifest'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const fresh = await fetch(request);
      // Every client route is the one page: kept once, as '/'.
      if (fresh.ok) await cache.put(request.mode === 'navigate' ? '/' : request, fresh.clone());
      return fresh;
    } catch (offline) {
      const kept = await cache.match(request.mode === 'navigate' ? '/' : request);
      if (kept) return kept;
      throw offline;
    }
  })());
});
