// oidc-provider ships no type declarations: the test upstreams (test/federation/support) use it untyped.
declare module 'oidc-provider';
