/** The mail queues' producers and one pass of the outbox relay. */
export * from './mail-queues';
export * from './outbox-relay';
