export * from './newsletter.dto';
