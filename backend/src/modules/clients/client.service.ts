import type { ClientDto, ClientInput, ClientListQuery, Page } from '@agency/contracts';
import { HttpError } from '../../errors';
import { equalityFilter, pageOf, searchFilter, findPage } from '@agency/platform';
import { recordChanges } from '../../record-changes';
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

export async function listClients(query: ClientListQuery): Promise<Page<ClientDto>> {
  const filter = {
    ...equalityFilter(query, ['status', 'industry']),
    ...searchFilter(query.search, ['companyName', 'contactPerson', 'email']),
  };
  const { docs: clients, total } = await findPage(ClientModel, filter, query);
  return pageOf(clients.map(toClientDto), total, query);
}

export async function getClient(id: string): Promise<ClientDto> {
  const client = await ClientModel.findById(id).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}

export async function createClient(input: ClientInput): Promise<ClientDto> {
  const client = await ClientModel.create(recordChanges(input, OPTIONAL_FIELDS).create);
  return toClientDto(client.toObject());
}

export async function updateClient(id: string, input: ClientInput): Promise<ClientDto> {
  const client = await ClientModel.findByIdAndUpdate(
    id,
    recordChanges(input, OPTIONAL_FIELDS).update,
    { returnDocument: 'after', runValidators: true },
  ).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}

export async function deleteClient(id: string): Promise<ClientDto> {
  const client = await ClientModel.findByIdAndDelete(id).lean();
  if (!client) throw new HttpError('NOT_FOUND', 'No client with this id');
  return toClientDto(client);
}
