// A test key pair for rules bundles: the dev build trusts its public half
// (OSF_DEV_RULES_PUBLIC_KEY, never read by release builds), and the rules
// update spec signs the bundles it publishes with the private half.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default async function ({ tmp }) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(tmp, 'rules-signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url');
  return { env: { OSF_DEV_RULES_PUBLIC_KEY: raw.toString('base64') } };
}
