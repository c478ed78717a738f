// The Needs you page's service worker: shows a Web Push from the team
// server and opens the page on that session when it is tapped.
self.addEventListener('push', (e) => {
  let m = {title: 'osFoundry', body: '', url: '/needs-you'};
  try { m = Object.assign(m, e.data.json()); } catch (_) { if (e.data) m.body = e.data.text(); }
  e.waitUntil(self.registration.showNotification(m.title, {body: m.body, data: {url: m.url}, tag: m.url, icon: '/needs-you/icon.svg'}));
});

// openSession shows url (the page at one session) in a window: one of
// the page's open windows goes there (navigated when this worker controls
// it, told by a message when it does not), else a new window opens.
async function openSession(url) {
  const ws = await clients.matchAll({type: 'window', includeUncontrolled: true});
  const page = ws.find((w) => new URL(w.url).pathname === '/needs-you');
  if (!page) return clients.openWindow(url);
  let at = null;
  try { at = await page.navigate(url); } catch (_) { /* not controlled by this worker */ }
  if (!at) page.postMessage({open: url});
  try { await (at || page).focus(); } catch (_) { /* focusing needs the tap's activation */ }
  return at || page;
}

self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  let url = new URL('/needs-you', self.location.origin).href;
  try {
    const u = new URL((e.notification.data && e.notification.data.url) || '/needs-you', self.location.origin);
    if (u.origin === self.location.origin && u.pathname === '/needs-you') url = u.href; // never another site
  } catch (_) { /* a bad link opens the page */ }
  const done = openSession(url);
  try { e.waitUntil(done); } catch (_) { /* an event not dispatched by the browser */ }
});
