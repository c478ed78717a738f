// The Needs you page's service worker: shows a Web Push from the team
// server and opens the page on that session when it is tapped.
self.addEventListener('push', (e) => {
  let m = {title: 'osFoundry', body: '', url: '/needs-you'};
  try { m = Object.assign(m, e.data.json()); } catch (_) { if (e.data) m.body = e.data.text(); }
  e.waitUntil(self.registration.showNotification(m.title, {body: m.body, data: {url: m.url}, tag: m.url, icon: '/needs-you/icon.svg'}));
});
self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL((e.notification.data && e.notification.data.url) || '/needs-you', self.location.origin).href;
  e.waitUntil(clients.matchAll({type: 'window', includeUncontrolled: true}).then((ws) => {
    for (const w of ws) if (new URL(w.url).pathname === '/needs-you' && 'focus' in w) return w.navigate(url).then((c) => c && c.focus());
    return clients.openWindow(url);
  }));
});
