import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

// PHC string format as written by argon2 (and `idp hash-password`): B64 without padding.
const argon2idPhc = /^\$argon2id\$v=19\$m=[1-9][0-9]*,t=[1-9][0-9]*,p=[1-9][0-9]*\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}$/;

const expected = 'must be an argon2id PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash) as printed by "idp hash-password", never a plaintext password';

/** DESIGN 5: the file carries only argon2id hashes of passwords and client secrets. */
export const checkPasswordHashes: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.users.forEach((user, index) => {
    if (typeof user.password_hash === 'string' && !argon2idPhc.test(user.password_hash)) problems.push(error(['users', index, 'password_hash'], expected));
  });
  config.clients.forEach((client, index) => {
    if (typeof client.client_secret_hash === 'string' && !argon2idPhc.test(client.client_secret_hash)) problems.push(error(['clients', index, 'client_secret_hash'], expected));
  });
  return problems;
};
