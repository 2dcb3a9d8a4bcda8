// The service worker: it keeps the client's shell (the page, its styles, modules, font and
// icons) so that the site opens without a network, showing that it is offline, and reconnects
// by itself. Everything is asked of the network first, so that a page never mixes files of two
// versions of the client; the cache answers only when the network does not. The API and the
// socket are never cached.

// Replaced at build time by the client's version: a new build is a new worker with its own
// cache, and the old cache is dropped when it takes over.
const VERSION = 'dev';
const CACHE = `jungle-shell-${VERSION}`;

/** Kept at install: the page and every file it names (styles, font, the first screen's
 * modules at their content-named addresses), enough to open and say that it is offline. */
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const page = await fetch('/', { cache: 'no-cache' });
    const text = await page.clone().text();
    await cache.put('/', page);
    // Files only (a name with an extension): the page's links to other pages are the page.
    const named = [...text.matchAll(/(?:href|src)="(\/[^"#?]*\.[a-z0-9]+)"/g)].map((match) => match[1]);
    await cache.addAll([...new Set(named)]);
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** `/js/board.1a2b3c4d5e.js`: an address named by the file's content. */
const CONTENT_NAMED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/ws') return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A content-named file never changes: the kept copy is the file.
    if (CONTENT_NAMED.test(url.pathname)) {
      const kept = await cache.match(request);
      if (kept) return kept;
    }
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

// Web Push: the server's message (encrypted for this browser, opened by it) shown as a
// notification; a newer one of the same `tag` (the same game) replaces the older.
self.addEventListener('push', (event) => {
  /** @type {{ title?: string, body?: string, url?: string, tag?: string }} */
  let message = {};
  try {
    message = event.data?.json() ?? {};
  } catch {
    message = {};
  }
  const title = message.title || 'Jungle Arena';
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body ?? '',
    tag: message.tag,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: message.url ?? '/' },
  }));
});

// A tap opens the game (or focuses a tab of the site already open, which goes there).
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const wanted = new URL(event.notification.data?.url ?? '/', self.location.origin);
  // Only this site's pages: a message names a path here.
  const url = wanted.origin === self.location.origin ? wanted.href : self.location.origin;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of open) {
      if ('focus' in client) {
        await client.focus();
        if ('navigate' in client) await client.navigate(url).catch(() => {});
        return;
      }
    }
    await self.clients.openWindow(url);
  })());
});
