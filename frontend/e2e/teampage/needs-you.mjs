// The team server's Needs you page in Chromium, driven by the Go test
// backend/remoteanswer/team_test.go (TestNeedsYouPage), which runs the real
// team server and alice's desktop and hands this script their addresses:
//   BASE     the team server (haproxy, TLS from a throw-away CA)
//   CONTROL  the test's control channel: POST /ask shows a new prompt in the
//            pane, POST /desk answers it at the desk, GET /typed is what the
//            pane received next, GET /ntfy what the ntfy listener received
//   COOKIES  alice's signed-in session, SHOTS where screenshots go, NTFY an
//            ntfy server (a local listener on ntfy's wire)
// Checks, on a phone (390×844, touch) and a desktop viewport:
//   - a prompt on the desktop shows on the page (measured, target ≤ 1 s);
//   - Approve types "1" in the pane (measured, target ≤ 1 s) and the page
//     says "Answered."; a numbered choice types its number; a reply is typed
//     and entered; Decline presses Escape;
//   - a prompt answered at the desk first: nothing is typed and the page
//     says "It was already answered at the desk";
//   - Notifications: a new ntfy topic shows its QR code, Test push reaches
//     ntfy, quiet hours are saved and turned off, a needs-you push links to
//     the page on that session; Your desktops says which take answers;
//   - Web Push: the service worker registers and shows a pushed message as
//     a notification linking to the session; a notificationclick event
//     dispatched in the worker takes the page's window to that session
//     (navigated when the worker controls it, by a message when it does
//     not; never to another site);
//   - Browsers and phones lists this browser with Sign out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const { BASE, CONTROL, COOKIES, SHOTS, NTFY } = process.env;
const ctl = async (method, path) => (await fetch(CONTROL + path, { method })).json();
const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
// outlined waits up to 10 s (a live redraw may come first) for the card
// the page's address names to be outlined and to pass ok ({title, since}).
const outlined = async (page, ok) => {
  for (const end = Date.now() + 10000; ; await new Promise((r) => setTimeout(r, 100))) {
    const t = await page.evaluate(() => {
      const t = document.querySelector('.card.target');
      return t && t.id === location.hash.slice(1) ? { title: t.querySelector('.title')?.textContent, since: t.dataset.since } : null;
    });
    if (t && ok(t)) return true;
    if (Date.now() > end) return false;
  }
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--ignore-certificate-errors'],
});
const errors = [];

