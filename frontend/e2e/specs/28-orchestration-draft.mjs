import { assert } from '../lib.mjs';

// The Orchestration Start form keeps its draft across screens. Checks:
//  1. a fleet with a name, two tasks and a loop task, then a visit
//     to Chat and back: the form is open with the same name and tasks;
//  2. the Loop tab chosen before leaving is still the one shown.
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/orchestration');
  await page.getByRole('heading', { name: 'Orchestration' }).waitFor();
  const start = page.getByRole('button', { name: '+ Start' });
  await start.click();
  await page.getByLabel('Task of run 1').waitFor();
  await page.getByLabel('Name').fill('Nightly checks');
  await page.getByLabel('Task of run 1').fill('Run the linters');
  await page.getByLabel('Task of run 2').fill('Run the tests');
  await page.getByRole('tab', { name: 'Loop' }).click();
  await page.getByLabel('Task of the loop').fill('Fix one failing test');
  await page.getByLabel('Stop condition').fill('every test passes');

  await page.locator('[data-route="/chat"]').click();
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await page.locator('[data-route="/orchestration"]').click();

  await page.getByLabel('Task of the loop').waitFor();
  assert((await page.getByRole('tab', { name: 'Loop' }).getAttribute('aria-selected')) === 'true', 'the Loop tab is still chosen');
  assert((await page.getByLabel('Task of the loop').inputValue()) === 'Fix one failing test', 'the loop task is kept');
  assert((await page.getByLabel('Stop condition').inputValue()) === 'every test passes', 'the stop condition is kept');
  assert((await page.getByLabel('Name').inputValue()) === 'Nightly checks', 'the name is kept');
  await shot('orchestration-draft-kept');
  await page.getByRole('tab', { name: 'Fleet' }).click();
  assert((await page.getByLabel('Task of run 1').inputValue()) === 'Run the linters', 'the first fleet task is kept');
  assert((await page.getByLabel('Task of run 2').inputValue()) === 'Run the tests', 'the second fleet task is kept');
}
