export * from './queues';
