import type { CampaignSendState } from '@agency/platform';
import { sendingStateOf } from '../testing/campaign-send-state';
import { sendStateReads } from './send-state-reads';

const stateOf = (id: string, pass: number) => sendingStateOf(id, { pass });

/**
 * Which reads of a campaign's state a worker's batches share. The reads are
 * recorded here, each answering the campaign's pass at that moment; the
 * send tests read the store.
 */
describe("a worker's shared reads of its campaigns' state", () => {
  let asked: string[];
  let pass: number;
  let failNext: boolean;
  const store = {
    sendState(campaignId: string): Promise<CampaignSendState | null> {
      asked.push(campaignId);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('store unreachable'));
      }
      return Promise.resolve(stateOf(campaignId, pass));
    },
  };
  beforeEach(() => {
    asked = [];
    pass = 1;
    failNext = false;
    jest.useFakeTimers({ now: new Date('2026-11-29T12:00:00Z'), doNotFake: ['nextTick'] });
  });
  afterEach(() => jest.useRealTimers());

  it('gives a batch the last read while it is younger than the batch allows, with its age', async () => {
    const reads = sendStateReads(store);
    const first = await reads.fresh('c1');
    pass = 2;
    jest.advanceTimersByTime(999);

    const shared = await reads.recent('c1', 1000);

    expect(asked).toEqual(['c1']);
    expect(shared).toEqual(first);
    expect(shared.state?.pass).toBe(1);
  });

  it('reads anew once the last read is as old as the batch allows', async () => {
    const reads = sendStateReads(store);
    await reads.fresh('c1');
    pass = 2;
    jest.advanceTimersByTime(1000);

    const read = await reads.recent('c1', 1000);

    expect(asked).toEqual(['c1', 'c1']);
    expect(read.state?.pass).toBe(2);
    expect(read.readAt).toBe(Date.now());
  });

  it('reads anew for each batch that starts, and shares that read from then on', async () => {
    const reads = sendStateReads(store);
    await reads.fresh('c1');
    jest.advanceTimersByTime(600);
    pass = 2;
    await reads.fresh('c1');
    jest.advanceTimersByTime(600);

    expect((await reads.recent('c1', 1000)).state?.pass).toBe(2);
    expect(asked).toHaveLength(2);
  });

  it('shares nothing between campaigns', async () => {
    const reads = sendStateReads(store);
    await reads.fresh('c1');

    expect((await reads.recent('c2', 1000)).state?.id).toBe('c2');
    expect(asked).toEqual(['c1', 'c2']);
  });

  it('keeps the reads of at most twenty campaigns, then starts afresh', async () => {
    const reads = sendStateReads(store);
    for (let index = 0; index <= 20; index += 1) await reads.fresh(`c${index}`);

    await reads.recent('c20', 1000);
    await reads.recent('c0', 1000);

    expect(asked.filter((id) => id === 'c20')).toHaveLength(1);
    expect(asked.filter((id) => id === 'c0')).toHaveLength(2);
  });

  it('shares no failed read: the next batch asks the store again', async () => {
    const reads = sendStateReads(store);
    failNext = true;
    await expect(reads.fresh('c1')).rejects.toThrow('store unreachable');

    expect((await reads.recent('c1', 1000)).state?.pass).toBe(1);
    expect(asked).toEqual(['c1', 'c1']);
  });
});
