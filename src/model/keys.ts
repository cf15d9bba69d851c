export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';

export interface SigningKeyRecord {
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  /**
   * 1, 2, 3…, unique across algorithms, so that adding a key is one
   * conditional insert however many instances race; among the keys of one
   * algorithm without a retire time, the highest generation signs.
   */
  generation: number;
  alg: SigningAlgorithm;
  /** The public JWK (with kid, alg, use). */
  publicJwk: Record<string, unknown>;
  /** The encrypted PKCS#8 private key (src/keys/seal-private-key.ts). */
  privateKey: string;
  createdAt: number;
  /** When set, the key leaves the JWKS at this time (a newer key of its algorithm signs). */
  retireAt: number | null;
}
