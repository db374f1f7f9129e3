import { randomUUID } from 'node:crypto';
import { Queue, type JobsOptions } from 'bullmq';
import { QUEUE_NAMES, type CampaignEventsJob, type TrackingEventRecord } from '@agency/contracts';
import { withTimeout, type Logger, type Redis } from '@agency/platform';

/**
 * The opens and clicks the API answered, on their way to the worker. The
 * pixel and the redirect answer at once and leave their event here; the
 * buffer hands them to Redis as one `campaign-events` job per batch, so a
 * burst of clicks costs a few Redis writes rather than one per click, and a
 * frozen or absent Redis delays counting without holding any answer.
 *
 * At least once: a batch whose add failed or timed out is kept and added
 * again with the same job id, which BullMQ ignores when the first add did
 * land after all; the worker also drops an event it has seen (by its id).
 */
export interface TrackingEventBuffer {
  /** Takes one event; false (and counted, and logged) only when the buffer is full. */
  add(event: TrackingEventRecord): boolean;
  /** Hands everything held to Redis now and resolves once it is there (or the deadline passed). */
  flush(deadlineMs?: number): Promise<void>;
  /** Flushes (within the shutdown deadline), then stops and closes the queue. */
  close(): Promise<void>;
  counters(): TrackingEventCounters;
}

export interface TrackingEventCounters {
  /** Events taken since the start. */
  accepted: number;
  /** Events whose batch Redis has taken. */
  flushed: number;
  /** Events held in memory, in batches waiting or being added. */
  pending: number;
  /** Events refused because the buffer was full. */
  refused: number;
  /** Batches Redis has taken. */
  batches: number;
}

export interface TrackingEventBufferOptions {
  connection: Redis;
  prefix: string;
  logger: Logger;
  /** A batch leaves at most this long after its first event (ms). */
  flushIntervalMs?: number;
  /** ... or as soon as it holds this many events. */
  batchSize?: number;
  /** Events held beyond this are refused: the memory a long Redis outage may take. */
  maxPending?: number;
  /** An add not answered within this is taken as failed and tried again (same job id). */
  addTimeoutMs?: number;
  /** Pauses between tries of a failed add: from the first, doubling up to the last. */
  retryDelayMs?: { first: number; max: number };
  /** How long the shutdown waits for Redis to take what is held. */
  closeDeadlineMs?: number;
}

const DEFAULTS: Required<Omit<TrackingEventBufferOptions, 'connection' | 'prefix' | 'logger'>> = {
  flushIntervalMs: 250,
  batchSize: 500,
  // About 60 MB of events: minutes of the busiest burst with Redis away.
  maxPending: 200_000,
  addTimeoutMs: 2000,
  retryDelayMs: { first: 100, max: 5000 },
  closeDeadlineMs: 10_000,
};

/**
 * A batch's id must still be known to BullMQ when an add is retried after
 * a timeout, so that the retry is a no-op: an hour is far longer than any
 * retry waits once Redis answers again, and short enough that the batches'
 * events do not pile up in Redis. A failed batch stays a week for inspection.
 */
export const CAMPAIGN_EVENTS_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

interface Batch {
  id: string;
  events: TrackingEventRecord[];
}

/** The id under which a batch is added: BullMQ refuses ':' in ids. */
export const campaignEventsJobId = (batchId: string): string => `events-${batchId}`;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createCampaignEventsQueue(
  connection: Redis,
  prefix: string,
): Queue<CampaignEventsJob> {
  const queue = new Queue<CampaignEventsJob>(QUEUE_NAMES.campaignEvents, {
    connection,
    prefix,
    defaultJobOptions: CAMPAIGN_EVENTS_JOB_OPTIONS,
  });
  // The buffer retries and logs failed adds itself; BullMQ would print every reconnect.
  queue.on('error', () => undefined);
  return queue;
}

/** Adds one batch as one job, however many times it is called with it. */
export async function addEventBatch(
  queue: Queue<CampaignEventsJob>,
  batch: Batch,
  timeoutMs: number,
): Promise<void> {
  await withTimeout(
    queue.add(
      QUEUE_NAMES.campaignEvents as never,
      { events: batch.events },
      {
        jobId: campaignEventsJobId(batch.id),
      },
    ),
    timeoutMs,
  );
}

