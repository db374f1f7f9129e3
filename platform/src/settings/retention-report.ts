import { Schema, model } from 'mongoose';
import type { RetentionReportDto } from '@agency/contracts';

/** The last retention pass's report: one small document, replaced by each pass. */
const retentionReportSchema = new Schema(
  {
    _id: { type: String, required: true },
    ranAt: { type: Date, required: true },
    unconfirmedSignups: { type: Number, required: true },
    anonymisedEnquiries: { type: Number, required: true },
    activityEntries: { type: Number, required: true },
  },
  { versionKey: false },
);

const RetentionReportModel = model('RetentionReport', retentionReportSchema, 'retentionreports');
const LAST_REPORT_ID = 'last';

export type RetentionCounts = Omit<RetentionReportDto, 'ranAt'>;

/** Keeps what a pass removed, for the settings screen. */
export async function saveRetentionReport(ranAt: Date, counts: RetentionCounts): Promise<void> {
  await RetentionReportModel.replaceOne(
    { _id: LAST_REPORT_ID },
    { _id: LAST_REPORT_ID, ranAt, ...counts },
    { upsert: true },
  );
}

/** What the last pass removed; null before the first one. */
export async function readRetentionReport(): Promise<RetentionReportDto | null> {
  const report = await RetentionReportModel.findById(LAST_REPORT_ID).lean();
  if (!report) return null;
  return {
    ranAt: report.ranAt.toISOString(),
    unconfirmedSignups: report.unconfirmedSignups,
    anonymisedEnquiries: report.anonymisedEnquiries,
    activityEntries: report.activityEntries,
  };
}
