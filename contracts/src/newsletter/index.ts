export * from './newsletter.dto';
export * from './newsletter.schema';
export * from './archive.dto';
export * from './preferences';
export * from './privacy-requests';
