import { failureKindOf } from './failure-reason';

describe('the kind of a recorded failure reason', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:41245', 'unreachable'],
    ['Greeting never received', 'unreachable'],
    ['getaddrinfo ENOTFOUND smtp.agency.tn', 'unreachable'],
    ['the SMTP server closed the connection', 'unreachable'],
    ['self-signed certificate in certificate chain', 'tls'],
    ['535 5.7.8 Authentication failed', 'login'],
    ['550 5.1.1 No such user', 'noMailbox'],
    ['552 Mailbox full', 'mailboxFull'],
    ['452 4.2.2 Over quota', 'mailboxFull'],
    ['554 5.7.1 Message rejected as spam', 'rejected'],
    ['451 4.7.1 Try again later', 'later'],
    ['Invalid recipient address "user.@example.com"', 'invalidAddress'],
    ['not a single mailbox: "a@b.tn, c@d.tn"', 'invalidAddress'],
    ['550 Requested action not taken', 'refused'],
    ['something nobody expected', 'unknown'],
  ] as const)('reads "%s" as %s', (reason, kind) => {
    expect(failureKindOf(reason)).toBe(kind);
  });
});
