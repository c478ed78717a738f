import { assert } from '../lib.mjs';

// Native selects next to the app's own pickers look like them: same height,
// border, corner and background, and the same chevron instead of the
// toolkit's (which differs between WebKitGTK, WebView2 and WKWebView).
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/agents');
  const select = page.getByRole('combobox', { name: 'Runtime Role' });
  const picker = page.getByRole('combobox', { name: 'Model Preference' });
  await select.waitFor();
  await picker.waitFor();
  const look = (loc) =>
    loc.evaluate((el) => {
      const s = getComputedStyle(el);
      return { height: Math.round(el.getBoundingClientRect().height), radius: s.borderTopLeftRadius, border: s.borderTopColor, bg: s.backgroundColor, appearance: s.appearance, chevron: s.backgroundImage, font: s.fontSize };
    });
  const a = await look(select);
  const b = await look(picker);
  assert(a.appearance === 'none', `the select draws its own look, not the toolkit's: appearance ${a.appearance}`);
  assert(a.chevron.includes('svg'), `the select has the app's chevron: ${a.chevron}`);
  for (const k of ['height', 'radius', 'border', 'bg', 'font']) assert(a[k] === b[k], `select and picker differ in ${k}: ${a[k]} vs ${b[k]}`);
  await shot('selects-agents');
}
