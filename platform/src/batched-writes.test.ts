import { Schema, model, trusted } from 'mongoose';
import { useFileDatabase } from './testing/file-database';
import { BULK_INSERT, chunksOf, deleteBatcher, insertBatcher } from './index';

const NoteModel = model(
  'BatchedNote',
  new Schema({ _id: String, text: { type: String, required: true } }, { versionKey: false }),
);

useFileDatabase('batched');
beforeEach(async () => {
  await NoteModel.deleteMany({});
});

describe('chunks of a write', () => {
  it('cuts the items in order into slices of at most the size, the last one shorter', () => {
    expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunksOf([1, 2], 2)).toEqual([[1, 2]]);
    expect(chunksOf([], 2)).toEqual([]);
  });
});

describe('batched inserts', () => {
  it('writes concurrent documents in one insert, and each caller waits for its own', async () => {
    const batches: number[] = [];
    const insert = insertBatcher((notes) => {
      batches.push(notes.length);
      return NoteModel.insertMany(notes, BULK_INSERT);
    });

    await Promise.all(['a', 'b', 'c'].map((id) => insert({ _id: id, text: id })));

    expect(batches).toEqual([3]);
    expect(await NoteModel.countDocuments()).toBe(3);
  });

  it('fails only the refused document: a duplicate, or one failing validation', async () => {
    await NoteModel.create({ _id: 'taken', text: 'first' });
    const insert = insertBatcher((notes) => NoteModel.insertMany(notes, BULK_INSERT));

    const outcomes = await Promise.allSettled([
      insert({ _id: 'taken', text: 'second' }),
      insert({ _id: 'fresh', text: 'fine' }),
      insert({ _id: 'empty' }),
    ]);

    expect(outcomes.map(({ status }) => status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    const [duplicate, , invalid] = outcomes;
    expect(duplicate.status === 'rejected' && String(duplicate.reason)).toContain('duplicate key');
    // The validation refusal itself, naming the field, not the batch's summary.
    expect(invalid.status === 'rejected' && String(invalid.reason)).toMatch(/`text` is required/);
    expect((await NoteModel.findById('taken').lean())?.text).toBe('first');
    expect(await NoteModel.exists({ _id: 'fresh' })).not.toBeNull();
    expect(await NoteModel.exists({ _id: 'empty' })).toBeNull();
  });

  it("fails every caller with the store's own error when the whole write fails", async () => {
    const insert = insertBatcher(() => Promise.reject(new Error('store unavailable')));

    const outcomes = await Promise.allSettled([
      insert({ _id: 'a', text: 'a' }),
      insert({ _id: 'b', text: 'b' }),
    ]);

    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error('store unavailable') },
      { status: 'rejected', reason: new Error('store unavailable') },
    ]);
  });

  it('writes a document when its caller tries again after a failed write', async () => {
    let calls = 0;
    const insert = insertBatcher((notes) => {
      calls += 1;
      return calls === 1
        ? Promise.reject(new Error('store unavailable'))
        : NoteModel.insertMany(notes, BULK_INSERT);
    });
    const note = { _id: 'retried', text: 'second try' };

    await expect(insert(note)).rejects.toThrow('store unavailable');
    await expect(insert(note)).resolves.toBeUndefined();

    expect(calls).toBe(2);
    expect((await NoteModel.findById('retried').lean())?.text).toBe('second try');
  });

  it('can count a document that exists already as written (a receipt written twice)', async () => {
    await NoteModel.create({ _id: 'once', text: 'first outcome' });
    const insert = insertBatcher((notes) => NoteModel.insertMany(notes, BULK_INSERT), {
      duplicatesAreInserted: true,
    });

    await expect(insert({ _id: 'once', text: 'late outcome' })).resolves.toBeUndefined();
    expect((await NoteModel.findById('once').lean())?.text).toBe('first outcome');
  });
});

describe('batched deletes', () => {
  it('deletes what concurrent callers ask for in one deleteMany', async () => {
    await NoteModel.create(['a', 'b', 'c', 'd'].map((id) => ({ _id: id, text: id })));
    const batches: string[][] = [];
    const remove = deleteBatcher((ids) => {
      batches.push(ids);
      return NoteModel.deleteMany({ _id: trusted({ $in: ids }) }).exec();
    });

    await Promise.all(['a', 'c', 'd'].map((id) => remove(id)));

    expect(batches).toEqual([['a', 'c', 'd']]);
    expect(await NoteModel.find().distinct('_id')).toEqual(['b']);
  });

  it('deletes an id again when it is asked for again later (written again in between)', async () => {
    const remove = deleteBatcher((ids) =>
      NoteModel.deleteMany({ _id: trusted({ $in: ids }) }).exec(),
    );
    await NoteModel.create({ _id: 'again', text: 'first' });
    await remove('again');
    await NoteModel.create({ _id: 'again', text: 'second' });

    await remove('again');

    expect(await NoteModel.exists({ _id: 'again' })).toBeNull();
  });
});
