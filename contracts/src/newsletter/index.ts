export * from './newsletter.dto';
export * from './newsletter.schema';