async function open(name, viewport, mobile) {
  const ctx = await browser.newContext({
    viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: mobile ? 2 : 1, ignoreHTTPSErrors: true,
    userAgent: mobile ? 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile osf-e2e-phone'
      : 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome osf-e2e-desktop',
  });
  await ctx.addCookies(JSON.parse(COOKIES));
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => errors.push(name + ': ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(name + ': ' + m.text()); });
  await page.goto(BASE + '/needs-you');
  await page.locator('#lists[data-live="on"]').waitFor();
  return page;
}

// ask shows a new prompt and waits for its card: the milliseconds it took.
async function ask(page) {
  const r = await ctl('POST', '/ask');
  const card = page.locator(`li.card[data-since="${r.since}"]`);
  await card.waitFor();
  return { card, ms: Date.now() - r.t };
}

async function answerWith(page, card, act, wantTyped, wantSaid) {
  await page.evaluate(() => { document.querySelector('#result').textContent = ''; });
  const t0 = Date.now();
  await act(card);
  const typed = await ctl('GET', '/typed');
  check(typed.text === wantTyped, `typed ${JSON.stringify(typed.text)}, want ${JSON.stringify(wantTyped)}`);
  await page.locator('#result').filter({ hasText: wantSaid }).waitFor();
  return typed.t - t0;
}

const phone = await open('phone', { width: 390, height: 844 }, true);
const tap = (name) => (card) => card.getByRole('button', { name, exact: true }).tap();

// Notifications first, so the prompts below push to ntfy.
await phone.locator('#push summary').tap();
await phone.locator('#ntfy-form input[name=server]').fill(NTFY);
await phone.locator('#ntfy-form').getByRole('button', { name: 'New topic' }).tap();
await phone.locator('#qr').waitFor();
check(await phone.locator('#qr').evaluate((img) => img.complete && img.naturalWidth >= 200), 'the QR code did not load');
await phone.screenshot({ path: `${SHOTS}/phone-notifications.png`, fullPage: true });
await phone.getByRole('button', { name: 'Test push' }).tap();
await phone.locator('#push-note').filter({ hasText: 'Sent to ntfy' }).waitFor();
// Quiet hours in the browser's own time zone, then off again.
await phone.locator('#quiet-form input[name=from]').fill('22:00');
await phone.locator('#quiet-form input[name=to]').fill('07:00');
await phone.locator('#quiet-form').getByRole('button', { name: 'Save' }).tap();
await phone.locator('#quiet-now').filter({ hasText: 'No pushes from 22:00 to 07:00 (' }).waitFor();
await phone.locator('#quiet-off').tap();
await phone.locator('#quiet-now').filter({ hasText: 'No quiet hours' }).waitFor();
await phone.locator('#push summary').tap();
await phone.locator('#desktops summary').tap();
await phone.locator('#desktop-list li').filter({ hasText: 'alice-laptop · takes answers from this page' })
  .getByRole('button', { name: 'Sign out' }).waitFor();
await phone.locator('#desktops summary').tap();
// Browsers and phones that may see and answer: this one is listed, with
// Sign out (TestRevokedBrowserNeitherSeesNorAnswersNorGetsPushes signs one out).
await phone.locator('#browsers summary').tap();
await phone.locator('#browser-list li').filter({ hasText: '· this browser' }).getByRole('button', { name: 'Sign out' }).waitFor();
await phone.screenshot({ path: `${SHOTS}/phone-browsers.png`, fullPage: true });
await phone.locator('#browsers summary').tap();

const toPage = [];
const toKeys = [];
for (let i = 0; i < 7; i++) {
  const { card, ms } = await ask(phone);
  toPage.push(ms);
  if (i === 0) {
    await phone.waitForTimeout(150);
    await phone.screenshot({ path: `${SHOTS}/phone-needs-you.png` });
  }
  toKeys.push(await answerWith(phone, card, tap('Approve'), '1', 'Answered.'));
}
await phone.locator('#running li').filter({ hasText: 'Claude Code in shop-api' }).waitFor();

let { card } = await ask(phone);
await answerWith(phone, card, tap('Choice 3'), '3', 'Answered.');
({ card } = await ask(phone));
await card.getByRole('textbox', { name: 'Reply' }).fill('use the staging database');
await answerWith(phone, card, tap('Send'), 'use the staging database\r', 'Answered.');

// Answered at the desk before the page's Approve reached the pane.
({ card } = await ask(phone));
await ctl('POST', '/desk');
await answerWith(phone, card, tap('Approve'), '', 'It was already answered at the desk: nothing was typed.');

// The needs-you push opens the page on the session.
const pushes = await ctl('GET', '/ntfy');
check(pushes.some((p) => p.startsWith('osFoundry | Pushes reach this device.')), 'Test push did not reach ntfy: ' + pushes);
const click = pushes.map((p) => p.split(' | ')[2]).find((u) => u && u.includes('/needs-you#s-'));
check(click, 'no needs-you push linked to the page: ' + JSON.stringify(pushes));
({ card } = await ask(phone));
await phone.goto(click);
await phone.locator('#lists[data-live="on"]').waitFor();
check(await outlined(phone, (t) => t.title === 'Claude Code in shop-api'),
  'the push link does not open the page on the session: ' + click);
const sw = await phone.evaluate(async () => {
  const r = await fetch('/needs-you/sw.js');
  const m = await (await fetch('/needs-you/manifest.webmanifest')).json();
  return { type: r.headers.get('content-type'), scope: r.headers.get('service-worker-allowed'), start: m.start_url };
});
check(sw.type.startsWith('text/javascript') && sw.scope === '/needs-you' && sw.start === '/needs-you', 'service worker or manifest: ' + JSON.stringify(sw));

// The desktop viewport: Decline presses Escape.
const desk = await open('desktop', { width: 1280, height: 800 }, false);
await desk.locator(`li.card[data-since]`).first().waitFor();
({ card } = await ask(desk));
await desk.waitForTimeout(150);
await desk.screenshot({ path: `${SHOTS}/desktop-needs-you.png` });
await answerWith(desk, card, (c) => c.getByRole('button', { name: 'Decline' }).click(), '\x1b', 'Answered.');

// Web Push: the service worker registers, and a push (the payload
// teampush encrypts: the Message as JSON, delivered here through DevTools
// since no push service runs on this machine) shows a notification that
// opens the page on its session.
await desk.context().grantPermissions(['notifications'], { origin: BASE });
const cdp = await desk.context().newCDPSession(desk);
const registered = new Promise((ok) => cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
  const r = e.registrations.find((r) => r.scopeURL.endsWith('/needs-you') && !r.isDeleted);
  if (r) ok(r.registrationId);
}));
await cdp.send('ServiceWorker.enable');
const scope = await desk.evaluate(async () => {
  const r = await navigator.serviceWorker.register('/needs-you/sw.js', { scope: '/needs-you' });
  await navigator.serviceWorker.ready;
  return r.scope;
});
check(scope === BASE + '/needs-you', 'the service worker scope: ' + scope);
const message = { title: 'Claude Code in shop-api needs you', body: 'Do you want to proceed? (on alice-laptop)', url: click };
await cdp.send('ServiceWorker.deliverPushMessage', { origin: BASE, registrationId: await registered, data: JSON.stringify(message) });
let shown = [];
for (let i = 0; i < 50 && !shown.length; i++) {
  await desk.waitForTimeout(100);
  shown = await desk.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url })));
}
check(shown.length === 1 && shown[0].title === message.title && shown[0].body === message.body && shown[0].url === click,
  'the Web Push notification: ' + JSON.stringify(shown));
