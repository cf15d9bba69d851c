import { createHash, randomBytes } from 'node:crypto';

/** 256 bits of randomness, base64url: refresh tokens and grant ids. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How opaque tokens and codes are stored: base64url SHA-256, never the value (docs/architecture.md, "Security rules every change keeps"). */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
