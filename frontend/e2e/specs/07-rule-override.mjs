import { until } from '../lib.mjs';

// The broken override seeded in e2e/seed/rules-override.mjs is reported in
// the Sessions board, naming the file, and the bundled rules stay in use (the
// Sessions spec's prompt detection runs on them).
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/sessions');
  const notice = await until('the broken-override notice', async () => {
    const text = await page.locator('body').innerText();
    return text.includes('Detection rules override ignored') ? text : null;
  });
  if (!/claude\.toml/.test(notice) || !/using the bundled rules/.test(notice)) {
    throw new Error('the notice should name claude.toml and say the bundled rules are used: ' + notice.slice(0, 500));
  }
  await shot('rule-override');
}
