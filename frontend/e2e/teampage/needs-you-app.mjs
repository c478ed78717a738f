// The whole journey with the desktop's dev build, driven by
// backend/remoteanswer/devbuild_test.go (TestDevBuildAnsweredFromThePage),
// which started the team server, the fake model and the app (joined to the
// team) and hands this script:
//   APP      the app's dev server (its window's page, with the bound methods)
//   BASE, COOKIES, SHOTS  the team server and alice's signed-in browser
//   CLAUDE, WORK  the pinned Claude Code and the folder it runs in
//   CONTROL  GET /ran waits until the approved command's result reached
//            the fake model
// Checks: the app is signed in to the team; Settings → Team's two switches
// turn on; a pane runs the real Claude Code, which asks for permission;
// the prompt shows on a phone within 1 s; Approve there → the page says
// "Answered." and Claude Code runs the command; quiet hours saved in the
// app's Settings → Team show on the phone, and off there reads off in the app;
// the phone's sign-in is listed in the app and signed out from there.
import { chromium } from 'playwright-core';
import { goCall, until } from '../lib.mjs';

const { APP, BASE, COOKIES, SHOTS, CLAUDE, WORK, CONTROL } = process.env;
const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--ignore-certificate-errors'],
});
try {
  // The app's window.
  const app = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  app.setDefaultTimeout(60000);
  await app.goto(APP + '/');
  await until('the app\'s bindings', () => app.evaluate(() => !!window.go?.teamclient?.SessionsBinding), 60000);
  const st = await goCall(app, 'teamclient.Binding.Status');
  check(st.state === 'connected', 'the app is not signed in to the team: ' + JSON.stringify(st));
  await goCall(app, 'teamclient.SessionsBinding.SetSharing', true);
  const view = await goCall(app, 'teamclient.SessionsBinding.SetAnswers', true);
  check(view.sharing && view.answers && !view.message, 'the switches: ' + JSON.stringify(view));

  // The phone.
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, ignoreHTTPSErrors: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile osf-e2e-app',
  });
  await ctx.addCookies(JSON.parse(COOKIES));
  const phone = await ctx.newPage();
  phone.setDefaultTimeout(60000);
  await phone.goto(BASE + '/needs-you');
  await phone.locator('#lists[data-live="on"]').waitFor();

  // Claude Code in a pane of the app.
  const pane = await goCall(app, 'terminal.Service.Create', { dir: WORK, command: CLAUDE + ' --permission-mode default', cols: 120, rows: 32 });
  const screen = async () => ((await goCall(app, 'terminal.Service.ScreenText', pane.id)) ?? []).join('\n');
  await until('Claude Code to be ready', async () => /\? for shortcuts/.test(await screen()), 60000);
  const task = 'Create the marker with the shell';
  for (let i = 0; i < 4 && !(await screen()).includes(task); i++) {
    await goCall(app, 'terminal.Service.Input', pane.id, task);
    await until('the task to echo', async () => (await screen()).includes(task), 5000).catch(() => {});
  }
  await new Promise((r) => setTimeout(r, 300));
  await goCall(app, 'terminal.Service.Input', pane.id, '\r');
  await until('the permission prompt in the pane', async () => /Do you want to proceed\?/.test(await screen()), 60000);
  const asked = Date.now();
  const card = phone.locator('#needs li.card.waits');
  await card.waitFor();
  const shown = Date.now() - asked;
  await card.getByRole('button', { name: 'Choice 2', exact: true }).waitFor();
  await phone.screenshot({ path: `${SHOTS}/phone-dev-build.png` });
  const t0 = Date.now();
  await card.getByRole('button', { name: 'Approve', exact: true }).tap();
  await phone.locator('#result').filter({ hasText: 'Answered.' }).waitFor();
  const answered = Date.now() - t0;
  const ran = await (await fetch(CONTROL + '/ran')).json();
  check(ran.ok, 'Claude Code did not run the approved command: ' + JSON.stringify(ran) + '\n' + (await screen()));
  console.log(`dev build: prompt in the pane → on the phone ${shown} ms; Approve → "Answered." ${answered} ms; → the command ran ${ran.t - t0} ms`);
  check(shown <= 1000, 'the prompt took over 1 s to reach the phone');

  // Quiet hours in the app's Settings → Team, next to the answering
  // switch: the same setting the phone's page shows and changes.
  await app.goto(APP + '/#/settings');
  const quiet = app.getByRole('form', { name: 'Quiet hours' });
  await quiet.getByLabel('Quiet from').fill('22:30');
  await quiet.getByLabel('Quiet until').fill('06:30');
  await quiet.getByRole('button', { name: 'Save' }).click();
  const note = app.getByTestId('quiet-note');
  await note.filter({ hasText: 'No pushes from 22:30 to 06:30 (' }).waitFor();
  await quiet.scrollIntoViewIfNeeded();
  await app.screenshot({ path: `${SHOTS}/app-settings-quiet.png` });
  await phone.reload();
  await phone.locator('#push summary').tap();
  await phone.locator('#quiet-now').filter({ hasText: 'No pushes from 22:30 to 06:30 (' }).waitFor();
  await phone.screenshot({ path: `${SHOTS}/phone-quiet-from-app.png`, fullPage: true });
  await phone.locator('#quiet-off').tap();
  await phone.locator('#quiet-now').filter({ hasText: 'No quiet hours' }).waitFor();
  await app.reload();
  await app.getByTestId('quiet-note').filter({ hasText: 'No quiet hours: pushes come at any time.' }).waitFor();
  check(!(await app.getByRole('form', { name: 'Quiet hours' }).getByRole('button', { name: 'Off' }).count()), 'Off shows without quiet hours');
  console.log('quiet hours set in the app showed on the phone; turned off on the phone, the app says none');

  // Browsers and phones in the app: the phone's sign-in is listed; Sign
  // out there, and the phone's open page leaves for the sign-in at once.
  const list = app.getByRole('list', { name: 'Browsers and phones' });
  const row = list.getByRole('listitem').filter({ hasText: 'signed in' }).first();
  await row.waitFor();
  await list.scrollIntoViewIfNeeded();
  await app.screenshot({ path: `${SHOTS}/app-settings-browsers.png` });
  await row.getByRole('button', { name: 'Sign out' }).click();
  await list.getByText('No browser is signed in as you.').waitFor();
  // The phone's open page hears of it (its event stream ends) and goes to
  // sign in by itself, without a reload.
  const signedOut = Date.now();
  // Polled, not waitForURL: a navigation the page starts while another is
  // under way aborts that one, and waitForURL fails on the abort.
  for (const end = Date.now() + 30000; phone.url().startsWith(BASE + '/needs-you'); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error(`the phone's page stayed on ${phone.url()} 30 s after the sign-out`);
  }
  console.log(`the phone signed out from the app's Settings → Team: its open page went to ${new URL(phone.url()).pathname} by itself in ${Date.now() - signedOut} ms`);
} finally {
  await browser.close();
}
