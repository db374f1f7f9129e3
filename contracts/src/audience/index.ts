export * from './lists';
export * from './imports';
export * from './suppressions';
export * from './mail-events';
export * from './people';
export * from './person-data';
export * from './segments';
