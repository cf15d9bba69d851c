import { interactionParams } from '../../interaction/index.js';
import { OAuthError } from '../errors.js';
import type { WithPkce } from './check-pkce.js';
import type { Prompt } from './types.js';

export interface WithPrompt extends WithPkce {
  prompt: ReadonlySet<Prompt>;
  /** OIDC Core §3.1.2.1 max_age, seconds; null when not asked. */
  maxAge: number | null;
  nonce: string | null;
  /** Epoch ms: the sign-in must be this recent (set when this server sent the user to /login). */
  authAfter: number | null;
  consentDenied: boolean;
  termsDeclined: boolean;
  accessDenied: boolean;
}

const prompts: readonly Prompt[] = ['none', 'login', 'consent', 'select_account'];
const nonNegativeInteger = /^\d{1,10}$/;
const epochMs = /^\d{1,15}$/;

/** OIDC Core §3.1.2.1: prompt values, max_age and nonce. */
export function checkPrompt(state: WithPkce): WithPrompt {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const values = (params.prompt ?? '').split(' ').filter((p) => p !== '');
  const unknown = values.find((p) => !prompts.includes(p as Prompt));
  if (unknown !== undefined) throw new OAuthError('invalid_request', `The prompt value ${unknown} is not supported.`);
  const prompt = new Set(values as Prompt[]);
  if (prompt.has('none') && prompt.size > 1) {
    throw new OAuthError('invalid_request', 'The prompt value none cannot be combined with other values.');
  }
  if (params.max_age !== undefined && !nonNegativeInteger.test(params.max_age)) {
    throw new OAuthError('invalid_request', 'The max_age must be a non-negative integer.');
  }
  const authAfter = params[interactionParams.authAfter];
  return {
    ...state,
    prompt,
    maxAge: params.max_age === undefined ? null : Number(params.max_age),
    nonce: params.nonce ?? null,
    authAfter: authAfter !== undefined && epochMs.test(authAfter) ? Number(authAfter) : null,
    consentDenied: params[interactionParams.consentDenied] === 'true',
    termsDeclined: params[interactionParams.termsDeclined] === 'true',
    accessDenied: params[interactionParams.accessDenied] === 'true',
  };
}
