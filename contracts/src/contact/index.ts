export * from './contact.schema';
export * from './contact.dto';
