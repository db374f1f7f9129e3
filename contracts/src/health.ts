export type ServiceStatus = 'up' | 'down';

export interface HealthDto {
  status: 'ok' | 'degraded';
  services: { mongodb: ServiceStatus; redis: ServiceStatus };
}

/** Jobs of one queue by state: what an operator watches for a backlog. */
export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * The SMTP server as the worker last found it: `unreachable` from the first
 * send that could not connect (`since`, ISO 8601) until a mail or a probe gets
 * through. `unknown` when Redis, where the worker notes it, did not answer.
 */
export type SmtpHealth =
  | { status: 'reachable'; since: null }
  | { status: 'unreachable'; since: string }
  | { status: 'unknown'; since: null };

/** The health answer with the queues' depths, when Redis answered in time. */
export interface HealthWithQueuesDto extends HealthDto {
  queues?: Record<string, QueueDepth>;
  smtp: SmtpHealth;
}
