import { OAuthError } from '../errors.js';
import type { AuthorizeDeps, AuthorizeOutcome, RedirectTarget } from './types.js';

/**
 * A step ends the request early by returning `finish(outcome)`; otherwise it
 * returns the next state (the previous one plus what it learned).
 */
export class Finished {
  constructor(readonly outcome: AuthorizeOutcome) {}
}

export function finish(outcome: AuthorizeOutcome): Finished {
  return new Finished(outcome);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the array holds steps of different types; Chain checks each against its neighbour.
export type Step = (state: any, deps: AuthorizeDeps) => unknown;

/** The state after running `S` on `In`, or never when two neighbours do not fit. */
export type Chain<S extends readonly Step[], In> = S extends readonly [infer First, ...infer Rest]
  ? First extends (state: In, deps: AuthorizeDeps) => infer Out
    ? Rest extends readonly Step[]
      ? Chain<Rest, Exclude<Awaited<Out>, Finished>>
      : never
    : never
  : In;

/**
 * Runs the steps in order. An OAuthError thrown before the redirect URI is
 * trusted becomes an error page (RFC 6749 §4.1.2.1: never redirect to an
 * unverified URI); after that it is sent to the client with `state`.
 */
export async function runSteps<S extends readonly Step[], In>(
  steps: S,
  input: In,
  deps: AuthorizeDeps,
): Promise<{ state: Chain<S, In> } | { outcome: AuthorizeOutcome }> {
  let state: unknown = input;
  try {
    for (const step of steps) {
      const next = await step(state, deps);
      if (next instanceof Finished) return { outcome: next.outcome };
      state = next;
    }
    return { state: state as Chain<S, In> };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const target = (state as { target?: RedirectTarget }).target;
    if (!target) return { outcome: { kind: 'error_page', error } };
    return { outcome: { kind: 'client_response', target, params: errorParams(error, target, deps.issuer) } };
  }
}

/** RFC 6749 §4.1.2.1 error response, with RFC 9207 `iss`. */
function errorParams(error: OAuthError, target: RedirectTarget, issuer: string): Record<string, string> {
  const params: Record<string, string> = { error: error.error, error_description: error.description };
  if (target.state !== null) params.state = target.state;
  params.iss = issuer;
  return params;
}
