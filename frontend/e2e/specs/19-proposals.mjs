import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Proposals that apply. An assistant (node as the MCP client, signed in
// through the consent page) proposes a change set for the project's git
// repository — the Local Folder its workspace picked on the Code screen, a
// real repository with uncommitted work. Checks:
// - before the workspace picks a repository, a change set is refused and
//   says the project has none;
// - the card under "Needs your approval" names the repository and files
//   and shows the diff (the removed and the added line);
// - Approve commits it on osfoundry/proposal-<id>: "Applied" shows the
//   branch and the committed diff; the checkout's branch and uncommitted
//   file are unchanged;
// - a patch that no longer applies stays on the card with the reason and
//   leaves no branch; Decline removes it and still leaves no branch.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  const repo = mkdtempSync(join(tmp, 'proposal-repo-'));
  const git = (...args) =>
    execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Me', GIT_AUTHOR_EMAIL: 'me@example.com', GIT_COMMITTER_NAME: 'Me', GIT_COMMITTER_EMAIL: 'me@example.com' } }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'pricing.md'), '# Pricing\nStarter: 10 EUR\nTeam: 30 EUR\n');
  git('add', '.');
  git('commit', '-q', '-m', 'start');
  writeFileSync(join(repo, 'pricing.md'), '# Pricing\nStarter: 10 EUR\nTeam: 30 EUR\nmy draft line\n');
  await page.goto(base + '/');
  await page.getByRole('button', { name: 'Connections' }).waitFor();
  const folder = await goCall(page, 'roles.Binding.AddFolder', repo);

  try {
    await page.getByRole('button', { name: 'Connections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connections' });
    await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();
    const addr = await goCall(page, 'connect.Panel.ServerAddress');

    // Sign in as an MCP client (DCR → consent in a separate browser → token).
    const asm = await (await fetch(new URL(addr).origin + '/.well-known/oauth-authorization-server')).json();
    const got = [];
    const cb = http.createServer((req, res) => {
      got.push(new URL(req.url, 'http://x').searchParams);
      res.end('ok');
    });
    await new Promise((ok) => cb.listen(0, '127.0.0.1', ok));
    let token;
    try {
      const redirect = `http://127.0.0.1:${cb.address().port}/callback`;
      const client = await (await fetch(asm.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'Proposals client', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }) })).json();
      const verifier = randomBytes(32).toString('base64url');
      const authURL = new URL(asm.authorization_endpoint);
      for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 's', resource: addr, scope: 'osfoundry:read osfoundry:write' }))
        authURL.searchParams.set(k, v);
      const bctx = await page.context().browser().newContext();
      try {
        const browser = await bctx.newPage();
        await browser.goto(authURL.href);
        await browser.goto(await goCall(page, 'connect.Panel.SignInLink'));
        await browser.getByRole('radio', { name: 'Acme' }).check();
        await browser.getByRole('radio', { name: 'Create a new connection' }).check();
        await browser.getByRole('checkbox', { name: 'I approve connecting this assistant to Acme' }).check();
        await browser.getByRole('button', { name: 'Connect' }).click();
        await until('the redirect back to the assistant', async () => got.length > 0);
      } finally {
        await bctx.close();
      }
      const tok = await fetch(asm.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code: got[0].get('code'), redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource: addr }) });
      token = (await tok.json()).access_token;
    } finally {
      cb.close();
    }
    const call = async (name, args) => {
      const r = await fetch(addr, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'Bearer ' + token }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
      const res = (await r.json()).result;
      return { isError: !!res.isError, text: res.content?.[0]?.text ?? '' };
    };
    const conns = await goCall(page, 'connect.Panel.Connections');
    const conn = conns.find((c) => c.displayName.includes('Proposals client')) ?? conns[0];
    await goCall(page, 'connect.Panel.AddToProject', conn.id, seed.launch);

    // A project tied to no repository: refused, saying so.
    const none = await call('propose_change_set', { project_id: seed.launch, title: 'Nowhere', files: [{ path: 'pricing.md', content: 'x\n' }] });
    assert(none.isError && none.text.includes('has no git repository') && none.text.includes('Code screen'), 'a project with no repository is refused: ' + none.text);
    await goCall(page, 'code.Binding.SetRepo', seed.ws, repo);

    // Bad input is refused with the reason.
    const bad = await call('propose_change_set', { project_id: seed.launch, title: 'Sneaky', files: [{ path: '../outside.txt', content: 'x' }] });
    assert(bad.isError && bad.text.includes('leaves the repository'), 'a path with .. is refused: ' + bad.text);

    // A change set waits with repository, files and diff.
    const prop = await call('propose_change_set', { project_id: seed.launch, title: 'Raise the Team price', files: [{ path: 'pricing.md', content: '# Pricing\nStarter: 10 EUR\nTeam: 35 EUR\n' }] });
    assert(!prop.isError, 'propose_change_set is queued: ' + prop.text);
    const pid = JSON.parse(prop.text).proposal_id;
    const card = dialog.locator(`[data-proposal="${pid}"]`);
    await card.waitFor();
    const cardText = await card.innerText();
    for (const s of ['Raise the Team price', 'Repository', repo, 'pricing.md', 'Team: 30 EUR', 'Team: 35 EUR', `osfoundry/proposal-${pid}`]) assert(cardText.includes(s), `the change set card shows "${s}"`);
    assert((await card.locator('[data-diff] .row.del').innerText()).includes('Team: 30 EUR'), 'the old line is marked removed');
    assert((await card.locator('[data-diff] .row.add').innerText()).includes('Team: 35 EUR'), 'the new line is marked added');
    await shot('proposal-card');

    await card.getByRole('button', { name: 'Approve' }).click();
    const applied = dialog.locator(`[data-applied="${pid}"]`);
    await applied.waitFor();
    await card.waitFor({ state: 'detached' });
    assert((await applied.locator('[data-branch]').innerText()) === `osfoundry/proposal-${pid}`, 'Applied names the branch');
    assert((await applied.innerText()).includes('Team: 35 EUR'), 'Applied shows the committed diff');
    assert(git('show', `osfoundry/proposal-${pid}:pricing.md`).includes('Team: 35 EUR'), 'the branch has the change');
    assert(git('rev-parse', '--abbrev-ref', 'HEAD') === 'main', 'the checked-out branch is unchanged');
    assert(readFileSync(join(repo, 'pricing.md'), 'utf8').endsWith('Team: 30 EUR\nmy draft line\n'), 'the uncommitted work is untouched');
    await shot('proposal-applied');

    // A patch that no longer applies: reported on the card, nothing half-applied.
    const stale = await call('propose_change_set', { project_id: seed.launch, title: 'Rename Starter', patch: '--- a/pricing.md\n+++ b/pricing.md\n@@ -1,3 +1,3 @@\n # Pricing\n-Starter: 12 EUR\n+Solo: 12 EUR\n Team: 30 EUR\n' });
    assert(!stale.isError, 'the patch is queued: ' + stale.text);
    const sid = JSON.parse(stale.text).proposal_id;
    const card2 = dialog.locator(`[data-proposal="${sid}"]`);
    await card2.getByRole('button', { name: 'Approve' }).click();
    const alert = card2.getByRole('alert');
    await alert.waitFor();
    assert((await alert.innerText()).includes('no longer applies'), 'the card says the patch no longer applies: ' + (await alert.innerText()));
    assert(git('branch', '--list', `osfoundry/proposal-${sid}`) === '', 'no branch is left by the stale patch');
    await card2.getByRole('button', { name: 'Decline' }).click();
    await card2.waitFor({ state: 'detached' });
    const st = JSON.parse((await call('get_proposal_status', { proposal_id: sid })).text);
    assert(st.status === 'declined', 'the stale proposal reads declined: ' + JSON.stringify(st));
    assert(git('branch', '--list', 'osfoundry/*').trim() === `osfoundry/proposal-${pid}`, 'only the approved branch exists');
  } finally {
    await goCall(page, 'code.Binding.SetRepo', seed.ws, '').catch(() => {});
    await goCall(page, 'roles.Binding.RemoveFolder', folder.id);
  }
}
