import { until, assert, goCall, freePort } from '../lib.mjs';

// Settings → Team for a person who never joined a team. Checks:
//  1. the header shows no team, and Settings → Team offers the server
//     field and Sign in, saying nothing leaves the computer by joining;
//  2. an address that is a plain website (the app's own page) is refused
//     with "not an osFoundry team server", and nothing is saved: the app
//     still reads signed out;
//  3. an address where nothing listens says it cannot be reached.
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/settings');
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  const team = page.getByRole('region', { name: 'Team' });

  // 1.
  await team.getByRole('button', { name: 'Sign in' }).waitFor();
  assert((await page.locator('header .badge').count()) === 0, 'no team in the header before joining');
  await team.getByText('Nothing of your projects leaves this computer by joining').waitFor();
  const field = team.getByRole('textbox', { name: 'Team server' });

  // 2.
  await field.fill(base);
  await team.getByRole('button', { name: 'Sign in' }).click();
  const alert = team.getByRole('alert');
  await alert.waitFor();
  const said = (await alert.textContent()) ?? '';
  assert(/not an osFoundry team server/i.test(said) && said.includes('check the address your team'), `the refusal: ${said}`);
  const st = await goCall(page, 'teamclient.Binding.Status');
  assert(st.state === 'signed_out' && st.server === '', `still signed out: ${JSON.stringify(st)}`);
  assert((await page.locator('header .badge').count()) === 0, 'still no team in the header');
  await shot('settings-team-refused');

  // 3.
  const closed = await freePort();
  await field.fill(`http://127.0.0.1:${closed}`);
  await team.getByRole('button', { name: 'Sign in' }).click();
  await until('the unreachable message', async () => /cannot be reached/.test((await alert.textContent()) ?? ''));
}
