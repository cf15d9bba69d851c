// @ts-check
/**
 * Just enough of an authenticator for the sign-in suite: the COSE form of
 * a P-256 public key (seeded as a passkey), and an assertion over a
 * server's options (WebAuthn §6.1 authenticator data, §6.3.3 signature),
 * the same bytes test/support/software-authenticator.ts builds for the tests.
 */
import { createHash, createPrivateKey, sign } from 'node:crypto';

/** @param {number} major @param {number} length */
function head(major, length) {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  return Buffer.from([(major << 5) | 24, length]);
}

/** @param {number} value */
const int = (value) => (value >= 0 ? head(0, value) : head(1, -1 - value));
/** @param {Buffer} bytes */
const bytes = (bytes) => Buffer.concat([head(2, bytes.length), bytes]);

/** COSE_Key (RFC 9053) of an EC2 P-256 key for ES256: { 1: 2, 3: -7, -1: 1, -2: x, -3: y } in CBOR. @param {import('node:crypto').KeyObject} publicKey */
export function coseKey(publicKey) {
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.concat([
    head(5, 5),
    int(1),
    int(2),
    int(3),
    int(-7),
    int(-1),
    int(1),
    int(-2),
    bytes(Buffer.from(/** @type {string} */ (jwk.x), 'base64url')),
    int(-3),
    bytes(Buffer.from(/** @type {string} */ (jwk.y), 'base64url')),
  ]);
}

/**
 * The AuthenticationResponseJSON @simplewebauthn/browser would send.
 * @param {{ credentialId: string, privateKey: string, sub: string }} credential
 * @param {{ challenge: string, rpId: string }} options
 * @param {string} origin
 * @param {number} signCount
 */
export function assertion(credential, options, origin, signCount) {
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
  );
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount);
  // Flags: user present, user verified, backup eligible, backed up.
  const authenticatorData = Buffer.concat([
    createHash('sha256').update(options.rpId).digest(),
    Buffer.from([0x1d]),
    counter,
  ]);
  const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]);
  return {
    id: credential.credentialId,
    rawId: credential.credentialId,
    type: 'public-key',
    response: {
      clientDataJSON: clientDataJSON.toString('base64url'),
      authenticatorData: authenticatorData.toString('base64url'),
      signature: sign('sha256', signed, createPrivateKey(credential.privateKey)).toString('base64url'),
      userHandle: createHash('sha256').update(credential.sub).digest('base64url'),
    },
    clientExtensionResults: {},
  };
}
