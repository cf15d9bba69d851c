import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

// PHC string format (B64 without padding). The parameters are m, t and p,
// each once; node's argon2 writes them as m,p,t, the PHC spec as m,t,p.
const argon2idPhc =
  /^\$argon2id\$v=19\$([a-z]=[1-9][0-9]*,[a-z]=[1-9][0-9]*,[a-z]=[1-9][0-9]*)\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}$/;

const expected =
  'must be an argon2id PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash) as printed by "idp hash-password", never a plaintext password';

export function isArgon2idPhc(text: string): boolean {
  const match = argon2idPhc.exec(text);
  if (!match) return false;
  const names = match[1].split(',').map((parameter) => parameter[0]);
  return names.sort().join('') === 'mpt';
}

/** docs/configuration.md, Rules: the file carries only argon2id hashes of passwords and client secrets. */
export const checkPasswordHashes: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.users.forEach((user, index) => {
    if (typeof user.password_hash === 'string' && !isArgon2idPhc(user.password_hash))
      problems.push(error(['users', index, 'password_hash'], expected));
  });
  config.clients.forEach((client, index) => {
    if (typeof client.client_secret_hash === 'string' && !isArgon2idPhc(client.client_secret_hash))
      problems.push(error(['clients', index, 'client_secret_hash'], expected));
  });
  return problems;
};
