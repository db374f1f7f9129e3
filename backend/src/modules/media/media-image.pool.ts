import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, sep } from 'node:path';
import pLimit from 'p-limit';
import type { ErrorCode, ValidationMessage } from '@agency/contracts';
import { HttpError } from '../../errors';
import type { ImageVariant, ProcessedImage } from './media-image';
import { MediaRefusal } from './media-refusal';

/** An upload handed to the image process: the file it was kept in. */
export interface ImageJob {
  id: number;
  path: string;
  declaredType: string;
}

/** An upload checked and made mail-ready, with its content id. */
export interface ProcessedUpload {
  /** The SHA-256 of the upload's bytes (its id, `contentIdOf`). */
  hash: string;
  image: ProcessedImage;
}

/** The image process's answer: the image, why it is refused, or what broke. */
export type ImageJobAnswer =
  | ({ id: number } & ProcessedUpload)
  | { id: number; refusal: { code: ErrorCode; reason: ValidationMessage } }
  | { id: number; failure: string };

/** Checks uploads and makes their variants, away from the API's requests. */
export interface ImageProcessor {
  /** Reads the upload kept at `path` (the caller removes it afterwards). */
  process(path: string, declaredType: string): Promise<ProcessedUpload>;
  /** The image process's id while it runs (the tests read its priority). */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

interface Waiting {
  resolve: (upload: ProcessedUpload) => void;
  reject: (error: Error) => void;
}

/**
 * The image process's entry as built. The tests run the TypeScript sources,
 * which a forked Node cannot: they fork the build of the same file (the
 * tests build the backend first).
 */
function builtEntry(): string {
  const here = __filename.endsWith('.ts')
    ? __dirname.replace(`${sep}src${sep}`, `${sep}dist${sep}`)
    : __dirname;
  return join(here, 'media-image.process.js');
}

/** IPC's structured clone may hand a Buffer back as a plain Uint8Array. */
const asBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const variantOf = (variant: ImageVariant): ImageVariant => ({
  ...variant,
  bytes: asBuffer(variant.bytes),
});

function settle(waiting: Waiting, answer: ImageJobAnswer): void {
  if ('image' in answer) {
    const { hash, image } = answer;
    waiting.resolve({
      hash,
      image: { ...image, mail: variantOf(image.mail), thumbnail: variantOf(image.thumbnail) },
    });
  } else if ('refusal' in answer) {
    waiting.reject(new MediaRefusal(answer.refusal.code, answer.refusal.reason));
  } else {
    waiting.reject(new Error(`image processing failed: ${answer.failure}`));
  }
}

const stoppedMidway = () =>
  new HttpError('UNAVAILABLE', 'Image processing stopped before this upload was done; try again');

/**
 * One image process, forked at the first upload and again after it ends,
 * with at most `concurrency` uploads in it at once (each on one libvips
 * thread). It holds the API open only while it has work: an idle pool lets
 * the API (or a test) exit.
 */
export function createImageProcessPool({
  concurrency,
  entry = builtEntry(),
}: {
  concurrency: number;
  entry?: string;
}): ImageProcessor {
  let child: ChildProcess | null = null;
  let nextId = 0;
  const inProcess = new Map<number, Waiting>();
  // Decoding a large image holds a few hundred MB: ten uploads at once wait
  // here, in arrival order, rather than all take memory in the image process.
  const inSlot = pLimit(concurrency);

  const holdOpen = (hold: boolean) => {
    if (!child) return;
    if (hold) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  };

  const abandonAll = (reason: Error) => {
    for (const waiting of inProcess.values()) waiting.reject(reason);
    inProcess.clear();
  };

  const started = (): ChildProcess => {
    if (child?.connected) return child;
    const forked = fork(entry, [], {
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    forked.on('message', (answer: ImageJobAnswer) => {
      const waiting = inProcess.get(answer.id);
      if (!waiting) return;
      inProcess.delete(answer.id);
      settle(waiting, answer);
      if (inProcess.size === 0) holdOpen(false);
    });
    forked.on('exit', () => {
      if (child === forked) child = null;
      abandonAll(stoppedMidway());
    });
    forked.on('error', (error) => {
      if (child === forked) child = null;
      abandonAll(error);
    });
    child = forked;
    return forked;
  };

  const send = (path: string, declaredType: string) =>
    new Promise<ProcessedUpload>((resolve, reject) => {
      const id = (nextId += 1);
      const target = started();
      inProcess.set(id, { resolve, reject });
      holdOpen(true);
      target.send({ id, path, declaredType } satisfies ImageJob);
    });

  return {
    process: (path, declaredType) => inSlot(() => send(path, declaredType)),
    get pid() {
      return child?.pid;
    },
    async close() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
  };
}
