// The Needs you page on a phone with the REAL Claude Code behind it,
// driven by backend/remoteanswer/live_test.go (TestLiveClaudeAnsweredFromThePage):
//   BASE, COOKIES, SHOTS  as in needs-you.mjs
//   CONTROL  POST /ask types a task into the Claude Code pane (the fake
//            model answers with a Bash command, so Claude Code asks); GET
//            /ran waits until the command's result went back to the model
// Checks: the permission prompt shows on the page with its question line
// and choices; Approve there → "Answered." and Claude Code runs the command.
import { chromium } from 'playwright-core';

const { BASE, CONTROL, COOKIES, SHOTS } = process.env;
const ctl = async (method, path) => (await fetch(CONTROL + path, { method })).json();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--ignore-certificate-errors'],
});
const ctx = await browser.newContext({
  viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, ignoreHTTPSErrors: true,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile osf-e2e-live',
});
await ctx.addCookies(JSON.parse(COOKIES));
const page = await ctx.newPage();
page.setDefaultTimeout(60000);
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(BASE + '/needs-you');
await page.locator('#lists[data-live="on"]').waitFor();

const asked = await ctl('POST', '/ask');
const card = page.locator('#needs li.card.waits');
await card.waitFor();
const shown = Date.now();
// The menu is counted a moment after the prompt's first line shows.
await card.getByRole('button', { name: 'Choice 2', exact: true }).waitFor();
const line = await card.locator('.q').textContent();
await page.screenshot({ path: `${SHOTS}/phone-live-claude.png` });
const t0 = Date.now();
await card.getByRole('button', { name: 'Approve', exact: true }).tap();
await page.locator('#result').filter({ hasText: 'Answered.' }).waitFor();
const answered = Date.now();
const ran = await ctl('GET', '/ran');
if (!ran.ok) throw new Error('Claude Code did not run the approved command: ' + JSON.stringify(ran));
await page.locator('#running li, #needs li#none').first().waitFor();
if (errors.length) throw new Error('page errors: ' + errors.join('; '));
console.log(`task entered → prompt on the phone: ${shown - asked.t} ms (question line ${JSON.stringify(line)})`);
console.log(`Approve tapped → the page says answered: ${answered - t0} ms; the command ran: ${ran.t - t0} ms`);
await browser.close();
