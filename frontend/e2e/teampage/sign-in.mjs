// A real sign-in in Chromium, driven by backend/teamauth/strict_test.go
// (TestStrictCookieSignInInChromium): the team server at BASE, its provider
// at OP on another site (localhost against 127.0.0.1), so the provider's
// redirect back is a cross-site navigation, as in production.
// Checks:
//   - the sign-in ends signed in at the page it started from, with the
//     session cookie HttpOnly and SameSite=Strict, and no sign-in cookie left;
//   - a navigation another site starts does not carry the session cookie
//     (/auth/me answers "not signed in" there), one from the server's own
//     pages does;
//   - a link from another site to a page that needs a session lands on the
//     server first and shows the page signed in (PAGE, served by the test).
import { chromium } from 'playwright-core';

const { BASE, OP, PAGE } = process.env;
const check = (ok, what) => {
  if (!ok) throw new Error(what);
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic'],
});
try {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(BASE + '/auth/login?return_to=' + encodeURIComponent('/auth/me'));
  check(page.url().startsWith(OP), 'the sign-in did not reach the provider: ' + page.url());
  await page.fill('#username', 'alice');
  await page.fill('#password', 'pw-alice');
  await Promise.all([page.waitForURL(BASE + '/auth/me'), page.click('button[type=submit]')]);
  const me = JSON.parse(await page.locator('body').innerText());
  check(me.person && me.person.email === 'alice@example.com', 'signed in as ' + JSON.stringify(me));
  const cookies = await ctx.cookies(BASE);
  const session = cookies.find((c) => c.name === 'osf_team_session');
  check(session && session.sameSite === 'Strict' && session.httpOnly, 'the session cookie: ' + JSON.stringify(session));
  check(!cookies.some((c) => c.name === 'osf_team_login'), 'the sign-in cookie is still set: ' + JSON.stringify(cookies));
  console.log('signed in through the provider on another site; session cookie SameSite=' + session.sameSite);

  // From a page of the provider's site, a link to the team server.
  await page.goto(OP + '/.well-known/openid-configuration');
  await Promise.all([page.waitForURL(BASE + '/auth/me'), page.evaluate((u) => { location.href = u; }, BASE + '/auth/me')]);
  const cross = await page.locator('body').innerText();
  check(/not signed in/.test(cross), 'a navigation from another site carried the session: ' + cross);
  console.log('a navigation from another site carries no session: ' + cross.slice(0, 60));
  await page.goto(BASE + '/auth/logout');
  await Promise.all([page.waitForURL(BASE + '/auth/me'), page.evaluate((u) => { location.href = u; }, BASE + '/auth/me')]);
  check(/alice@example.com/.test(await page.locator('body').innerText()), 'a navigation from the server\'s own page carried no session');

  // A link from another site to a page that needs the session.
  await page.goto(OP + '/.well-known/openid-configuration');
  await Promise.all([page.waitForURL(BASE + PAGE), page.evaluate((u) => { location.href = u; }, BASE + PAGE)]);
  await page.locator('text=signed in as alice@example.com').waitFor();
  console.log('a link from another site lands on the page signed in');
  await ctx.close();
} finally {
  await browser.close();
}
