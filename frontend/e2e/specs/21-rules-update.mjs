import { createServer } from 'node:http';
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, freePort, goCall } from '../lib.mjs';

// Settings → Agent detection rules, against bundles this spec publishes on
// loopback (signed with the key pair the rules-key seed made the dev build
// trust). Checks:
//  1. the section says the built-in rules are in use;
//  2. a correctly signed bundle with a broken regex is refused, naming the
//     file and the rule, and nothing changes;
//  3. a bundle signed with another key is refused;
//  4. a good bundle is installed: the message names its version and files
//     and where the replaced folder is kept, the status says so, and the
//     file is in the override folder;
//  5. it applies without a restart: the Sessions board's notice about the
//     broken claude.toml override (seeded, see 07) is gone.
const here = dirname(fileURLToPath(import.meta.url));
const claudeRules = readFileSync(join(here, '..', '..', '..', 'rules', 'claude.toml'), 'utf8');

function bundle(key, version, files) {
  const payload = Buffer.from(JSON.stringify({ format: 1, version, files }));
  return JSON.stringify({ payload: payload.toString('base64'), signature: sign(null, payload, key).toString('base64') });
}

export default async function ({ page, base, home, tmp, shot }) {
  const key = createPrivateKey(readFileSync(join(tmp, 'rules-signing-key.pem')));
  const other = generateKeyPairSync('ed25519').privateKey;
  const published = {
    '/broken.json': bundle(key, 'e2e.0', { 'claude.toml': claudeRules.replace("'esc to interrupt'", "'esc to (interrupt'") }),
    '/foreign.json': bundle(other, 'e2e.x', { 'claude.toml': claudeRules }),
    '/good.json': bundle(key, 'e2e.1', { 'claude.toml': claudeRules }),
  };
  const port = await freePort();
  const srv = createServer((req, res) => {
    const body = published[req.url];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(body ?? '{}');
  });
  await new Promise((r) => srv.listen(port, '127.0.0.1', r));
  const at = (p) => `http://127.0.0.1:${port}${p}`;
  try {
    await page.goto(base + '/#/settings');
    const body = page.locator('main');
    await body.getByRole('heading', { name: 'Agent detection rules' }).waitFor();
    const status = body.getByTestId('rules-status');
    // 1.
    await until('the built-in rules', async () => ((await status.textContent()) ?? '').includes('the rules built into this version of osFoundry'));
    const field = body.getByLabel('Bundle address');
    const button = body.getByRole('button', { name: 'Update rules' });
    const alert = body.getByRole('alert');

    // 2.
    await field.fill(at('/broken.json'));
    await button.click();
    const broken = await until('the broken regex refused', async () => ((await alert.count()) ? await alert.textContent() : null));
    assert(/claude\.toml: rule 2 \(working\): bad regex/.test(broken) && broken.includes('nothing was changed'), 'the refusal names the file and the rule: ' + broken);
    assert(((await status.textContent()) ?? '').includes('built into'), 'still the built-in rules');

    // 3.
    await field.fill(at('/foreign.json'));
    await button.click();
    await until('the foreign key refused', async () => ((await alert.textContent()) ?? '').includes("signature does not match osFoundry's rules key"));

    // 4.
    const seeded = await goCall(page, 'board.Service.RuleProblems');
    assert(seeded.some((p) => p.includes('claude.toml')), 'the seeded broken override is reported first: ' + JSON.stringify(seeded));
    await field.fill(at('/good.json'));
    await button.click();
    const done = body.getByRole('status').filter({ hasText: 'Installed rules e2e.1 (claude.toml); open panes use them now.' });
    await done.waitFor();
    // The seeded folder it replaced is kept, and the message says where.
    const kept = join(home, '.osfoundry', 'agent-detection.previous');
    assert(((await done.textContent()) ?? '').includes(`The folder as it was is kept in ${kept}.`), 'the message names the kept folder');
    assert(existsSync(join(kept, 'claude.toml')), 'the replaced claude.toml is kept');
    await until('the new status', async () => ((await status.textContent()) ?? '').includes('rules e2e.1 (claude.toml)'));
    assert((await alert.count()) === 0, 'the earlier refusal is gone');
    const installed = join(home, '.osfoundry', 'agent-detection', 'claude.toml');
    assert(existsSync(installed) && readFileSync(installed, 'utf8') === claudeRules, 'claude.toml is in the override folder');
    await shot('settings-rules-update');

    // 5.
    const left = await goCall(page, 'board.Service.RuleProblems');
    assert(Array.isArray(left) && left.length === 0, 'the board no longer reports the replaced override: ' + JSON.stringify(left));
  } finally {
    srv.close();
  }
}
