// The module's surface without HTTP: what the worker may reach through src/store.ts.
export { countConfirmedSubscribers } from './newsletter.service';
export { SubscriberModel, type Subscriber, type SubscriberDocument } from './subscriber.model';
