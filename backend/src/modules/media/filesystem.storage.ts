import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { contentTypeOfName, type MediaStorage } from './media-storage';

/**
 * Images in a folder (MEDIA_DIR). A file is written under a temporary name
 * and renamed, so a reader never sees half of one.
 */
export function filesystemStorage(dir: string): MediaStorage {
  const root = resolve(dir);
  const pathOf = (name: string) => join(root, name);
  let ready: Promise<unknown> | undefined;
  const fileStat = async (name: string) => {
    const found = await stat(pathOf(name)).catch(() => null);
    return found?.isFile() ? found : null;
  };
  return {
    async put(name, bytes) {
      ready ??= mkdir(root, { recursive: true });
      await ready;
      const partial = `${pathOf(name)}.${process.pid}.${Date.now()}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, pathOf(name));
    },
    async get(name) {
      const found = await fileStat(name);
      if (!found) return null;
      return {
        body: createReadStream(pathOf(name)),
        contentType: contentTypeOfName(name),
        length: found.size,
      };
    },
    async has(name) {
      return (await fileStat(name)) !== null;
    },
    async delete(name) {
      await rm(pathOf(name), { force: true });
    },
  };
}
