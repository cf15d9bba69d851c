// @ts-check
/**
 * A large, valid config file as YAML text: `users` config users sharing
 * one precomputed argon2id hash (hashing 10,000 passwords would measure
 * argon2, not apply) and `clients` confidential clients. Numbering starts
 * at `firstUser` / `firstClient` (default 0): a config starting half-way
 * replaces half of the objects of one starting at 0 by new ones.
 */

/** argon2id of "correct horse battery staple" (m=19456, t=2, p=1). */
const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';

/** @param {{ users: number, clients: number, firstUser?: number, firstClient?: number }} size */
export function generateApplyConfig(size) {
  const firstUser = size.firstUser ?? 0;
  const firstClient = size.firstClient ?? 0;
  const lines = ['security:', '  secret: "bench-secret-bench-secret-bench-secret-01"', 'users:'];
  for (let i = firstUser; i < firstUser + size.users; i++) {
    lines.push(
      `  - sub: user-${i}`,
      `    email: user-${i}@bench.example.com`,
      `    role: ${i % 50 === 0 ? 'admin' : 'user'}`,
      `    password_hash: "${PASSWORD_HASH}"`,
    );
  }
  lines.push('clients:');
  for (let i = firstClient; i < firstClient + size.clients; i++) {
    lines.push(
      `  - client_id: client-${i}`,
      `    name: Bench client ${i}`,
      `    client_secret: bench-client-secret-${i}-0123456789abcdef`,
      '    redirect_uris:',
      `      - https://app-${i}.bench.example.com/callback`,
    );
  }
  return `${lines.join('\n')}\n`;
}
