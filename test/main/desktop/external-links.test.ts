/** What the shell hands to the OS browser or mail program, by what the link is for (adversarial tables). */
import { describe, expect, it } from 'vitest';
import {
  describeLink,
  type ExternalLinkPurpose,
  HELP_HOSTS,
  judgeExternalLink,
  refusalLogLine,
} from '../../../src-main/desktop/external-links';

const opens = (url: string, purpose: ExternalLinkPurpose) => judgeExternalLink(url, purpose).open;

const signInQuery = new URLSearchParams({
  response_type: 'code',
  client_id: 'desk',
  redirect_uri: 'http://127.0.0.1:4711/callback',
  code_challenge: 'abc',
  code_challenge_method: 'S256',
  state: 'secret-state',
});
const signIn = (origin: string, path = '/v1/oauth/authorize') => `${origin}${path}?${signInQuery}`;

describe('links on the app page', () => {
  const page: ExternalLinkPurpose = { for: 'page', helpHosts: ['docs.finops.example'] };

  it.each([
    ['mailto:billing@acme.example', true],
    ['mailto:billing@acme.example?subject=Invoice%20INV-7&cc=ap@acme.example', true],
    ['MAILTO:billing@acme.example', true],
    ['https://docs.finops.example/desktop#ports', true],
    ['https://DOCS.finops.example/', true], // the parser lower-cases hosts
    ['mailto:', false],
    ['mailto:?body=hi', false],
    ['mailto://evil.example/@x', false],
    ['https://evil.example/', false],
    ['https://docs.finops.example.evil.example/', false],
    ['https://evil.example/?next=https://docs.finops.example/', false],
    ['https://docs.finops.example@evil.example/', false],
    ['https://user:pw@docs.finops.example/', false],
    ['http://docs.finops.example/', false], // nothing unencrypted
    ['https://127.0.0.1/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['ms-msdt:/id PCWDiagnostic', false],
    ['smb://evil.example/share', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(opens(url, page)).toBe(expected);
  });

  it('lets out no https page link by default: the app has no help site of its own yet', () => {
    expect(HELP_HOSTS).toEqual([]);
    expect(opens('https://docs.example.com/help', { for: 'page' })).toBe(false);
    expect(opens('mailto:a@b.example', { for: 'page' })).toBe(true);
  });
});

describe('a sync sign-in', () => {
  const remote: ExternalLinkPurpose = { for: 'sign-in', remoteBaseUrl: 'https://sync.example.com/v1' };

  it.each([
    [signIn('https://sync.example.com'), true],
    [signIn('https://sync.example.com', '/oauth2/authorize'), true], // metadata may name another path on the origin
    [signIn('https://SYNC.example.com:443'), true],
    [signIn('https://evil.example'), false],
    [signIn('https://sync.example.com.evil.example'), false],
    [signIn('https://sync.example.com:8443'), false], // another port is another origin
    [signIn('http://sync.example.com'), false],
    [signIn('https://sync.example.com@evil.example'), false],
    ['https://sync.example.com/v1/oauth/authorize', false], // no PKCE, no loopback redirect
    [signIn('https://sync.example.com').replace('127.0.0.1', 'evil.example'), false],
  ])('%s → %s', (url, expected) => {
    expect(opens(url, remote)).toBe(expected);
  });

  it('follows the remote signed in to, a remote on this machine included', () => {
    const local: ExternalLinkPurpose = { for: 'sign-in', remoteBaseUrl: 'http://127.0.0.1:3001/v1' };
    expect(opens(signIn('http://127.0.0.1:3001'), local)).toBe(true);
    expect(opens(signIn('https://sync.example.com'), local)).toBe(false);
    for (const remoteBaseUrl of ['', 'not a url', 'file:///v1', 'javascript:alert(1)']) {
      expect(opens(signIn('https://sync.example.com'), { for: 'sign-in', remoteBaseUrl }), remoteBaseUrl).toBe(false);
    }
  });
});

describe('an update download', () => {
  const feed: ExternalLinkPurpose = { for: 'update', feedUrl: 'https://releases.finops.example/desk/' };

  it.each([
    ['https://releases.finops.example/desk/Finops-Desk-Setup-0.2.0.exe', true],
    ['https://releases.finops.example/other/Finops-Desk-0.2.0.dmg', true],
    ['https://evil.example/Finops-Desk-Setup-0.2.0.exe', false], // a feed's `path:` naming another host
    ['https://releases.finops.example.evil.example/x.exe', false],
    ['http://releases.finops.example/desk/x.exe', false],
    ['file:///tmp/x.exe', false],
  ])('%s → %s', (url, expected) => {
    expect(opens(url, feed)).toBe(expected);
  });
});

describe('the log line of a refusal', () => {
  it('says the purpose, the scheme and host and why; never the query or an address', () => {
    const remote: ExternalLinkPurpose = { for: 'sign-in', remoteBaseUrl: 'https://sync.example.com/v1' };
    const url = signIn('https://evil.example');
    const line = refusalLogLine(url, remote, judgeExternalLink(url, remote));
    expect(line).toBe(
      'external link refused (sign-in): https://evil.example: not on the remote’s origin https://sync.example.com',
    );
    expect(line).not.toContain('secret-state');
    const mail = 'mailto:ceo@acme.example';
    expect(
      refusalLogLine(
        mail,
        { for: 'update', feedUrl: 'https://r.example/' },
        judgeExternalLink(mail, { for: 'update', feedUrl: 'https://r.example/' }),
      ),
    ).toBe('external link refused (update): a mailto: link: an installer is downloaded over https only');
    expect(refusalLogLine(mail, { for: 'page' }, judgeExternalLink(mail, { for: 'page' }))).toBeNull();
    expect(describeLink('javascript:alert(1)')).toBe('a javascript: link');
    expect(describeLink('%%')).toBe('an unreadable URL');
  });
});
