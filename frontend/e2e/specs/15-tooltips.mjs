import { until, assert, goCall } from '../lib.mjs';

// Tooltips app-wide. Checks:
//  1. no screen carries native title= tooltips (they linger after a click
//     and cover the menu the click opened); the app's own tooltip is used;
//  2. the app's tooltip shows on hover, inside the window, and is gone
//     after a click and after navigating to another screen.
const routes = ['/terminal', '/sessions', '/external-agents', '/notes', '/chat', '/agents', '/pipeline', '/settings'];

async function titled(page) {
  return page.evaluate(() => [...document.querySelectorAll('[title]')].map((e) => e.outerHTML.slice(0, 90)));
}

export default async function ({ page, base, tmp }) {
  await page.goto(base + '/');
  // A pane, so the Terminal rail shows its per-pane buttons.
  const pane = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'sleep 60', cols: 80, rows: 24 });
  try {
    await check(page, base);
  } finally {
    await goCall(page, 'terminal.Service.Close', pane.id).catch(() => {});
  }
}

async function check(page, base) {
  for (const r of routes) {
    await page.goto(base + '/#' + r);
    await page.locator(`[data-route="${r}"][aria-current=page]`).waitFor();
    await page.waitForTimeout(400); // lazy screens and their first data
    // A screen with a list opens its first item, where most details live.
    if (r === '/external-agents') {
      await page.locator('[data-session]').first().click();
      await page.getByRole('button', { name: 'Open in Terminal' }).waitFor();
    }
    if (r === '/terminal') await page.locator('[data-pause], [data-close]').first().waitFor({ state: 'attached' });
    if (r === '/notes') {
      const first = page.locator('[data-note]').first();
      if (await first.count()) await first.click();
    }
    const left = await titled(page);
    assert(left.length === 0, `${r}: native title tooltips remain: ${left.join(' | ')}`);
  }

  // 2. Hover → tooltip inside the window; click → gone; navigation → gone.
  await page.goto(base + '/#/external-agents');
  await page.locator('[data-session]').first().click();
  const open = page.getByRole('button', { name: 'Open in Terminal' });
  await open.hover();
  const tooltip = page.getByRole('tooltip');
  await tooltip.waitFor({ timeout: 3000 });
  const box = await tooltip.boundingBox();
  const vw = page.viewportSize();
  assert(box.x >= 0 && box.y >= 0 && box.x + box.width <= vw.width && box.y + box.height <= vw.height, `the tooltip is inside the window: ${JSON.stringify(box)}`);
  await page.mouse.down();
  await tooltip.waitFor({ state: 'hidden', timeout: 1000 });
  await page.mouse.up();
  await page.keyboard.press('Escape'); // a dialog the click may have opened

  // A sidebar item shows its whole name: no tooltip repeats it.
  await page.locator('[data-route="/notes"]').hover();
  await page.waitForTimeout(800);
  assert(!(await tooltip.isVisible()), 'no tooltip repeats a name that is shown in full');
  await page.getByRole('button', { name: 'Connections' }).hover();
  await tooltip.waitFor({ timeout: 3000 });
  await page.evaluate(() => (location.hash = '#/settings'));
  await until('the tooltip gone after navigation', async () => !(await tooltip.isVisible()), 2000);
}