// Tapping the notification opens the page on its session. No push service
// or notification centre runs here, so the tap is the notificationclick
// event dispatched in the service worker itself, on a notification it
// showed: the page's window (controlled by the worker after a reload) must
// go to the session's card, and the notification must close.
({ card } = await ask(desk));
const cardID = await card.getAttribute('id');
await desk.reload();
await desk.locator('#lists[data-live="on"]').waitFor();
check(await desk.evaluate(() => !!navigator.serviceWorker.controller), 'the page is not controlled by the service worker');
check(!desk.url().includes('#'), 'the page is already at a session: ' + desk.url());
const worker = desk.context().serviceWorkers().find((w) => w.url() === BASE + '/needs-you/sw.js');
check(worker, 'no service worker: ' + desk.context().serviceWorkers().map((w) => w.url()));
const target = BASE + '/needs-you#' + cardID;
const tapped = await worker.evaluate(async (url) => {
  await self.registration.showNotification('Claude Code in shop-api needs you', { body: 'Do you want to proceed?', data: { url }, tag: 'osf-click' });
  const [n] = await self.registration.getNotifications({ tag: 'osf-click' });
  self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
  await new Promise((ok) => setTimeout(ok, 200));
  return { left: (await self.registration.getNotifications({ tag: 'osf-click' })).length, windows: (await clients.matchAll({ type: 'window' })).map((w) => w.url) };
}, target);
await desk.waitForURL(target);
await desk.locator('#lists[data-live="on"]').waitFor();
check(tapped.left === 0, 'the tapped notification stayed: ' + JSON.stringify(tapped));
const since = await card.getAttribute('data-since');
check(await outlined(desk, (t) => t.since === since),
  'the tapped notification did not open the page on its session: ' + desk.url());
