// A broken user override of Claude Code's detection rules (a bad regex):
// the app must say so and keep using the bundled rules.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default async function ({ home }) {
  const dir = join(home, '.osfoundry', 'agent-detection');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'claude.toml'), `[[rules]]\nstate = "blocked"\nany = ['(unclosed']\n`);
}
