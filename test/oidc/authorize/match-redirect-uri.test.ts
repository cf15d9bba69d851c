import { describe, expect, it } from 'vitest';
import { matchesRedirectUri } from '../../../src/oidc/authorize/match-redirect-uri.js';

const registered = [
  'https://app.example.com/cb',
  'http://127.0.0.1/callback',
  'http://[::1]:8400/cb?app=1',
  'http://localhost/cb',
  'http://127.0.0.1',
];

describe('matchesRedirectUri: exact, loopback on any port (RFC 8252 §7.3)', () => {
  it.each([
    ['the registered URI itself', 'https://app.example.com/cb'],
    ['an IPv4 loopback URI registered without a port, with a port', 'http://127.0.0.1:51234/callback'],
    ['an IPv4 loopback URI without a port, as registered', 'http://127.0.0.1/callback'],
    ['an IPv6 loopback URI registered with a port, on another one', 'http://[::1]:1/cb?app=1'],
    ['an IPv6 loopback URI, without a port', 'http://[::1]/cb?app=1'],
    ['the highest port', 'http://127.0.0.1:65535/callback'],
    ['a loopback URI without a path, as registered', 'http://127.0.0.1:9000'],
  ])('accepts %s', (_, presented) => {
    expect(matchesRedirectUri(registered, presented)).toBe(true);
  });

  it.each([
    ['another https host', 'https://app.example.com:8443/cb'],
    ['localhost on another port', 'http://localhost:5000/cb'],
    ['https on the loopback address', 'https://127.0.0.1:5000/callback'],
    ['another path', 'http://127.0.0.1:5000/callback/'],
    ['another path case', 'http://127.0.0.1:5000/Callback'],
    ['another query', 'http://[::1]:8400/cb?app=2'],
    ['an added query', 'http://127.0.0.1:5000/callback?x=1'],
    ['a missing query', 'http://[::1]:8400/cb'],
    ['the other loopback address', 'http://[::1]:5000/callback'],
    ['another loopback address', 'http://127.0.0.2:5000/callback'],
    ['a port out of range', 'http://127.0.0.1:65536/callback'],
    ['a port with a leading zero', 'http://127.0.0.1:080/callback'],
    ['port zero', 'http://127.0.0.1:0/callback'],
    ['user info before another host', 'http://127.0.0.1:80@evil.example/callback'],
    ['a fragment', 'http://127.0.0.1:5000/callback#x'],
    ['a path where none was registered', 'http://127.0.0.1:9000/'],
  ])('refuses %s', (_, presented) => {
    expect(matchesRedirectUri(registered, presented)).toBe(false);
  });
});
