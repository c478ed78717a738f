import { until, assert } from '../lib.mjs';

// Connected agents, as a new user reads it. Checks:
//  1. help texts render their Markdown: commands are code, no raw backticks;
//  2. "Sign in to approve" shows the sign-in link to copy, for when no
//     browser opens (Wails' BrowserOpenURL cannot tell);
//  3. tooltips are the app's own: shown on hover inside the window, gone
//     after a click, and never a native title= that lingers.
export default async function ({ page, base, shot }) {
  await page.goto(base + '/');
  await page.getByRole('button', { name: 'Connections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();

  await dialog.getByRole('radio', { name: 'Claude' }).click();
  await dialog.getByLabel('Display name').fill('Help check');
  await dialog.getByRole('button', { name: 'Add assistant' }).click();
  await until('the pending connection', async () => ((await dialog.locator('[data-connection-detail] [role=status]').textContent()) ?? '').includes('Setup pending'));
  await until('the server address', async () => ((await dialog.locator('[data-server-address]').textContent()) ?? '').startsWith('http://127.0.0.1:'));

  // 1. Markdown in help texts.
  const caveat = dialog.locator('.caveat');
  await caveat.waitFor();
  const caveatText = (await caveat.textContent()) ?? '';
  assert(!caveatText.includes('`'), `the cloud caveat shows no raw backticks: ${caveatText}`);
  assert((await caveat.locator('code').textContent())?.startsWith('osfoundry serve --public-url'), 'the caveat shows the command as code');
  const codes = await dialog.locator('.how code').allTextContents();
  assert(codes.includes('/mcp'), `the setup steps show the /mcp command as code: ${codes}`);
  const panelText = (await dialog.textContent()) ?? '';
  assert(!panelText.includes('`'), 'no help text in the Connected panel shows raw backticks');

  // 3a. The app's tooltip, inside the window, on hover.
  const header = dialog.getByRole('button', { name: 'Sign in to approve' }).first();
  assert((await header.getAttribute('title')) === null, 'no native title tooltip on "Sign in to approve"');
  await header.hover();
  const tooltip = page.getByRole('tooltip');
  await tooltip.waitFor({ timeout: 3000 });
  const box = await tooltip.boundingBox();
  const vw = page.viewportSize();
  assert(box && box.x >= 0 && box.y >= 0 && box.x + box.width <= vw.width && box.y + box.height <= vw.height, `the tooltip is inside the window: ${JSON.stringify(box)} in ${JSON.stringify(vw)}`);
  assert(((await tooltip.textContent()) ?? '').includes('Connect an agent'), 'the tooltip says what the button does');
  await shot('connected-tooltip');

  // 2. No browser opens here (the test machine has none): the link is shown to copy.
  await page.evaluate(() => (window.open = () => null));
  await header.click();
  await tooltip.waitFor({ state: 'hidden', timeout: 2000 });
  const link = dialog.locator('[data-signin-link]');
  await link.waitFor({ timeout: 5000 });
  const url = ((await link.textContent()) ?? '').trim();
  assert(/^http:\/\/127\.0\.0\.1:\d+\//.test(url), `the sign-in link is shown: ${url}`);
  await dialog.getByText('If no browser opened, open this link in one').waitFor();
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await dialog.getByRole('button', { name: 'Copied', exact: true }).waitFor();
  await shot('connected-signin-link');

  // 3b. No native title= tooltips left anywhere on the screen.
  const titled = await page.evaluate(() => [...document.querySelectorAll('[title]')].filter((e) => !(e instanceof HTMLIFrameElement)).map((e) => e.outerHTML.slice(0, 80)));
  assert(titled.length === 0, `native title tooltips remain: ${titled.join(' | ')}`);
}
