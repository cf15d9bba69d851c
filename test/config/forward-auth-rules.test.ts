import { describe, expect, it } from 'vitest';
import { errorLines, load, secretLine, yaml } from './load-text.js';

/** forward_auth's validate rules (docs/configuration.md, "Rules"), each at its place in the file. */
describe('forward_auth rules', () => {
  it('passes a file that follows them, normalized for matching', () => {
    const result = load(
      yaml(
        secretLine,
        'server: { base_url: https://id.example.com }',
        'groups: [{ id: sre }]',
        'forward_auth:',
        '  cookie_domain: .Example.com',
        '  apps:',
        '    - { host: Grafana.example.com, access: { groups: [sre] } }',
        '    - { host: grafana.example.com, path_prefix: /admin/ }',
        '    - { host: "*.tools.example.com", headers: { user: X-Webauth-User } }',
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.forwardAuth.cookieDomain).toBe('example.com');
    expect(result.config.forwardAuth.apps.map((a) => [a.host, a.pathPrefix])).toEqual([
      ['grafana.example.com', '/'],
      ['grafana.example.com', '/admin'],
      ['*.tools.example.com', '/'],
    ]);
    expect(result.config.forwardAuth.apps[0].access).toEqual({ groups: ['sre'], roles: null, secondFactor: null });
    expect(result.config.forwardAuth.apps[2].headers).toEqual({
      user: 'X-Webauth-User',
      email: 'Remote-Email',
      name: 'Remote-Name',
      groups: 'Remote-Groups',
    });
  });

  it('reports bad hosts and paths, overlapping apps, unknown groups and a cookie_domain that covers too little', () => {
    expect(
      errorLines(
        yaml(
          secretLine,
          'server: { base_url: https://id.example.org }',
          'forward_auth:',
          '  cookie_domain: example.com',
          '  apps:',
          '    - { host: "https://grafana.example.com" }',
          '    - { host: "grafana.example.com:8443" }',
          '    - { host: "*.com" }',
          '    - { host: "a.*.example.com" }',
          '    - { host: wiki.example.com, path_prefix: /a/../b }',
          '    - { host: wiki.example.com, path_prefix: /docs }',
          '    - { host: Wiki.example.com, path_prefix: /docs/ }',
          '    - { host: other.example.net, access: { groups: [nope] } }',
        ),
      ),
    ).toEqual([
      "idp.yaml:4:18: forward_auth.cookie_domain: does not cover server.base_url's host id.example.org: browsers would refuse the session cookie",
      'idp.yaml:4:18: forward_auth.cookie_domain: does not cover forward_auth.apps[7].host other.example.net: its requests would never carry the session',
      'idp.yaml:6:15: forward_auth.apps[0].host: "https://grafana.example.com" is not a host name or *.domain (one wildcard label, no port, no scheme), such as grafana.example.com or *.example.com',
      'idp.yaml:7:15: forward_auth.apps[1].host: "grafana.example.com:8443" is not a host name or *.domain (one wildcard label, no port, no scheme), such as grafana.example.com or *.example.com',
      'idp.yaml:8:15: forward_auth.apps[2].host: "*.com" is not a host name or *.domain (one wildcard label, no port, no scheme), such as grafana.example.com or *.example.com',
      'idp.yaml:9:15: forward_auth.apps[3].host: "a.*.example.com" is not a host name or *.domain (one wildcard label, no port, no scheme), such as grafana.example.com or *.example.com',
      'idp.yaml:10:46: forward_auth.apps[4].path_prefix: "/a/../b" is not a plain path: no //, . or .. segments, ?, #, % or white space',
      'idp.yaml:12:7: forward_auth.apps[6]: protects the same host and path prefix as forward_auth.apps[5]: keep one entry for Wiki.example.com/docs/',
      'idp.yaml:13:53: forward_auth.apps[7].access.groups[0]: is not a group of this file (groups[].id)',
    ]);
  });

  it('refuses a cookie_domain that is no domain name', () => {
    for (const domain of ['com', '127.0.0.1', 'exa mple.com']) {
      const lines = errorLines(
        yaml(secretLine, 'forward_auth:', `  cookie_domain: "${domain}"`, '  apps: [{ host: a.example.com }]'),
      );
      expect(lines).toEqual([
        `idp.yaml:3:18: forward_auth.cookie_domain: ${JSON.stringify(domain)} is not a domain name with a dot, such as example.com`,
      ]);
    }
  });

  it('says in plain words what a path prefix and a header name must be', () => {
    const lines = errorLines(
      yaml(
        secretLine,
        'forward_auth:',
        '  apps:',
        '    - { host: a.example.com, path_prefix: admin, headers: { user: "X User" } }',
      ),
    );
    expect(lines).toEqual([
      'idp.yaml:4:43: forward_auth.apps[0].path_prefix: must be a path starting with / (such as /admin)',
      'idp.yaml:4:67: forward_auth.apps[0].headers.user: must be a header name: letters, digits and -, 1–64 characters (such as X-Webauth-User)',
    ]);
  });
});
