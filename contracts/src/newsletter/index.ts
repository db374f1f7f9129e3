export * from './newsletter.dto';
export * from './newsletter.schema';
export * from './preferences';