export function createTrackingEventBuffer(
  options: TrackingEventBufferOptions,
): TrackingEventBuffer {
  const settings = { ...DEFAULTS, ...options };
  const queue = createCampaignEventsQueue(options.connection, options.prefix);
  const state = new BufferState(settings);
  const pump = new BatchPump(queue, state, settings);

  const cutBatch = () => {
    if (state.cut()) pump.run();
  };
  return {
    add(event) {
      const taken = state.take(event);
      if (state.current.length >= settings.batchSize) cutBatch();
      else if (taken && state.current.length === 1) state.schedule(cutBatch);
      return taken;
    },
    async flush(deadlineMs = settings.closeDeadlineMs) {
      cutBatch();
      await pump.drained(deadlineMs);
    },
    async close() {
      cutBatch();
      await pump.drained(settings.closeDeadlineMs);
      pump.stop();
      const left = state.pendingCount();
      if (left > 0) {
        options.logger.error({ events: left }, 'campaign events not handed to Redis at shutdown');
      }
      await queue.close();
    },
    counters: () => state.counters(),
  };
}

type BufferSettings = Required<TrackingEventBufferOptions>;

/** The events held: the batch being filled, the batches waiting, and the counts. */
class BufferState {
  current: TrackingEventRecord[] = [];
  readonly waiting: Batch[] = [];
  /** The events in `waiting`, kept rather than summed: `take` reads it for every event. */
  private waitingEvents = 0;
  private timer: NodeJS.Timeout | undefined;
  private accepted = 0;
  private flushedCount = 0;
  private refused = 0;
  private batches = 0;
  private fullLogged = false;

  constructor(private readonly settings: BufferSettings) {}

  take(event: TrackingEventRecord): boolean {
    if (this.pendingCount() >= this.settings.maxPending) {
      this.refuse();
      return false;
    }
    this.fullLogged = false;
    this.current.push(event);
    this.accepted += 1;
    return true;
  }

  /** Full: the event is refused, counted, and the first refusal of a spell logged. */
  private refuse(): void {
    this.refused += 1;
    if (this.fullLogged) return;
    this.fullLogged = true;
    this.settings.logger.error(
      { maxPending: this.settings.maxPending },
      'campaign event buffer full: Redis has not taken events for a long time; new events are refused',
    );
  }

  schedule(cut: () => void): void {
    this.timer ??= setTimeout(cut, this.settings.flushIntervalMs).unref();
  }

  /** Closes the batch being filled and puts it in line; false when it was empty. */
  cut(): boolean {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.current.length === 0) return false;
    this.waiting.push({ id: randomUUID(), events: this.current });
    this.waitingEvents += this.current.length;
    this.current = [];
    return true;
  }

  delivered(batch: Batch): void {
    this.waiting.shift();
    this.waitingEvents -= batch.events.length;
    this.flushedCount += batch.events.length;
    this.batches += 1;
  }

  pendingCount(): number {
    return this.current.length + this.waitingEvents;
  }

  counters(): TrackingEventCounters {
    return {
      accepted: this.accepted,
      flushed: this.flushedCount,
      pending: this.pendingCount(),
      refused: this.refused,
      batches: this.batches,
    };
  }
}

/** Adds the waiting batches one after the other; a failed add waits, then tries the same batch again. */
class BatchPump {
  private running: Promise<void> | undefined;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly queue: Queue<CampaignEventsJob>,
    private readonly state: BufferState,
    private readonly settings: BufferSettings,
  ) {}

  run(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // A batch cut while the last add was settling.
      if (this.state.waiting.length > 0) this.run();
    });
  }

  private async drain(): Promise<void> {
    for (let batch = this.state.waiting[0]; batch && !this.stopped; batch = this.state.waiting[0]) {
      try {
        await addEventBatch(this.queue, batch, this.settings.addTimeoutMs);
        this.state.delivered(batch);
        this.failures = 0;
      } catch (error) {
        await this.backOff(error);
      }
    }
  }

  private async backOff(error: unknown): Promise<void> {
    this.failures += 1;
    const { first, max } = this.settings.retryDelayMs;
    const wait = Math.min(first * 2 ** (this.failures - 1), max);
    if (this.failures === 1 || wait === max) {
      this.settings.logger.warn(
        { err: error, pending: this.state.pendingCount(), retryInMs: wait },
        'campaign events not handed to Redis yet; kept and retried',
      );
    }
    await delay(wait);
  }

  /** Resolves once nothing waits, or when the deadline passes. */
  async drained(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (this.state.waiting.length > 0 && Date.now() < deadline) {
      this.run();
      await Promise.race([this.running, delay(Math.max(0, deadline - Date.now()))]);
    }
  }

  stop(): void {
    this.stopped = true;
  }
}
