import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A small software authenticator for API tests: what a browser and a
 * platform authenticator would hand @simplewebauthn/browser, built by hand
 * (WebAuthn Level 3 §6.1 authenticator data, §6.5 attestation object with
 * fmt "none", §6.3.3 assertion signature), with a P-256 key (ES256, COSE
 * alg -7) from node:crypto. It is a real authenticator, not a stand-in for
 * the server: the server verifies everything it sends. Options let a test
 * lie about one thing at a time (origin, RP ID, challenge, flags, counter).
 */
export interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  userVerified?: boolean;
  /** The counter to report (the stored one moves on to it). */
  signCount?: number;
  /** Assert with (or register again) this credential instead of the one the options pick, or a new one. */
  credential?: StoredCredential;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(readonly origin: string) {}

  private get defaultRpId(): string {
    return new URL(this.origin).hostname;
  }

  /** navigator.credentials.create() as startRegistration returns it. */
  register(options: CreationOptions, overrides: CeremonyOverrides = {}) {
    const rpId = overrides.rpId ?? options.rp.id ?? this.defaultRpId;
    const credential = overrides.credential ?? this.newCredential(rpId, options.user.id, overrides.signCount ?? 0);
    const { publicKey } = credential;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides);
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, coseKey]);
    const authData = Buffer.concat([this.authData(rpId, 0x40, credential.signCount, overrides), attested]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    if (!this.credentials.includes(credential)) this.credentials.push(credential);
    return {
      id: credential.id.toString('base64url'),
      rawId: credential.id.toString('base64url'),
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get() as startAuthentication returns it. */
  assert(options: RequestOptions, overrides: CeremonyOverrides = {}) {
    const credential = overrides.credential ?? this.pick(options);
    const rpId = overrides.rpId ?? options.rpId ?? this.defaultRpId;
    credential.signCount = overrides.signCount ?? credential.signCount + 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
    const authenticatorData = this.authData(rpId, 0, credential.signCount, overrides);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]);
    return {
      id: credential.id.toString('base64url'),
      rawId: credential.id.toString('base64url'),
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        // ECDSA with SHA-256, DER-encoded (WebAuthn §6.5.6), node's default for EC keys.
        signature: sign('sha256', signed, credential.privateKey).toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private newCredential(rpId: string, userHandle: string, signCount: number): StoredCredential {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { id: randomBytes(32), privateKey, publicKey, rpId, userHandle, signCount };
  }

  private pick(options: RequestOptions): StoredCredential {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const rpId = options.rpId ?? this.defaultRpId;
    const usable = this.credentials.filter(
      (c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(c.id.toString('base64url'))),
    );
    const chosen = usable.at(-1);
    if (!chosen) throw new Error('the software authenticator holds no credential for these options');
    return chosen;
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** rpIdHash, flags (UP, UV, BE, BS and `extra`), signCount (WebAuthn §6.1). */
  private authData(rpId: string, extra: number, signCount: number, overrides: CeremonyOverrides): Buffer {
    const userVerified = overrides.userVerified ?? true;
    const flags = 0x01 | (userVerified ? 0x04 : 0) | 0x08 | 0x10 | extra;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter]);
  }
}

/** Just enough CBOR (RFC 8949) for COSE keys and attestation objects: integers, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value.entries()].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const bytes = Buffer.alloc(3);
  bytes[0] = (major << 5) | 25;
  bytes.writeUInt16BE(length, 1);
  return bytes;
}
