/** What every mail shares: its HTML frame and footer, its identity, the mail server's state. */
export * from './escape-html';
export * from './rendered-mail';
export * from './mail-server-state';
export * from './unsubscribe-footer.template';
export * from './email-address';
export * from './mail-identity';
export * from './address-in-text';
