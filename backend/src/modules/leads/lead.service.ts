import type { ContactDto, LeadDto, LeadInput, LeadListQuery, Page } from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  equalityFilter,
  pageOf,
  searchFilter,
  findPage,
  findUserById,
  findUsernamesByIds,
} from '@agency/platform';
import { recordChanges } from '../../record-changes';
import { LeadModel, type Lead } from './lead.model';

type StoredLead = Lead & { _id: unknown };

function toLeadDto(lead: StoredLead, names: Map<string, string>): LeadDto {
  const assigneeId = lead.assigneeId ? String(lead.assigneeId) : null;
  return {
    id: String(lead._id),
    name: lead.name,
    ...(lead.email ? { email: lead.email } : {}),
    ...(lead.phone ? { phone: lead.phone } : {}),
    ...(lead.company ? { company: lead.company } : {}),
    source: lead.source as LeadDto['source'],
    status: lead.status as LeadDto['status'],
    ...(typeof lead.estimatedValue === 'number' ? { estimatedValue: lead.estimatedValue } : {}),
    ...(lead.notes ? { notes: lead.notes } : {}),
    assignee: assigneeId ? { id: assigneeId, username: names.get(assigneeId) ?? '' } : null,
    contactId: lead.contactId ? String(lead.contactId) : null,
    createdAt: lead.createdAt.toISOString(),
    updatedAt: lead.updatedAt.toISOString(),
  };
}

async function toLeadDtos(leads: StoredLead[]): Promise<LeadDto[]> {
  const ids = leads.flatMap((lead) => (lead.assigneeId ? [String(lead.assigneeId)] : []));
  const names = await findUsernamesByIds(ids);
  return leads.map((lead) => toLeadDto(lead, names));
}

async function toOneLeadDto(lead: StoredLead): Promise<LeadDto> {
  const [dto] = await toLeadDtos([lead]);
  if (!dto) throw new Error('lead mapping lost its only lead');
  return dto;
}

async function assertAssigneeExists(assigneeId: string | undefined): Promise<void> {
  if (assigneeId && !(await findUserById(assigneeId))) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      assigneeId: 'No user with this id',
    });
  }
}

const OPTIONAL_FIELDS = [
  'email',
  'phone',
  'company',
  'estimatedValue',
  'notes',
  'assigneeId',
] as const;

export async function listLeads(query: LeadListQuery): Promise<Page<LeadDto>> {
  const filter = {
    ...equalityFilter(query, ['status', 'source', 'assigneeId']),
    ...searchFilter(query.search, ['name', 'email', 'company']),
  };
  const { docs: leads, total } = await findPage(LeadModel, filter, query);
  return pageOf(await toLeadDtos(leads), total, query);
}

export async function getLead(id: string): Promise<LeadDto> {
  const lead = await LeadModel.findById(id).lean();
  if (!lead) throw new HttpError('NOT_FOUND', 'No lead with this id');
  return toOneLeadDto(lead);
}

export async function createLead(input: LeadInput): Promise<LeadDto> {
  await assertAssigneeExists(input.assigneeId);
  const lead = await LeadModel.create(recordChanges(input, OPTIONAL_FIELDS).create);
  return toOneLeadDto(lead.toObject());
}

export async function updateLead(id: string, input: LeadInput): Promise<LeadDto> {
  await assertAssigneeExists(input.assigneeId);
  const lead = await LeadModel.findByIdAndUpdate(id, recordChanges(input, OPTIONAL_FIELDS).update, {
    returnDocument: 'after',
    runValidators: true,
  }).lean();
  if (!lead) throw new HttpError('NOT_FOUND', 'No lead with this id');
  return toOneLeadDto(lead);
}

export async function deleteLead(id: string): Promise<LeadDto> {
  const lead = await LeadModel.findByIdAndDelete(id).lean();
  if (!lead) throw new HttpError('NOT_FOUND', 'No lead with this id');
  return toOneLeadDto(lead);
}

/**
 * Turns an enquiry into a lead that keeps the link to it. An enquiry is
 * converted once: a second conversion is a conflict naming the lead.
 */
export async function createLeadFromContact(contact: ContactDto): Promise<LeadDto> {
  const existing = await LeadModel.findOne({ contactId: contact.id }).select({ _id: 1 }).lean();
  if (existing) {
    throw new HttpError('CONFLICT', `This enquiry is already lead ${String(existing._id)}`);
  }
  const lead = await LeadModel.create({
    name: `${contact.firstName} ${contact.lastName}`.trim(),
    email: contact.email,
    ...(contact.phone ? { phone: contact.phone } : {}),
    source: 'enquiry',
    status: 'new',
    notes: contact.message,
    contactId: contact.id,
  });
  return toOneLeadDto(lead.toObject());
}
