export * from './locales';
export * from './services';
export * from './roles';
export * from './validation';
export * from './contact';
export * from './errors';
export * from './health';
export * from './mail';