await desk.screenshot({ path: `${SHOTS}/desktop-notification-opened.png` });
console.log('notificationclick in the service worker: the page went to ' + desk.url().slice(BASE.length) + ' (windows the worker saw: ' + tapped.windows.length + ')');
// A link to another site in a push never leaves the page.
await worker.evaluate(async () => {
  await self.registration.showNotification('x', { data: { url: 'https://evil.example/needs-you' }, tag: 'osf-evil' });
  const [n] = await self.registration.getNotifications({ tag: 'osf-evil' });
  self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
});
await desk.waitForURL(BASE + '/needs-you');
({ card } = await ask(desk));
await answerWith(desk, card, (c) => c.getByRole('button', { name: 'Decline' }).click(), '\x1b', 'Answered.');
// A window of the page the worker does not control (loaded past it) is
// told by a message instead, and goes to the session itself.
const loose = await desk.context().newPage();
const looseCDP = await desk.context().newCDPSession(loose);
await looseCDP.send('Network.enable');
await looseCDP.send('Network.setBypassServiceWorker', { bypass: true });
await loose.goto(BASE + '/needs-you');
await loose.locator('#lists[data-live="on"]').waitFor();
check(await loose.evaluate(() => !navigator.serviceWorker.controller), 'the second window is controlled by the worker');
await desk.goto('about:blank');
await worker.evaluate(async (url) => {
  await self.registration.showNotification('again', { data: { url }, tag: 'osf-loose' });
  const [n] = await self.registration.getNotifications({ tag: 'osf-loose' });
  self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
}, target);
await loose.waitForURL(target);
console.log('notificationclick with an uncontrolled window: it went to ' + loose.url().slice(BASE.length));
await loose.close();
await desk.goto(BASE + '/needs-you');
await desk.locator('#lists[data-live="on"]').waitFor();

// Installable as an app: Chromium's own installability check, in a
// profile of its own (a throw-away context reads as incognito, which is
// never installable).
const profile = mkdtempSync(join(tmpdir(), 'osf-needs-you-'));
const own = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', ignoreHTTPSErrors: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--ignore-certificate-errors'],
});
try {
  await own.addCookies(JSON.parse(COOKIES));
  const p = own.pages()[0] ?? (await own.newPage());
  await p.goto(BASE + '/needs-you');
  await p.locator('#lists[data-live="on"]').waitFor();
  await p.evaluate(async () => { await navigator.serviceWorker.register('/needs-you/sw.js', { scope: '/needs-you' }); await navigator.serviceWorker.ready; });
  await p.reload();
  const c = await own.newCDPSession(p);
  const manifest = await c.send('Page.getAppManifest');
  check(manifest.errors.length === 0 && manifest.url.endsWith('/needs-you/manifest.webmanifest'), 'the manifest: ' + JSON.stringify(manifest.errors));
  let install = { installabilityErrors: [{ errorId: 'not checked' }] };
  for (let i = 0; i < 20 && install.installabilityErrors.length; i++) {
    install = await c.send('Page.getInstallabilityErrors');
    if (install.installabilityErrors.length) await p.waitForTimeout(250);
  }
  check(install.installabilityErrors.length === 0, 'not installable: ' + JSON.stringify(install.installabilityErrors));
} finally {
  await own.close();
  rmSync(profile, { recursive: true, force: true });
}
check(errors.length === 0, 'page errors: ' + errors.join('; '));
console.log(`prompt on the desktop → on the page (ms, n=${toPage.length}): p50 ${pct(toPage, 0.5)} p95 ${pct(toPage, 0.95)} max ${Math.max(...toPage)}`);
console.log(`Approve on the page → keys in the pane (ms, n=${toKeys.length}): p50 ${pct(toKeys, 0.5)} p95 ${pct(toKeys, 0.95)} max ${Math.max(...toKeys)}`);
console.log(`screenshots in ${SHOTS}`);
await browser.close();
check(pct(toPage, 0.95) <= 1000, 'a prompt took over 1 s to reach the page (p95)');
check(pct(toKeys, 0.95) <= 1000, 'an approval took over 1 s to reach the pane (p95)');
