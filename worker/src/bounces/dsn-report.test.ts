import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  legacyRecipientDigest,
  mailIdentityKey,
  namesRecipient,
  mailsInMessageIds,
  mailsInReturnPaths,
  type MailEventInput,
  type NamedMail,
} from '@agency/platform';
import { readDsn, type DsnReading } from './dsn-report';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));

function eventsOf(reading: DsnReading) {
  if (reading.kind !== 'report') throw new Error(`expected a report, got ${reading.kind}`);
  return reading.events;
}

const CAMPAIGN = '0123456789abcdef01234567';
// The fixtures were written by servers answering mail of an earlier version: SHA-1 identities.
const digestOf = (email: string) => legacyRecipientDigest(email);
const KEY = mailIdentityKey('dsn-report-test-secret-of-32-characters');

/**
 * The mails of ours (by their form) an event names for its own recipient, as
 * the record step checks them: each once, though a Message-ID and a return
 * path often name the same.
 */
function mailsNamingRecipient(event: MailEventInput | undefined): NamedMail[] {
  if (!event) return [];
  const named = [
    ...(event.messageIds ?? []).flatMap(mailsInMessageIds),
    ...(event.returnPaths ?? []).flatMap(mailsInReturnPaths),
  ].filter((mail) => namesRecipient(KEY, mail, event.email));
  return [...new Set(named.map((mail) => JSON.stringify(mail)))].map(
    (text) => JSON.parse(text) as NamedMail,
  );
}

