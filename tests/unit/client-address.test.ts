/**
 * An anonymous client is its network: IPv4 by address, IPv6 by its /64 (or /56, /48), whatever way the
 * socket or a proxy spells the address. Property tests over generated addresses and their spellings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  networkKey,
  parseClientAddress,
  resolveClientNetwork,
} from '../../packages/astro-agent-api/src/server/client-address.ts';
import {
  IPV6_PREFIXES,
  type Ipv6Prefix,
} from '../../packages/astro-agent-api/src/contract/identity-contract.ts';

/** Eight 16-bit groups of an IPv6 address. */
const groupsArbitrary = fc.array(fc.integer({ min: 0, max: 0xffff }), {
  minLength: 8,
  maxLength: 8,
});
const prefixArbitrary = fc.constantFrom<Ipv6Prefix>(...IPV6_PREFIXES);

/** The same address written every way a peer or a proxy writes one. */
function spellings(groups: number[]): string[] {
  const full = groups.map((group) => group.toString(16).padStart(4, '0')).join(':');
  const short = groups.map((group) => group.toString(16)).join(':');
  // The longest run of zero groups compressed, as RFC 5952 does, and the first run, as some writers do.
  const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
  const firstZeroRun = short.replace(/(^|:)0(:0)+(:|$)/, '::');
  return [
    full,
    full.toUpperCase(),
    short,
    compressed,
    compressed.toUpperCase(),
    firstZeroRun,
    `[${compressed}]`,
    `[${full}]:4711`,
    `${compressed}%eth0`,
    `[${compressed}%25en0]:443`,
    `  ${compressed}  `,
  ];
}

test('every spelling of an IPv6 address is one client: its network, in RFC 5952 form', () => {
  fc.assert(
    fc.property(groupsArbitrary, prefixArbitrary, (groups, prefix) => {
      // Addresses under ::ffff:0:0/96 are IPv4 clients: the next test.
      fc.pre(!(groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff));
      const keys = new Set(
        spellings(groups).map((text) => {
          const address = parseClientAddress(text);
          assert.ok(address, `${text} is an address`);
          return networkKey(address, prefix);
        }),
      );
      assert.equal(keys.size, 1, [...keys].join(' '));
      const [key] = keys;
      assert.match(key!, new RegExp(`/${prefix}$`));
      assert.equal(key, key!.toLowerCase());
    }),
    { numRuns: 2_000 },
  );
});

test('two addresses are one client exactly when their first `ipv6Prefix` bits agree', () => {
  fc.assert(
    fc.property(
      groupsArbitrary,
      groupsArbitrary,
      prefixArbitrary,
      fc.integer({ min: 0, max: 127 }),
      (a, b, prefix, flipped) => {
        fc.pre(a[0]! >= 0x2000 && b[0]! >= 0x2000);
        const key = (groups: number[]) =>
          networkKey(parseClientAddress(groups.map((g) => g.toString(16)).join(':'))!, prefix);
        // b takes a's bits up to `flipped`, then one bit of its own differs.
        const bits = (groups: number[]) =>
          groups.flatMap((group) => Array.from({ length: 16 }, (_, i) => (group >> (15 - i)) & 1));
        const merged = bits(a).map((bit, i) =>
          i < flipped ? bit : i === flipped ? 1 - bit : bits(b)[i]!,
        );
        fc.pre(merged.slice(0, 16).reduce((n, bit) => n * 2 + bit, 0) >= 0x2000);
        const groupsOf = (bitList: number[]) =>
          Array.from({ length: 8 }, (_, g) =>
            bitList.slice(g * 16, g * 16 + 16).reduce((n, bit) => n * 2 + bit, 0),
          );
        assert.equal(key(a) === key(groupsOf(merged)), flipped >= prefix);
      },
    ),
    { numRuns: 2_000 },
  );
});

test('an IPv4 client is its address, also written IPv4-mapped or with a port', () => {
  fc.assert(
    fc.property(fc.ipV4(), prefixArbitrary, (ipv4, prefix) => {
      const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
      const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
      const forms = [
        ipv4,
        `${ipv4}:8080`,
        `::ffff:${ipv4}`,
        `::FFFF:${ipv4}`,
        `[::ffff:${ipv4}]:443`,
        `::ffff:${hex(a, b)}:${hex(c, d)}`,
        `0:0:0:0:0:ffff:${ipv4}`,
      ];
      for (const form of forms)
        assert.equal(networkKey(parseClientAddress(form)!, prefix), ipv4, form);
    }),
  );
});

test('anything else is no address, and never throws', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), (text) => {
      const address = parseClientAddress(text);
      if (address) assert.match(networkKey(address, 64), /^[\d.]+$|^[0-9a-f:]+\/64$/);
    }),
    { numRuns: 5_000 },
  );
  for (const text of [
    'unknown',
    '_hidden',
    '010.0.0.1',
    '0x7f.1',
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '2001:db8::1::2',
    '[2001:db8::1',
    'fe80::1%',
    '',
  ]) {
    assert.equal(parseClientAddress(text), undefined, text);
  }
});

test('behind one trusted proxy, the forwarded address is read whatever the header: X-Forwarded-For or Forwarded', () => {
  const rules = { trustProxy: 1, ipv6Prefix: 64 } as const;
  const proxy = { clientAddress: '10.0.0.2' };
  const of = (headers: Record<string, string>) =>
    resolveClientNetwork(new Request('http://localhost/', { headers }), proxy, rules);
  assert.equal(
    of({ 'x-forwarded-for': '2001:0DB8:0077:0000:0000:0000:0000:0001' }),
    '2001:db8:77::/64',
  );
  assert.equal(of({ 'x-forwarded-for': '6.6.6.6, [2001:db8:77::ffff]:9' }), '2001:db8:77::/64');
  assert.equal(
    of({ forwarded: 'for="[2001:db8:77:0:1::2]:4711";proto=https' }),
    '2001:db8:77::/64',
  );
  assert.equal(of({ forwarded: 'for=unknown' }), '10.0.0.2');
  assert.equal(
    resolveClientNetwork(
      new Request('http://localhost/'),
      { clientAddress: '2001:db8:77:ab:1:2:3:4' },
      { trustProxy: 0, ipv6Prefix: 48 },
    ),
    '2001:db8:77::/48',
  );
  assert.equal(
    resolveClientNetwork(
      new Request('http://localhost/'),
      { clientAddress: 'not an address' },
      rules,
    ),
    'not an address',
  );
});
