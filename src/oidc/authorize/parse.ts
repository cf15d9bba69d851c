import { OAuthError } from '../errors.js';
import type { AuthorizeSession, RawAuthorizationParams } from './types.js';

export interface AuthorizeInput {
  params: RawAuthorizationParams;
  session: AuthorizeSession | null;
}

export interface Parsed {
  /** Single-valued parameters; empty values count as absent (RFC 6749 §3.1). */
  params: Readonly<Record<string, string>>;
  session: AuthorizeSession | null;
  /** The parameters came from the PAR endpoint (RFC 9126; resolvePushedRequest sets it). */
  pushed: boolean;
}

/** RFC 6749 §3.1: parameters must not be repeated; empty ones are treated as omitted. */
export function parse(input: AuthorizeInput): Parsed {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.params)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `The ${name} parameter is repeated.`);
    if (value !== undefined && value !== '') params[name] = value;
  }
  return { params, session: input.session, pushed: false };
}
