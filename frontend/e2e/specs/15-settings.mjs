import { until, assert, goCall } from '../lib.mjs';

// Settings, as a new user reads it. Checks:
//  1. Local Folders has a Browse… button (the system folder dialog) beside
//     the path field, and no text about surfaces the app does not have;
//  2. the version, the data folder and the log file are shown;
//  3. desktop notifications can be turned off; the switch is saved in the
//     backend (survives a reload) and on again when switched back.
export default async function ({ page, base, tmp, shot }) {
  await page.goto(base + '/#/settings');
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  const body = page.locator('main');

  // 1.
  await body.getByRole('heading', { name: 'Local Folders' }).waitFor();
  const browse = body.getByRole('button', { name: 'Browse…' });
  await browse.waitFor();
  assert(await browse.isEnabled(), 'Browse… is enabled');
  const text = (await body.textContent()) ?? '';
  assert(!/Code surface/i.test(text), 'no text about a Code surface');

  // 2.
  await until('the version', async () => ((await body.getByTestId('about-version').textContent()) ?? '').trim());
  assert(text.includes('Data folder') || (await body.getByText('Data folder').count()) > 0, 'the data folder is shown');
  const log = ((await body.getByTestId('about-log').textContent()) ?? '').trim();
  assert(log.startsWith(tmp), `the log file is in the data folder: ${log}`);
  await body.getByRole('button', { name: 'Copy the log file path' }).click();
  await body.getByRole('button', { name: 'Copied' }).waitFor();

  // 3.
  const toggle = body.getByRole('checkbox', { name: 'Desktop notifications when an agent needs you' });
  await toggle.waitFor();
  assert(await toggle.isChecked(), 'notifications are on by default');
  await toggle.uncheck();
  await until('the setting saved', async () => (await goCall(page, 'settings.Binding.Get')).notifications === false);
  await body.getByText('Off: agents that need you show on the Sessions board and the Terminal rail only.').waitFor();
  await shot('settings');
  await page.reload();
  await toggle.waitFor();
  await until('the saved switch after a reload', async () => !(await toggle.isChecked()));
  await toggle.check();
  await until('the setting saved on', async () => (await goCall(page, 'settings.Binding.Get')).notifications === true);
}
