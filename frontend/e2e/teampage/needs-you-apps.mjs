// The app's own chats and agent runs on the Needs you page, driven by
// backend/remoteanswer/app_test.go (TestAppSessionsAnsweredFromThePage):
//   BASE, COOKIES, SHOTS  as in needs-you.mjs
//   CONTROL  GET /decided is the decision the agent run's approval got,
//            GET /replied whether the agent's next turn holds the reply
// Checks on a phone (390×844, touch): the agent run that asks to use Bash
// shows with Approve and Decline (no numbered choices, no reply); Approve
// there → the page says "Answered." and the run's approval is approved;
// the chat's question shows with a reply field only, and a reply sent
// there is the chat's next message to the agent.
import { chromium } from 'playwright-core';

const { BASE, CONTROL, COOKIES, SHOTS } = process.env;
const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--ignore-certificate-errors'],
});
try {
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, ignoreHTTPSErrors: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile osf-e2e-apps',
  });
  await ctx.addCookies(JSON.parse(COOKIES));
  const page = await ctx.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(BASE + '/needs-you');
  await page.locator('#lists[data-live="on"]').waitFor();
  const card = page.locator('#needs li.card').filter({ hasText: 'Refactor billing' });
  await card.getByText('Asks to use Bash').waitFor();
  check(await card.getByRole('button', { name: 'Decline', exact: true }).count() === 1, 'no Decline on the agent run');
  check(await card.getByRole('button', { name: 'Choice 1' }).count() === 0 && await card.getByRole('textbox').count() === 0,
    'the agent run offers choices or a reply');
  check((await card.textContent()).includes('agent · on alice-laptop'), 'the card: ' + (await card.textContent()));
  await page.screenshot({ path: `${SHOTS}/phone-app-approval.png` });
  await card.getByRole('button', { name: 'Approve', exact: true }).tap();
  await page.locator('#result').filter({ hasText: 'Answered.' }).waitFor();
  const d = await (await fetch(CONTROL + '/decided')).json();
  check(d.approved === true && /team server's page/.test(d.reason), 'the approval\'s decision: ' + JSON.stringify(d));
  // The run goes on: it leaves Needs you for Running.
  await page.locator('#running li').filter({ hasText: 'Refactor billing' }).waitFor();
  // The chat asks again: a reply from the phone is its next message.
  const chat = page.locator('#needs li.card').filter({ hasText: 'Shall I migrate the tables now?' });
  await chat.getByRole('textbox', { name: 'Reply' }).waitFor();
  check(await chat.getByRole('button', { name: 'Approve' }).count() === 0, 'the chat\'s question offers Approve');
  check((await chat.textContent()).includes('chat · on alice-laptop'), 'the chat card: ' + (await chat.textContent()));
  await page.screenshot({ path: `${SHOTS}/phone-app-chat.png` });
  await page.evaluate(() => { document.querySelector('#result').textContent = ''; });
  await chat.getByRole('textbox', { name: 'Reply' }).fill('yes, migrate them');
  await chat.getByRole('button', { name: 'Send' }).tap();
  await page.locator('#result').filter({ hasText: 'Answered.' }).waitFor();
  const replied = await (await fetch(CONTROL + '/replied')).json();
  check(replied.ok, 'the reply did not reach the agent');
  await page.screenshot({ path: `${SHOTS}/phone-app-replied.png` });
  check(errors.length === 0, 'page errors: ' + errors.join('; '));
  console.log('phone: the agent run\'s approval shown with Approve/Decline and approved; the chat\'s question replied to from the page');
} finally {
  await browser.close();
}
