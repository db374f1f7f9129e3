/** Saved rules over the people view, their counts and the people a campaign to them mails. */
export * from './segment-filter';
export * from './segment-people';
export * from './segment-store';
export { SegmentModel, type StoredSegment } from './segment.model';
