import Joi from 'joi';
import type { PasskeyRecord } from '../../model/index.js';

/** The wire shapes of second factors (docs/http-api.md, "Second factors"). */
export const totpCodeSchema = Joi.string()
  .trim()
  .pattern(/^[0-9]{6}$/)
  .messages({ 'string.pattern.base': '{{#label}} must be the 6 digits the authenticator app shows' })
  .description('The 6-digit code of the authenticator app');

export const recoveryCodesSchema = Joi.array()
  .items(Joi.string())
  .length(10)
  .description('Ten single-use recovery codes, shown this once (store them: only their hashes are kept)');

/**
 * A WebAuthn response as @simplewebauthn/browser's startRegistration and
 * startAuthentication return it (WebAuthn §5.1 PublicKeyCredential.toJSON).
 * Only the outline is checked here; the content is verified by the service,
 * which answers INVALID_PASSKEY when it does not hold.
 */
export const webAuthnResponseSchema = Joi.object({
  id: Joi.string().max(1400).required(),
  rawId: Joi.string().max(1400).required(),
  type: Joi.string().valid('public-key').required(),
  response: Joi.object().unknown(true).required(),
  clientExtensionResults: Joi.object().unknown(true).default({}),
  authenticatorAttachment: Joi.string().valid('platform', 'cross-platform'),
})
  .unknown(true)
  .label('WebAuthnResponse');

export const webAuthnOptionsSchema = Joi.object({ challenge: Joi.string().required() })
  .unknown(true)
  .description(
    'WebAuthn options (PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON) for @simplewebauthn/browser',
  );

export const passkeyNameSchema = Joi.string()
  .trim()
  .min(1)
  .max(100)
  .description('A name to tell the passkey apart, e.g. "Laptop"');

export const passkeySchema = Joi.object({
  id: Joi.string().required(),
  name: Joi.string().required(),
  created_at: Joi.string().isoDate().required(),
  last_used_at: Joi.string().isoDate().allow(null).required().description('Null until it signs in'),
  device_type: Joi.string()
    .valid('single_device', 'multi_device')
    .required()
    .description('multi_device: a synced passkey'),
  backed_up: Joi.boolean().required(),
}).label('Passkey');

export function toPasskeyBody(passkey: PasskeyRecord) {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: new Date(passkey.createdAt).toISOString(),
    last_used_at: passkey.lastUsedAt === null ? null : new Date(passkey.lastUsedAt).toISOString(),
    device_type: passkey.deviceType === 'multiDevice' ? 'multi_device' : 'single_device',
    backed_up: passkey.backedUp,
  };
}
