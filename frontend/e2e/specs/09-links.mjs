import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// A second launch of the app goes to the running window. This is the path a
// clicked Windows notification takes: Windows starts the app with the
// toast's osfoundry://pane/<id>?t=<token> link, the new process hands it to
// the running window over the loopback instance channel and exits, and the
// window opens that pane. Links the window did not make open nothing.
// The token is computed here from instance.json the way the app computes
// it (HMAC-SHA-256 of "pane/<id>" under the instance secret, 16 bytes).
export default async function ({ page, base, tmp, env, bin, shot }) {
  const dir = join(tmp, 'links');
  mkdirSync(dir, { recursive: true });
  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="idle"]');
  const one = await goCall(page, 'terminal.Service.Create', { dir, command: 'bash', cols: 80, rows: 24 });
  const two = await goCall(page, 'terminal.Service.Create', { dir, command: 'bash', cols: 80, rows: 24 });
  const info = JSON.parse(readFileSync(join(env.OSFOUNDRY_HOME, 'instance.json'), 'utf8'));
  const token = (secretHex, id) => createHmac('sha256', Buffer.from(secretHex, 'hex')).update('pane/' + id).digest('hex').slice(0, 32);
  const launch = (...args) => {
    const r = spawnSync(bin, args, { env, encoding: 'utf8', timeout: 20000 });
    assert(r.status === 0, `second launch exited ${r.status}: ${r.stdout}${r.stderr}`);
    assert(/already running/.test(r.stdout), `second launch should say the app is already running: ${r.stdout}`);
    return r;
  };
  try {
    // A link the window made opens its pane.
    const start = Date.now();
    launch(`osfoundry://pane/${two.id}?t=${token(info.secret, two.id)}`);
    await until('the linked pane to open', async () => page.url().includes('#/terminal?pane=' + encodeURIComponent(two.id)));
    console.log(`     link → pane shown: ${Date.now() - start} ms (second process start, hand-over, window event)`);
    await page.waitForSelector(`[data-pane-view="${two.id}"]`);
    await shot('link-opened-pane');

    // Links it did not make: a wrong secret, another pane's token, a path.
    await page.goto(base + '/#/sessions');
    await page.waitForSelector('[data-column="idle"]');
    const other = 'ab'.repeat(32);
    launch(`osfoundry://pane/${one.id}?t=${token(other, one.id)}`);
    launch(`osfoundry://pane/${one.id}?t=${token(info.secret, two.id)}`);
    launch(`osfoundry://pane/..%2F..%2Fetc?t=${token(info.secret, '../../etc')}`);
    launch(); // a plain second start just brings the window forward
    // Every launch above was handed over before it exited; give the window
    // time to act on them, then check nothing moved.
    await new Promise((r) => setTimeout(r, 1500));
    assert(page.url().endsWith('#/sessions'), `a link the window did not make moved the page to ${page.url()}`);
    // …and the person is told why nothing opened.
    const body = await page.locator('body').innerText();
    assert(/Link not opened/.test(body) && /it opens nothing/.test(body), `a link that opened nothing should say so in a notice: ${body.slice(0, 400)}`);
    await shot('link-not-opened');
  } finally {
    for (const p of [one, two]) await goCall(page, 'terminal.Service.Close', p.id).catch(() => {});
  }
}
