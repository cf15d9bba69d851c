/**
 * The challenge a WebAuthn response answers, read from its client data
 * (WebAuthn §5.8.1 CollectedClientData) before anything is verified: it
 * names the stored ceremony to consume. Null when the response is not
 * shaped like one (the caller answers INVALID_PASSKEY).
 */
export function challengeOf(response: unknown): string | null {
  const encoded = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
  if (typeof encoded !== 'string') return null;
  try {
    const clientData = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' && clientData.challenge !== '' ? clientData.challenge : null;
  } catch {
    return null;
  }
}
