import { until, assert } from '../lib.mjs';

// Polish: no tab bar with one tab, and no light menu in the dark window.
// Checks:
// 1. a note with one tab shows no tab bar; "+ Add tab" sits in its header,
//    and the bar comes with the second tab;
// 2. Pipeline, one section, shows no section tab bar;
// 3. the page, its selects and fields ask for dark native parts
//    (color-scheme: dark: the popup list of a <select> in Chromium and
//    WebView2, and a field's suggestions), the options are dark, and the
//    app's own menus (Add tab, the model picker) are dark.
// (WebKitGTK draws a <select>'s popup as a GTK menu, dark through GTK's
// theme: wailsui.TuneWebView; looked at in a real window.)
const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};
const isDark = (rgb) => luminance(rgb) < 0.3;
const bgOf = (loc) => loc.evaluate((el) => getComputedStyle(el).backgroundColor);

export default async function ({ page, base, shot }) {
  // 1. Notes.
  await page.goto(base + '/#/notes');
  await page.getByRole('button', { name: '+ New note' }).click();
  await page.getByLabel('Title').fill('One tab');
  await page.getByRole('button', { name: 'Create note' }).click();
  const view = page.locator('[data-note-view]');
  await view.waitFor();
  await until('the note body', async () => (await page.locator('[data-note-tab]').getAttribute('data-note-tab')) !== null);
  const bar = view.getByRole('tablist', { name: 'Tabs' });
  assert((await bar.count()) === 0, 'a note with one tab should show no tab bar');
  const add = view.locator('header').getByRole('button', { name: 'Add tab' });
  assert(await add.isVisible(), 'Add tab should be in the header of a one-tab note');
  await add.click();
  const menu = view.getByRole('menu');
  await menu.waitFor();
  assert(isDark(await bgOf(menu)), `the Add tab menu should be dark: ${await bgOf(menu)}`);
  await shot('one-tab-note-menu');
  await menu.getByRole('menuitem', { name: 'Sheet' }).click();
  await bar.waitFor();
  assert((await bar.getByRole('tab').count()) === 2, 'two tabs: the bar shows both');
  assert((await view.locator('header').getByRole('button', { name: 'Add tab' }).count()) === 0, 'with a bar, Add tab is in the bar');
  await shot('two-tab-note');

  // 2. Pipeline: one section, no section bar.
  await page.goto(base + '/#/pipeline');
  await page.getByRole('heading', { name: 'Pipeline Roles' }).waitFor();
  assert((await page.locator('.page-tabs, [role="tablist"]').count()) === 0, 'Pipeline should show no tab bar for its one section');

  // 3. Dark native parts and menus.
  const schemes = await page.evaluate(() => {
    const probe = (tag) => {
      const el = document.createElement(tag);
      document.body.append(el);
      const s = getComputedStyle(el).colorScheme;
      el.remove();
      return s;
    };
    return { root: getComputedStyle(document.documentElement).colorScheme, select: probe('select'), input: probe('input'), textarea: probe('textarea') };
  });
  for (const [k, v] of Object.entries(schemes)) assert(v === 'dark', `color-scheme of ${k}: ${v}`);
  await page.goto(base + '/#/notes');
  await page.getByRole('button', { name: '+ New note' }).click();
  const project = page.getByLabel('Project');
  await project.waitFor();
  const option = await project.locator('option').first().evaluate((o) => ({ bg: getComputedStyle(o).backgroundColor, fg: getComputedStyle(o).color }));
  assert(isDark(option.bg) && !isDark(option.fg), `a select's options should be light on dark: ${JSON.stringify(option)}`);
  await page.goto(base + '/#/pipeline');
  const picker = page.getByRole('combobox', { name: 'Model for Worker' });
  await picker.click();
  const list = page.getByRole('listbox', { name: 'Model for Worker' });
  await list.waitFor();
  assert(isDark(await bgOf(list)), `the model picker's list should be dark: ${await bgOf(list)}`);
  await shot('dark-model-picker');
  await page.keyboard.press('Escape');
}
