import { validHash } from './load-text.js';

/** The issue 2 benchmark shape: 10,000 users and 1,000 clients, as YAML text. */
export function generateLargeConfig(users = 10_000, clients = 1_000): string {
  const lines = ['security:', '  secret: "0123456789abcdef0123456789abcdef"', 'users:'];
  for (let i = 0; i < users; i++) {
    lines.push(
      `  - sub: user-${i}`,
      `    email: user${i}@example.com`,
      `    role: ${i % 100 === 0 ? 'admin' : 'user'}`,
      `    password_hash: "${validHash}"`,
    );
  }
  lines.push('clients:');
  for (let i = 0; i < clients; i++) {
    lines.push(
      `  - client_id: client-${i}`,
      `    name: Client ${i}`,
      `    client_secret: \${CLIENT_SECRET_${i % 10}:-secret-${i}}`,
      '    redirect_uris:',
      `      - https://app${i}.example.com/callback`,
      `      - http://localhost:${3000 + (i % 1000)}/callback`,
      '    post_logout_redirect_uris:',
      `      - https://app${i}.example.com/`,
    );
  }
  return `${lines.join('\n')}\n`;
}
