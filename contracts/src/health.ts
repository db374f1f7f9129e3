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

/** The health answer with the queues' depths, when Redis answered in time. */
export interface HealthWithQueuesDto extends HealthDto {
  queues?: Record<string, QueueDepth>;
}
