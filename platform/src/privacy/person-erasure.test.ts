import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '@agency/contracts';
import { UNWATCHED_CONTACTS } from '../contact/contact-changes';
import { ListMemberModel, listMemberId } from '../audience/list-member.model';
import { ImportReportModel } from '../audience/list-import.model';
import { MailEventModel } from '../audience/mail-event.model';
import { MailingListModel } from '../audience/mailing-list.model';
import { SubscriberModel } from '../newsletter/subscriber.model';
import type { Redis } from '../redis-connection';
import { useFileDatabase } from '../testing/file-database';
import { connectSharedRedis } from '../testing/shared-redis';
import { erasedAddressDigest, erasureKeyOf } from './erasure-key';
import { erasedAddressDigests, findErasure, isErasedAddress } from './erasure-records';
import { ERASURE_STEPS } from './erasure-steps';
import { requestPersonErasure, runPersonErasureSteps } from './person-erasure';
import { CampaignBatchInFlight } from './queued-job-erasure';

useFileDatabase('person-erasure');

const PERSON = 'samia@example.tn';
const OTHER = 'sami@example.tn';
const key = erasureKeyOf('a-mail-link-secret-of-at-least-thirty-two-characters');
const prefix = `person-erasure-${randomBytes(4).toString('hex')}`;
let redis: Redis;
let sends: Queue;

beforeAll(async () => {
  redis = await connectSharedRedis('producer');
  sends = new Queue(QUEUE_NAMES.campaignSend, { connection: redis, prefix });
});
afterAll(async () => {
  await sends.obliterate({ force: true });
  await sends.close();
  redis.disconnect();
});

const deps = () => ({
  erasureKey: key,
  redis: { connection: redis, prefix },
  contactChanges: UNWATCHED_CONTACTS,
});

async function seedPerson(): Promise<string> {
  const list = await MailingListModel.create({ name: 'Clients', memberCount: 2 });
  const consent = { basis: 'staff' as const, at: new Date(), listName: 'Clients' };
  await ListMemberModel.insertMany(
    [PERSON, OTHER].map((email) => ({
      _id: listMemberId(String(list._id), email),
      list: list._id,
      key: email,
      email,
      consent,
    })),
  );
  await SubscriberModel.create({ email: PERSON, status: 'confirmed', locale: 'ar' });
  await MailEventModel.create({
    _id: 'evt-1',
    provider: 'generic',
    kind: 'soft-bounce',
    key: PERSON,
    email: PERSON,
    at: new Date(),
  });
  await ImportReportModel.create({
    _id: 'import-1:0',
    importId: list._id,
    chunk: 0,
    lines: [
      { row: 3, value: `${PERSON},Samia`, reason: 'duplicate-in-file' },
      { row: 4, value: `o${PERSON},Osamia`, reason: 'duplicate-in-file' },
    ],
  });
  return String(list._id);
}

const memberCount = async (listId: string) =>
  (await MailingListModel.findById(listId).lean())?.memberCount;

describe('an erasure that stops midway', () => {
  it('records the steps it finished, and the next run does the rest once', async () => {
    const listId = await seedPerson();
    const { _id: id } = await requestPersonErasure(key, 'Samia@Example.tn');
    expect(id).toBe(erasedAddressDigest(key, PERSON));
    // A batch still to be sent holds the address: the last step must wait for it.
    await sends.add('batch', {
      campaignId: 'c1',
      round: 1,
      pass: 1,
      seq: 0,
      recipients: [{ key: PERSON, email: PERSON, firstName: 'Samia', locale: 'ar' }],
    });

    await expect(runPersonErasureSteps(deps(), PERSON)).rejects.toBeInstanceOf(
      CampaignBatchInFlight,
    );
    const stopped = await findErasure(id);
    expect(stopped).toMatchObject({ state: 'running', stepsDone: ERASURE_STEPS.length - 1 });
    expect(await SubscriberModel.countDocuments({ email: PERSON })).toBe(0);
    expect(await memberCount(listId)).toBe(1);

    // The batch is sent (its job gone); the run taken up again finishes.
    await sends.obliterate({ force: true });
    const finished = await runPersonErasureSteps(deps(), PERSON);
    expect(finished.steps).toEqual(expect.arrayContaining(ERASURE_STEPS));
    expect(finished.locale).toBe('ar');
    expect(await memberCount(listId)).toBe(1);
    expect(await ListMemberModel.find({ list: listId }, { key: 1 }).lean()).toEqual([
      expect.objectContaining({ key: OTHER }),
    ]);
    expect(await MailEventModel.countDocuments({ key: PERSON })).toBe(0);
    // The report's line of a longer address that contains this one stays as it was.
    const [report] = await ImportReportModel.find({}).lean();
    expect(report?.lines.map(({ value }) => value)).toEqual([`erased:${id}`, `o${PERSON},Osamia`]);
  });

  it('changes nothing when run again, and keeps the digest that refuses the address', async () => {
    const lists = await MailingListModel.find({}).lean();
    await runPersonErasureSteps(deps(), PERSON);
    expect(await MailingListModel.find({}).lean()).toEqual(lists);
    expect(await isErasedAddress(key, ' SAMIA@example.tn ')).toBe(true);
    expect(await isErasedAddress(key, OTHER)).toBe(false);
    expect([...(await erasedAddressDigests())]).toEqual([erasedAddressDigest(key, PERSON)]);
  });
});

describe('the erased-address digest', () => {
  it('is keyed: another secret gives another digest, and it never holds the address', () => {
    const digest = erasedAddressDigest(key, PERSON);
    expect(digest).toMatch(/^[0-9a-f]{32}$/);
    expect(
      erasedAddressDigest(erasureKeyOf('another-secret-of-at-least-thirty-two-chars!'), PERSON),
    ).not.toBe(digest);
    expect(erasedAddressDigest(key, ' Samia@EXAMPLE.tn')).toBe(digest);
  });
});
