// Seeds the notes store the Connected agents spec opens to an assistant:
// workspace "Acme" with projects "Launch" (one Note) and "Finance".
// Uses the app's own owner commands, against the data dir the runner
// gives the app (OSFOUNDRY_HOME = <tmp>/data).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export default async function ({ home, tmp }) {
  const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');
  const env = { ...process.env, OSFOUNDRY_HOME: join(tmp, 'data'), HOME: home };
  const run = (...args) => execFileSync(bin, args, { env, encoding: 'utf8' }).trim();
  const ws = run('notes', 'workspace-create', 'Acme');
  const launch = run('notes', 'project-create', ws, 'Launch');
  const finance = run('notes', 'project-create', ws, 'Finance');
  const note = run('notes', 'create', '-workspace', ws, '-project', launch, '-text', '- ship it', 'Q3 launch checklist');
  writeFileSync(join(tmp, 'connected-seed.json'), JSON.stringify({ ws, launch, finance, note }));
}
