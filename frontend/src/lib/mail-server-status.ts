import { API_ROUTES, type HealthWithQueuesDto } from '@agency/contracts';
import { api } from './api';

/**
 * How often the admin pages ask whether the worker can reach the SMTP
 * server: an outage shows within this (the worker notes it at the first
 * send that fails to connect). An object, so that tests can shorten it.
 */
export const mailServerPolling = { intervalMs: 10_000 };

const mailServerApi = api.injectEndpoints({
  endpoints: (build) => ({
    health: build.query<HealthWithQueuesDto, undefined>({ query: () => API_ROUTES.health }),
  }),
});

/**
 * Since when the mail server cannot be reached (ISO time), or null while it
 * can, or while the health answer is missing (it says nothing then). Shared
 * by the shell's banner and the campaigns' rows: one request per poll.
 */
export function useMailServerOutage(): { since: string } | null {
  const { data } = mailServerApi.useHealthQuery(undefined, {
    pollingInterval: mailServerPolling.intervalMs,
    skipPollingIfUnfocused: false,
  });
  return data?.smtp?.status === 'unreachable' ? { since: data.smtp.since } : null;
}