describe('reading a delivery status notification', () => {
  it('reads a Postfix bounce: a hard bounce of the recipient, matched by the quoted Message-ID', async () => {
    const [event, ...others] = eventsOf(await readDsn(fixture('postfix-hard.eml')));
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      provider: 'dsn',
      eventId: '<20261126090000.ABC123@mx.example.tn>:gone@example.tn',
      kind: 'hard-bounce',
      email: 'gone@example.tn',
      detail:
        '550 5.1.1 <gone@example.tn>: Recipient address rejected: User unknown in local recipient table',
      at: new Date('2026-11-26T09:00:00Z'),
    });
    expect(event?.messageIds).toContain(
      `<campaign-${CAMPAIGN}-r1-${digestOf('gone@example.tn')}@agency.test>`,
    );
    expect(mailsNamingRecipient(event)).toEqual([
      {
        kind: 'campaign',
        campaignId: CAMPAIGN,
        round: 1,
        digest: digestOf('gone@example.tn'),
        keyed: false,
      },
    ]);
  });

  it('reads an Exchange non-delivery report, its original quoted by headers alone', async () => {
    const events = eventsOf(await readDsn(fixture('exchange-ndr.eml')));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'hard-bounce',
      email: 'Bob.Smith@corp.example.com',
      detail:
        '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
    });
    expect(mailsNamingRecipient(events[0])).toEqual([
      expect.objectContaining({ campaignId: CAMPAIGN, round: 2 }),
    ]);
  });

  it('counts a delayed delivery (4.x.x) as a soft bounce, matched by the return path it came back to', async () => {
    const events = eventsOf(await readDsn(fixture('postfix-delayed.eml')));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'soft-bounce',
      email: 'full@example.org',
      detail: '452 4.2.2 Mailbox full',
    });
    // The quoted header carries no Message-ID: the VERP address names the mail.
    expect(events[0]?.returnPaths).toContain(
      `bounces+c${CAMPAIGN}.r1.${digestOf('full@example.org')}@agency.test`,
    );
    expect(mailsNamingRecipient(events[0])).toEqual([
      {
        kind: 'campaign',
        campaignId: CAMPAIGN,
        round: 1,
        digest: digestOf('full@example.org'),
        keyed: false,
      },
    ]);
  });

  it('reads every recipient of a Sendmail report: failed 5.x.x is hard, failed 4.x.x soft, delivered and non-Internet recipients nothing', async () => {
    const events = eventsOf(await readDsn(fixture('sendmail-multi.eml')));
    expect(events.map(({ email, kind }) => ({ email, kind }))).toEqual([
      { email: 'ana@example.net', kind: 'hard-bounce' },
      { email: 'Omar@Example.net', kind: 'soft-bounce' },
    ]);
    // Two recipients of one report are two events: neither replaces the other.
    expect(new Set(events.map(({ eventId }) => eventId)).size).toBe(2);
    expect(events[1]?.eventId).toBe(
      '<202611260830.2AQ8U0q9012345@mx.example.net>:omar@example.net',
    );
  });

  it('hands each recipient of a report every mail it names, of which only the mail to that recipient names them', async () => {
    const [ana, omar] = eventsOf(await readDsn(fixture('sendmail-multi.eml')));
    expect(omar?.messageIds).toEqual(ana?.messageIds);
    // The quoted original is Ana's mail: Omar's bounce must not be put on her.
    expect(mailsNamingRecipient(ana)).toEqual([
      expect.objectContaining({
        campaignId: 'abcdefabcdefabcdefabcdef',
        digest: digestOf('ana@example.net'),
      }),
    ]);
    expect(mailsNamingRecipient(omar)).toEqual([]);
  });

  it('takes no recipient longer than an address can be', async () => {
    const long = `${'a'.repeat(250)}@example.tn`;
    const raw = Buffer.from(
      fixture('postfix-hard.eml')
        .toString()
        .replace(/gone@example\.tn/g, long),
    );
    expect(await readDsn(raw)).toEqual({ kind: 'report', events: [] });
  });

  it('names the same events each time it reads the same report', async () => {
    const first = eventsOf(await readDsn(fixture('sendmail-multi.eml')));
    const again = eventsOf(await readDsn(fixture('sendmail-multi.eml')));
    expect(again.map(({ eventId }) => eventId)).toEqual(first.map(({ eventId }) => eventId));
  });

  it('identifies a report without a Message-ID by its content', async () => {
    const raw = Buffer.from(
      fixture('postfix-hard.eml')
        .toString()
        .replace(/^Message-Id: .*\n/m, ''),
    );
    const [event] = eventsOf(await readDsn(raw));
    expect(event?.eventId).toMatch(/^sha1-[0-9a-f]{40}:gone@example\.tn$/);
    expect(eventsOf(await readDsn(raw))[0]?.eventId).toBe(event?.eventId);
  });

  it('reads a report cut off inside its quoted original, as the mailbox reads only its first megabyte', async () => {
    const whole = fixture('postfix-hard.eml')
      .toString()
      .replace('\nHello\n', `\n${'A large newsletter body. '.repeat(100_000)}\n`);
    const cut = Buffer.from(whole).subarray(0, 1024 * 1024);
    const [event] = eventsOf(await readDsn(cut));
    expect(event).toMatchObject({ kind: 'hard-bounce', email: 'gone@example.tn' });
    expect(mailsNamingRecipient(event)).toEqual([
      expect.objectContaining({ campaignId: CAMPAIGN }),
    ]);
  });

  it('leaves an auto-reply alone, though it answers a campaign mail', async () => {
    expect(await readDsn(fixture('auto-reply.eml'))).toEqual({ kind: 'not-a-report' });
  });

  it('leaves random bytes alone without throwing', async () => {
    expect(await readDsn(randomBytes(4096))).toEqual({ kind: 'not-a-report' });
    expect(await readDsn(Buffer.alloc(0))).toEqual({ kind: 'not-a-report' });
  });

  it('calls a report without its status part malformed', async () => {
    expect(await readDsn(fixture('missing-status.eml'))).toEqual({
      kind: 'malformed',
      reason: 'a delivery report without its status part',
    });
  });

  it('calls a status part without any recipient malformed', async () => {
    const raw = Buffer.from(
      fixture('postfix-hard.eml')
        .toString()
        .replace(/\nFinal-Recipient:[\s\S]*?local recipient table\n/, '\n'),
    );
    expect(await readDsn(raw)).toEqual({
      kind: 'malformed',
      reason: 'a delivery report without any recipient',
    });
  });
});
