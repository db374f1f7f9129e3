export type ServiceStatus = 'up' | 'down';

export interface HealthDto {
  status: 'ok' | 'degraded';
  services: { mongodb: ServiceStatus; redis: ServiceStatus };
}
