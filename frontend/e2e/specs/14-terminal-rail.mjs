import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall, alive } from '../lib.mjs';

// prompt.sh stands in for Claude Code's TUI (works, then asks a permission).
const script = resolve(dirname(fileURLToPath(import.meta.url)), '../../../backend/testkit/fakeprompt/prompt.sh');

// The Terminal rail as a person uses it every day. Three panes in one
// folder "work": a shell at its prompt, a shell running `sleep 600` and one
// whose loop keeps printing. Checks:
// - every entry reads "<State> · work" and, below, what runs in it (the
//   command, not three times "bash"); the printing and the sleeping pane
//   are Working on the rail and Running on the Sessions board, the quiet
//   shell Idle;
// - the rail's buttons are drawn icons (SVG), with no font glyph in them;
// - Close on the pane running a program asks first, naming it; Cancel keeps
//   it running; Close pane ends it; Close on the idle shell closes at once;
// - Close on an agent (prompt.sh, read as Claude Code) asks while it works
//   and while it waits for a decision, and closes at once once it is idle;
// - the selected pane is still selected after visiting another screen;
// - the New pane form starts on the folder the last pane was started in.
export default async function ({ page, base, tmp, shot }) {
  const dir = join(tmp, 'rail', 'work');
  mkdirSync(dir, { recursive: true });
  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const make = (command) => goCall(page, 'terminal.Service.Create', { dir, command, cols: 100, rows: 30 });
  const quiet = await make('bash --norc --noprofile');
  const sleeper = await make('bash --norc --noprofile');
  const printer = await make('bash --norc --noprofile');
  const ids = [quiet.id, sleeper.id, printer.id];
  try {
    await goCall(page, 'terminal.Service.Input', sleeper.id, 'sleep 600\r');
    await goCall(page, 'terminal.Service.Input', printer.id, 'while :; do echo tick-$RANDOM; sleep 0.5; done\r');
    const label = (id) => page.locator(`[data-pane="${id}"]`).textContent().then((t) => t.trim());
    const what = (id) => page.locator(`[data-pane-what="${id}"]`).textContent().then((t) => t.trim());
    await until('the sleeping pane to read Working · work / sleep 600', async () => (await label(sleeper.id)) === 'Working · work' && (await what(sleeper.id)) === 'sleep 600');
    await until('the printing pane to read Working · work', async () => (await label(printer.id)) === 'Working · work');
    await until('the quiet shell to read Idle · work / bash --norc --noprofile', async () => (await label(quiet.id)) === 'Idle · work' && (await what(quiet.id)) === 'bash --norc --noprofile');
    await shot('terminal-rail-labels');

    // Icons are SVG drawings, not characters a font may lack.
    const buttons = await page.$$eval('.rail-col li button.act, .rail-col li button.close', (els) =>
      els.map((b) => ({ svg: !!b.querySelector('svg'), text: b.textContent.trim(), label: b.getAttribute('aria-label') })),
    );
    assert(buttons.length >= 3, `rail buttons: ${JSON.stringify(buttons)}`);
    for (const b of buttons) assert(b.svg && b.text === '', `the ${b.label} button should be an SVG icon with no glyph, got ${JSON.stringify(b)}`);

    // The board agrees: programs at work are Running, the quiet shell Idle.
    await page.goto(base + '/#/sessions');
    await page.waitForSelector(`[data-column="running"] [data-card="terminal/${sleeper.id}"]`);
    await page.waitForSelector(`[data-column="running"] [data-card="terminal/${printer.id}"]`);
    await page.waitForSelector(`[data-column="idle"] [data-card="terminal/${quiet.id}"]`);
    await shot('terminal-board-running');

    // Select the sleeping pane, leave the screen, come back: still selected.
    await page.goto(base + '/#/terminal');
    await page.click(`[data-pane="${sleeper.id}"]`);
    await page.waitForSelector(`li.active [data-pane="${sleeper.id}"]`);
    await page.click('[data-route="/sessions"]');
    await page.waitForSelector('[data-column="running"]');
    await page.click('[data-route="/terminal"]');
    await page.waitForSelector('.rail-col');
    await until('the sleeping pane to be selected again', async () => (await page.$(`li.active [data-pane="${sleeper.id}"]`)) !== null, 5000);

    // Close asks first when a program runs; Cancel keeps it.
    await page.click(`[data-close="${sleeper.id}"]`);
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const text = await dialog.textContent();
    assert(text.includes('Close this pane?') && text.includes('sleep 600 is running in work'), `close question: ${text}`);
    await shot('terminal-close-question');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await until('the question to go', async () => (await page.$('[role="alertdialog"]')) === null);
    await new Promise((r) => setTimeout(r, 300));
    assert(alive(sleeper.pid), 'Cancel should leave the pane running');
    assert((await goCall(page, 'terminal.Service.List')).some((p) => p.id === sleeper.id), 'Cancel should keep the pane');
    // Escape cancels too.
    await page.click(`[data-close="${sleeper.id}"]`);
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await until('Escape to close the question', async () => (await page.$('[role="alertdialog"]')) === null);
    assert(alive(sleeper.pid), 'Escape should leave the pane running');
    // Confirmed, the pane and its program end.
    await page.click(`[data-close="${sleeper.id}"]`);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close pane' }).click();
    await until('the sleeping pane to end', async () => !alive(sleeper.pid));
    await until('the rail to drop it', async () => (await page.$(`[data-pane="${sleeper.id}"]`)) === null);

    // The idle shell closes at once.
    await page.click(`[data-close="${quiet.id}"]`);
    await until('the idle shell to end without a question', async () => !alive(quiet.pid));
    assert((await page.$('[role="alertdialog"]')) === null, 'closing an idle shell should not ask');

    // An agent: asked while it works and while it waits, not once idle.
    const agent = await goCall(page, 'terminal.Service.Create', { dir, command: `env OSF_WORK=600 bash ${script}`, cols: 100, rows: 30 });
    ids.push(agent.id);
    await until('the agent pane to read Claude Code', async () => (await what(agent.id)) === 'Claude Code');
    await goCall(page, 'terminal.Service.Input', agent.id, 't');
    await until('the agent to work', async () => (await label(agent.id)) === 'Working · work');
    await page.click(`[data-close="${agent.id}"]`);
    await dialog.waitFor();
    assert((await dialog.textContent()).includes('Claude Code is working in work.'), `close question while working: ${await dialog.textContent()}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const asking = await goCall(page, 'terminal.Service.Create', { dir, command: `bash ${script}`, cols: 100, rows: 30 });
    ids.push(asking.id);
    await until('the second agent pane to read Claude Code', async () => (await what(asking.id)) === 'Claude Code');
    await goCall(page, 'terminal.Service.Input', asking.id, 't');
    await until('the agent to ask', async () => (await label(asking.id)) === 'Needs you · work');
    await page.click(`[data-close="${asking.id}"]`);
    await dialog.waitFor();
    assert((await dialog.textContent()).includes('Claude Code is waiting for your decision in work.'), `close question while asking: ${await dialog.textContent()}`);
    await shot('terminal-close-agent-question');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await goCall(page, 'terminal.Service.Input', asking.id, '1');
    await until('the agent to be idle after the answer', async () => (await label(asking.id)) === 'Idle · work');
    await page.click(`[data-close="${asking.id}"]`);
    await until('the idle agent pane to close without a question', async () => !alive(asking.pid));
    assert((await page.$('[role="alertdialog"]')) === null, 'closing an idle agent should not ask');
    await page.click(`[data-close="${agent.id}"]`);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close pane' }).click();
    await until('the working agent to end', async () => !alive(agent.pid));

    // New pane: the folder of the last pane started from the form.
    await page.getByRole('button', { name: '+ New pane' }).click();
    const form = page.getByRole('form', { name: 'New pane' });
    await form.locator('input[name="dir"]').fill(dir);
    await form.getByRole('button', { name: 'Start' }).click();
    await until('the new pane', async () => (await goCall(page, 'terminal.Service.List')).length > 1);
    await page.goto(base + '/#/sessions');
    await page.goto(base + '/#/terminal');
    await page.getByRole('button', { name: '+ New pane' }).click();
    await until('the folder field to start on the last folder', async () => (await form.locator('input[name="dir"]').inputValue()) === dir, 5000);
    await shot('terminal-new-pane-folder');
  } finally {
    for (const p of await goCall(page, 'terminal.Service.List')) if (ids.includes(p.id) || p.dir === dir) await goCall(page, 'terminal.Service.Close', p.id).catch(() => {});
  }
}
