/** Where webhooks may go: public addresses only, loopback only on the embedded stack's setting. */
import { describe, expect, it } from 'vitest';
import { addressRefusal, schemeRefusal, urlRefusal } from '#shared/domain/webhook-targets.ts';

const strict = { allowLoopback: false };
const local = { allowLoopback: true };

describe('webhook targets', () => {
  it('refuses every address that is not the public Internet, IPv4 inside IPv6 included', () => {
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::a9fe:a9fe',
      '::7f00:1',
      '::10.0.0.1',
      'not-an-address',
    ]) {
      expect(addressRefusal(address, strict), address).toBeDefined();
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::8.8.8.8'])
      expect(addressRefusal(address, strict), address).toBeUndefined();
  });

  it('lets loopback alone through when the setting allows it', () => {
    expect(addressRefusal('127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('::1', local)).toBeUndefined();
    expect(addressRefusal('10.0.0.1', local)).toBeDefined();
    expect(addressRefusal('169.254.169.254', local)).toBeDefined();
  });

  it('takes https URLs without credentials or fragments; http only for loopback when allowed', () => {
    expect(urlRefusal('https://hooks.example.com/in', strict)).toHaveProperty('url');
    for (const url of [
      'http://hooks.example.com/in',
      'ftp://x.example',
      'https://u:p@x.example/',
      'https://x.example/#a',
      '/relative',
      // Read by the URL parser as https://x.example/: taken as sent, they are not URLs of it.
      'https:/x.example/in',
      'https:x.example/in',
      'https://x.example:0/in',
    ])
      expect(urlRefusal(url, strict), url).toHaveProperty('refusal');
    const plain = urlRefusal('http://127.0.0.1:8080/in', local);
    expect(plain).toHaveProperty('url');
    if ('url' in plain) {
      expect(schemeRefusal(plain.url, ['127.0.0.1'])).toBeUndefined();
      expect(schemeRefusal(plain.url, ['93.184.216.34'])).toBeDefined();
    }
  });
});
