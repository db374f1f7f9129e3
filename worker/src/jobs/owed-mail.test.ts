import { UnrecoverableError, type Job } from 'bullmq';
import { deliverOwedMails, isFinalAttempt, type OwedMail } from './owed-mail';

function jobAt(attemptsMade: number, attempts?: number): Job {
  return { attemptsMade, opts: attempts === undefined ? {} : { attempts } } as unknown as Job;
}

const refused = (responseCode: number, response: string) =>
  Object.assign(new Error(response), { responseCode, response });

function mail(name: string, send: () => Promise<unknown>, owed = true) {
  const record: string[] = [];
  const owedMail: OwedMail<string> = {
    name,
    owed,
    send,
    markSent: async () => {
      record.push('sent');
    },
    markFailed: async (reason) => {
      record.push(`failed: ${reason}`);
    },
  };
  return { owedMail, record };
}

/** The job's outbox entry, as `deliverOwedMails` settles it, told whether every mail went out. */
function outboxEntry() {
  const entry: {
    settled: boolean;
    delivered?: boolean;
    settle: (delivered: boolean) => Promise<void>;
  } = { settled: false, settle: async () => undefined };
  entry.settle = async (delivered) => {
    entry.settled = true;
    entry.delivered = delivered;
  };
  return entry;
}

describe('isFinalAttempt', () => {
  it.each([
    [0, 3, false],
    [1, 3, false],
    [2, 3, true],
    [0, 1, true],
    [0, undefined, true],
  ])('after %i failed attempts of %s: %s', (made, attempts, final) => {
    expect(isFinalAttempt(jobAt(made, attempts))).toBe(final);
  });
});

describe('deliverOwedMails', () => {
  it('sends what is owed, records it, and skips what is settled', async () => {
    const owed = mail('notification', async () => undefined);
    const settled = mail('acknowledgement', async () => undefined, false);

    const entry = outboxEntry();

    const outcome = await deliverOwedMails(
      jobAt(0, 3),
      [owed.owedMail, settled.owedMail],
      entry.settle,
    );

    expect(outcome).toEqual({ notification: 'sent', acknowledgement: 'skipped' });
    expect(owed.record).toEqual(['sent']);
    expect(settled.record).toEqual([]);
    expect(entry).toMatchObject({ settled: true, delivered: true });
  });

  it('records a 5xx at once, still sends the next mail, then ends without retry', async () => {
    const refusedMail = mail('notification', async () => {
      throw refused(550, '550 5.1.1 No such user');
    });
    const next = mail('acknowledgement', async () => undefined);

    const entry = outboxEntry();

    const delivery = deliverOwedMails(
      jobAt(0, 8),
      [refusedMail.owedMail, next.owedMail],
      entry.settle,
    );

    await expect(delivery).rejects.toThrow(UnrecoverableError);
    await expect(delivery).rejects.toThrow('notification: 550 5.1.1 No such user');
    expect(refusedMail.record).toEqual(['failed: 550 5.1.1 No such user']);
    expect(next.record).toEqual(['sent']);
    expect(entry).toMatchObject({ settled: true, delivered: false });
  });

  it('names every refused mail and its reply when the job ends', async () => {
    const notification = mail('notification', async () => {
      throw refused(550, '550 5.1.1 No such mailbox');
    });
    const acknowledgement = mail('acknowledgement', async () => {
      throw refused(554, '554 5.7.1 Rejected');
    });

    const delivery = deliverOwedMails(
      jobAt(0, 3),
      [notification.owedMail, acknowledgement.owedMail],
      outboxEntry().settle,
    );

    await expect(delivery).rejects.toThrow(
      'notification: 550 5.1.1 No such mailbox; acknowledgement: 554 5.7.1 Rejected',
    );
  });

  it('leaves a transient failure owed for the retry, except on the last attempt', async () => {
    const busy = () => mail('notification', async () => Promise.reject(refused(451, '451 busy')));

    const early = busy();
    const earlyEntry = outboxEntry();
    await expect(
      deliverOwedMails(jobAt(0, 3), [early.owedMail], earlyEntry.settle),
    ).rejects.toThrow('451 busy');
    expect(early.record).toEqual([]);
    expect(earlyEntry.settled).toBe(false);

    const last = busy();
    const lastEntry = outboxEntry();
    const delivery = deliverOwedMails(jobAt(2, 3), [last.owedMail], lastEntry.settle);
    await expect(delivery).rejects.toThrow('451 busy');
    await expect(delivery).rejects.not.toThrow(UnrecoverableError);
    expect(last.record).toEqual(['failed: 451 busy']);
    expect(lastEntry).toMatchObject({ settled: true, delivered: false });
  });
});
