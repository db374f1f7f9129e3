/**
 * The newsletter module: subscribers, their consent and confirmation mail,
 * the links' tokens and unsubscribing. The API and the worker reach the
 * subscribers only through the commands and queries below, never the model
 * (tests: @agency/platform/testing/audience-models).
 */
export * from './confirmation-mail';
export * from './newsletter-token';
export * from './manage-token';
export * from './stored-subscribers';
export * from './subscriber-changes';
export * from './subscriber-commands';
export { hasUnsubscribed, type SubscriberState } from './subscriber-queries';
export {
  UNSUBSCRIBE_METHODS,
  type Subscriber,
  type SubscriberDocument,
  type UnsubscribeMethod,
} from './subscriber.model';
export * from './subscription-request';
export * from './subscription-lists';
export * from './unsubscribe';
export * from './subscriber-erasure';
export { removeUnconfirmedSignups } from './subscriber-retention';
