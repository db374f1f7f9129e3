import type { ClientDto, ClientInput, ClientListQuery, Page } from '@agency/contracts';
import { HttpError } from '../../errors';
import { equalityFilter, pageOf, searchFilter, skipOf, sortOf } from '../../list-query';
import { ClientModel, type Client } from './client.model';

type StoredClient = Client & { _id: unknown };

const OPTIONAL_FIELDS = ['phone', 'website', 'monthlyBudget', 'industry', 'notes'] as const;

function toClientDto(client: StoredClient): ClientDto {
  return {
    id: String(client._id),
    companyName: client.companyName,
    contactPerson: client.contactPerson,
    email: client.email,
    ...(client.phone ? { phone: client.phone } : {}),
    ...(client.website ? { website: client.website } : {}),
    ...(typeof client.monthlyBudget === 'number' ? { monthlyBudget: client.monthlyBudget } : {}),
    ...(client.industry ? { industry: client.industry as ClientDto['industry'] } : {}),
    status: client.status as ClientDto['status'],
    ...(client.notes ? { notes: client.notes } : {}),
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}

/** The stored fields of an input: absent optional values are removed, not stored empty. */
function changesOf(input: ClientInput) {
  const set: Record<string, unknown> = {
    companyName: input.companyName,
    contactPerson: input.contactPerson,
    email: input.email,
    status: input.status,
  };
  const unset: Record<string, 1> = {};
  for (const field of OPTIONAL_FIELDS) {
    const value = input[field];
    if (value === undefined) unset[field] = 1;
    else set[field] = value;
  }
  return { set, unset };
}

export async function listClients(query: ClientListQuery): Promise<Page<ClientDto>> {
  const filter = {
    ...equalityFilter(query, ['status', 'industry']),
    ...searchFilter(query.search, ['companyName', 'contactPerson', 'email']),
  };
  const [clients, total] = await Promise.all([
    ClientModel.find(filter)
      .sort(sortOf(query.sort))
      .skip(skipOf(query))
      .limit(query.pageSize)
      .lean(),
    ClientModel.countDocuments(filter),
  ]);
  return pageOf(clients.map(toClientDto), total, query);
}

export async function getClient(id: string): Promise<ClientDto> {
  const client = await ClientModel.findById(id).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}

export async function createClient(input: ClientInput): Promise<ClientDto> {
  const client = await ClientModel.create(changesOf(input).set);
  return toClientDto(client.toObject());
}

export async function updateClient(id: string, input: ClientInput): Promise<ClientDto> {
  const { set, unset } = changesOf(input);
  const client = await ClientModel.findByIdAndUpdate(
    id,
    { $set: set, ...(Object.keys(unset).length > 0 && { $unset: unset }) },
    { new: true, runValidators: true },
  ).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}

export async function deleteClient(id: string): Promise<ClientDto> {
  const client = await ClientModel.findByIdAndDelete(id).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}
