import type { PersonDataExportDto } from '@agency/contracts';
import { trusted } from 'mongoose';
import { addressCandidatePattern, addressInTextPattern } from '../mail/address-in-text';
import { ImportReportModel, ListImportModel } from './list-import.model';
import { removeMemberFromList } from './list-member-commands';
import { ListMemberModel } from './list-member.model';
import { MailEventModel } from './mail-event.model';
import { MailingListModel } from './mailing-list.model';
import { SuppressionModel } from './suppression.model';

/*
 * What the audience module holds of one address (its normalised `key`), for
 * the person's data download and their erasure: list memberships, mail
 * events, the suppression entry and the import reports' lines.
 */

const iso = (value: Date | null | undefined): string | null => (value ? value.toISOString() : null);

export async function findListMembershipsOf(
  key: string,
): Promise<PersonDataExportDto['listMemberships']> {
  const members = await ListMemberModel.find({ key }).lean();
  const lists = await MailingListModel.find(
    { _id: trusted({ $in: members.map(({ list }) => list) }) },
    { name: 1 },
  ).lean();
  const names = new Map(lists.map(({ _id, name }) => [String(_id), name]));
  return members.map((member) => ({
    list: {
      id: String(member.list),
      name: names.get(String(member.list)) ?? member.consent.listName,
    },
    email: member.email,
    firstName: member.firstName ?? '',
    lastName: member.lastName ?? '',
    locale: member.locale ?? 'en',
    tags: member.tags ?? [],
    consent: {
      basis: member.consent.basis,
      at: iso(member.consent.at),
      by: member.consent.byName ?? null,
      file: member.consent.file ?? null,
    },
    createdAt: member.createdAt.toISOString(),
  }));
}

export async function findMailEventsOf(key: string): Promise<PersonDataExportDto['mailEvents']> {
  const events = await MailEventModel.find({ key }).sort({ at: -1 }).lean();
  return events.map((event) => ({
    kind: event.kind,
    provider: event.provider,
    campaign: event.campaign ? String(event.campaign) : null,
    detail: event.detail ?? null,
    at: event.at.toISOString(),
  }));
}

export async function findSuppressionOf(key: string): Promise<PersonDataExportDto['suppression']> {
  const entry = await SuppressionModel.findById(key).lean();
  if (!entry) return null;
  return {
    reason: entry.reason,
    source: entry.source,
    at: entry.at.toISOString(),
    detail: entry.detail ?? null,
  };
}

/**
 * Takes the address off every list, one membership at a time through the
 * list command, so each list's count loses exactly the member it lost; a
 * membership already gone (a step run again after a crash) changes nothing.
 */
export async function eraseListMembershipsOf(key: string): Promise<number> {
  const members = await ListMemberModel.find({ key }, { list: 1 }).lean();
  let removed = 0;
  for (const { list } of members) {
    if (await removeMemberFromList(String(list), key)) removed += 1;
  }
  return removed;
}

export async function eraseMailEventsOf(key: string): Promise<number> {
  const { deletedCount } = await MailEventModel.deleteMany({ key });
  return deletedCount;
}

/**
 * The plain entry goes: the erasure's keyed digest (privacy module) keeps
 * the address out of imports and staff additions from now on.
 */
export async function eraseSuppressionOf(key: string): Promise<void> {
  await SuppressionModel.deleteOne({ _id: key });
}

/**
 * Import reports quote the rows they skipped, the address with them: each
 * such line keeps its row number and reason, its text replaced by `token`.
 */
export async function scrubImportReportsOf(key: string, token: string): Promise<number> {
  const pattern = addressInTextPattern(key);
  const reports = await ImportReportModel.find({
    'lines.value': trusted({ $regex: addressCandidatePattern(key) }),
  }).lean();
  let changed = 0;
  for (const report of reports) {
    if (!report.lines.some((line) => pattern.test(line.value ?? ''))) continue;
    const lines = report.lines.map((line) =>
      pattern.test(line.value ?? '') ? { ...line, value: token } : line,
    );
    await ImportReportModel.updateOne({ _id: report._id }, { $set: { lines } });
    changed += 1;
  }
  return changed;
}

/** Replaces each preview cell `replacement` names (an erased address) by what it answers. */
async function rewritePreview(
  stored: { _id: unknown; preview: { cells: string[] }[] },
  replacement: (cell: string) => string | undefined,
): Promise<boolean> {
  let changed = false;
  const preview = stored.preview.map(({ cells }) => ({
    cells: cells.map((cell) => {
      const replaced = replacement(cell);
      if (replaced === undefined) return cell;
      changed = true;
      return replaced;
    }),
  }));
  if (changed) await ListImportModel.updateOne({ _id: stored._id }, { $set: { preview } });
  return changed;
}

/**
 * An import's record keeps the first rows of its file as a preview (for the
 * column mapping): an erased address in them becomes `token`.
 */
export async function scrubImportPreviewsOf(key: string, token: string): Promise<number> {
  const pattern = addressInTextPattern(key);
  const imports = await ListImportModel.find(
    { 'preview.cells': trusted({ $regex: addressCandidatePattern(key) }) },
    { preview: 1 },
  ).lean();
  let changed = 0;
  for (const stored of imports) {
    if (await rewritePreview(stored, (cell) => (pattern.test(cell) ? token : undefined))) {
      changed += 1;
    }
  }
  return changed;
}

/**
 * At the end of an import, its preview loses the addresses erased before
 * it ran: staff may upload an old file, and the import skips them, so its
 * record must not keep them either. `erasedToken` answers what replaces a
 * cell that is an erased address.
 */
export async function scrubErasedFromImportPreview(
  importId: string,
  erasedToken: (cell: string) => string | undefined,
): Promise<void> {
  const stored = await ListImportModel.findById(importId, { preview: 1 }).lean();
  if (stored) await rewritePreview(stored, erasedToken);
}
