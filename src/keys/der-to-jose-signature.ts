/**
 * An ECDSA P-256 signature from DER (`SEQUENCE { INTEGER r, INTEGER s }`,
 * what OpenSSL returns) to the JWS form of RFC 7518 §3.4: r and s as
 * 32-byte big-endian integers, concatenated. Done here rather than with
 * crypto.sign's `dsaEncoding: 'ieee-p1363'` option because passing the key
 * with options costs about 6 µs more of main-thread time per signature.
 */
export function derToJoseSignature(der: Buffer, size = 32): Buffer {
  const out = Buffer.alloc(size * 2);
  // SEQUENCE header: 0x30, length (one byte for P-256: at most 72).
  let offset = 2;
  for (let part = 0; part < 2; part++) {
    if (der[offset] !== 0x02) throw new Error('not a DER ECDSA signature');
    const length = der[offset + 1];
    let start = offset + 2;
    let intLength = length;
    // A leading 0x00 keeps the INTEGER positive; it is not part of the value.
    while (intLength > size && der[start] === 0) {
      start++;
      intLength--;
    }
    der.copy(out, part * size + (size - intLength), start, start + intLength);
    offset += 2 + length;
  }
  return out;
}
