/**
 * What the API and the worker share, and nothing of HTTP: settings helpers,
 * the logger, the MongoDB and Redis connections, the models both write, the
 * mail outbox and the enquiries' and subscribers' mail state, the queue
 * producers and the outbox relay, the campaign models, keys and lock, and the
 * dashboard's kept figures with their reconciliation.
 */
export * from './config';
export * from './logger';
export * from './db';
export * from './timeout';
export * from './shutdown';
export * from './database-errors';
export * from './domain-error';
export * from './list-pages';
export * from './batched-writes';
export * from './embedded-store';
export * from './redis-connection';
export * from './queues/mail-queues';
export * from './queues/outbox-relay';
export * from './contact/contact.model';
export * from './contact/contact-address.model';
export * from './contact/contact-addresses';
export * from './contact/contact-mail-state';
export * from './contact/contact-changes';
export * from './contact/contact-search';
export * from './contact/contact-index-sets';
export * from './contact/stored-contacts';
export * from './newsletter/subscriber.model';
export * from './newsletter/newsletter-token';
export * from './newsletter/confirmation-mail';
export * from './newsletter/subscriber-changes';
export * from './newsletter/stored-subscribers';
export * from './mail-outbox/owed-mail.model';
export * from './mail-outbox/mail-receipt.model';
export * from './mail-outbox/mail-outbox.service';
export * from './campaigns';
export * from './mail/escape-html';
export * from './mail/rendered-mail';
export * from './mail/mail-server-state';
export * from './mail/unsubscribe-footer.template';
export * from './newsletter/subscription-request';
export * from './users/user.model';
export * from './users/user-lookup';
export * from './password-reset/password-reset.model';
export * from './password-reset/password-reset.service';
export * from './password-reset/password-reset-token';
export * from './newsletter/unsubscribe';
export * from './mail/email-address';
export * from './mail/mail-identity';
export * from './audience/mail-event-origin';
export * from './audience/mailing-list.model';
export * from './audience/list-member.model';
export * from './audience/suppression.model';
export * from './audience/suppression.service';
export * from './audience/mail-event.model';
export * from './audience/mail-events.service';
export * from './audience/list-import.model';
export * from './audience/list-import-records';
export * from './audience/audience';
export * from './audience/list-deletion';
export * from './audience/list-existence';
export * from './audience/import-file';
export * from './stats/kept-counts';
export * from './stats/stats-reconciliation';
export * from './settings/agency-settings.service';
