import { randomBytes } from 'node:crypto';
import mongoose, { mongo } from 'mongoose';
import { useFileDatabase } from '../testing/file-database';
import { IMPORT_FILE_CHUNKS_PER_READ, importFileBytes, importFiles } from './import-file';

/** Stores `bytes` as an import file of `chunkSizeBytes` chunks; answers its id. */
async function storeFile(bytes: Buffer, chunkSizeBytes: number): Promise<mongo.ObjectId> {
  const upload = importFiles().openUploadStream('members.csv', { chunkSizeBytes });
  await new Promise<void>((resolve, reject) => {
    upload.once('finish', () => resolve());
    upload.once('error', reject);
    upload.end(bytes);
  });
  return upload.id;
}

async function readAll(fileId: mongo.ObjectId, db?: mongo.Db): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of importFileBytes(fileId, db)) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const chunks = () => mongoose.connection.db?.collection('imports.chunks');

/**
 * Reading a stored import file through: the API's check of an upload and
 * the worker's import both read it this way.
 */
describe('reading a stored import file', () => {
  useFileDatabase('import-file');

  it('gives the bytes stored, in order, over many chunks and a short last one', async () => {
    const bytes = randomBytes(10 * 1024 + 300);
    const fileId = await storeFile(bytes, 1024);
    expect((await readAll(fileId)).equals(bytes)).toBe(true);
  });

  it('gives nothing for an empty file', async () => {
    const fileId = await storeFile(Buffer.alloc(0), 1024);
    expect((await readAll(fileId)).length).toBe(0);
  });

  it('asks the store for a few chunks at a time, never the whole file in one reply', async () => {
    const fileId = await storeFile(randomBytes(40 * 1024), 1024);
    const watched = new mongo.MongoClient(process.env.MONGODB_URI ?? '', { monitorCommands: true });
    const chunkReads = new Set<number>();
    const replies: number[] = [];
    watched.on('commandStarted', ({ command, requestId }) => {
      if (command.find === 'imports.chunks' || command.collection === 'imports.chunks') {
        chunkReads.add(requestId);
      }
    });
    watched.on('commandSucceeded', ({ reply, requestId }) => {
      if (!chunkReads.has(requestId)) return;
      const { cursor } = reply as { cursor: { firstBatch?: unknown[]; nextBatch?: unknown[] } };
      replies.push((cursor.firstBatch ?? cursor.nextBatch ?? []).length);
    });
    try {
      await watched.connect();
      const read = await readAll(fileId, watched.db(mongoose.connection.db?.databaseName));
      expect(read.length).toBe(40 * 1024);
    } finally {
      await watched.close();
    }
    expect(replies.reduce((sum, count) => sum + count, 0)).toBe(40);
    expect(Math.max(...replies)).toBe(IMPORT_FILE_CHUNKS_PER_READ);
  });

  it('refuses a file with a chunk missing, naming the chunk', async () => {
    const fileId = await storeFile(randomBytes(5 * 1024), 1024);
    await chunks()?.deleteOne({ files_id: fileId, n: 2 });
    await expect(readAll(fileId)).rejects.toThrow(/damaged: chunk 3 .* where chunk 2/);
  });

  it('refuses a file whose last chunks are missing', async () => {
    const fileId = await storeFile(randomBytes(5 * 1024), 1024);
    await chunks()?.deleteOne({ files_id: fileId, n: 4 });
    await expect(readAll(fileId)).rejects.toThrow(/damaged: 4 of its 5 chunks stored/);
  });

  it("refuses a chunk past the file's length", async () => {
    const fileId = await storeFile(randomBytes(3 * 1024), 1024);
    await chunks()?.insertOne({
      files_id: fileId,
      n: 3,
      data: new mongo.Binary(randomBytes(1024)),
    });
    await expect(readAll(fileId)).rejects.toThrow(/damaged: chunk 3 of 1024 bytes where chunk 3/);
  });

  it('refuses a chunk of the wrong length', async () => {
    const fileId = await storeFile(randomBytes(3 * 1024), 1024);
    await chunks()?.updateOne(
      { files_id: fileId, n: 1 },
      { $set: { data: new mongo.Binary(randomBytes(10)) } },
    );
    await expect(readAll(fileId)).rejects.toThrow(/chunk 1 of 10 bytes where chunk 1 of 1024/);
  });

  it('refuses a file that is not stored', async () => {
    await expect(readAll(new mongo.ObjectId())).rejects.toThrow(/is not stored/);
  });
});
