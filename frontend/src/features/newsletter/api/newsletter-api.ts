import { API_ROUTES } from '@agency/contracts';
import type {
  NewsletterConfirmResponse,
  NewsletterInput,
  NewsletterSubscribeResponse,
  NewsletterTokenInput,
  NewsletterUnsubscribeResponse,
  Locale,
  PersonDataExportDto,
  PublicListsResponse,
  PreferencesDto,
  PreferenceUpdateInput,
  PrivacyErasureStartedResponse,
  PrivacyLinkCheckInput,
  PrivacyLinkCheckResponse,
  PrivacyLinkRequestInput,
  PrivacyLinkRequestResponse,
  PrivacyLinkUseInput,
} from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../../../lib/save-download';

/**
 * The person's data: the file goes straight to the browser's downloads, and
 * the same records come back for the page to show; an error stays JSON.
 */
async function saveAndRead(response: Response): Promise<unknown> {
  if (!response.ok) return response.json() as Promise<unknown>;
  const data = (await response.clone().json()) as PersonDataExportDto;
  await saveDownload(response, 'my-data');
  return data;
}

/** The newsletter's calls; the body carries the page language, so mail comes in it. */
export const newsletterApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The public lists the sign-up offers, named in the page language. */
    publicLists: build.query<PublicListsResponse, Locale>({
      query: (lang) => ({ url: API_ROUTES.publicLists, params: { lang } }),
    }),
    subscribeNewsletter: build.mutation<NewsletterSubscribeResponse, NewsletterInput>({
      query: (body) => ({ url: API_ROUTES.newsletter, method: 'POST', body }),
      invalidatesTags: ['Subscribers'],
    }),
    /** The preference page's calls: the manage link's token is their only credential. */
    readPreferences: build.mutation<PreferencesDto, NewsletterTokenInput>({
      query: (body) => ({ url: API_ROUTES.preferences, method: 'POST', body }),
    }),
    savePreferences: build.mutation<PreferencesDto, PreferenceUpdateInput>({
      query: (body) => ({ url: API_ROUTES.preferences, method: 'PUT', body }),
      invalidatesTags: ['Subscribers'],
    }),
    unsubscribeEverywhere: build.mutation<PreferencesDto, NewsletterTokenInput>({
      query: (body) => ({ url: API_ROUTES.preferencesUnsubscribe, method: 'POST', body }),
      invalidatesTags: ['Subscribers'],
    }),
    /** Mails the address a download or erasure link; the manage link alone never acts. */
    requestPrivacyLink: build.mutation<PrivacyLinkRequestResponse, PrivacyLinkRequestInput>({
      query: (body) => ({ url: API_ROUTES.preferencesPrivacyLink, method: 'POST', body }),
    }),
    /** The mailed link's page: what the link is for, without spending it. */
    checkPrivacyLink: build.mutation<PrivacyLinkCheckResponse, PrivacyLinkCheckInput>({
      query: (body) => ({ url: API_ROUTES.privacyLinkCheck, method: 'POST', body }),
    }),
    /** The person's data, handed to the browser as the JSON file the API names. */
    downloadMyData: build.mutation<PersonDataExportDto, PrivacyLinkUseInput>({
      query: (body) => ({
        url: API_ROUTES.privacyLinkDownload,
        method: 'POST',
        body,
        responseHandler: saveAndRead,
      }),
    }),
    eraseMyData: build.mutation<PrivacyErasureStartedResponse, PrivacyLinkUseInput>({
      query: (body) => ({ url: API_ROUTES.privacyLinkErasure, method: 'POST', body }),
    }),
    confirmNewsletter: build.mutation<NewsletterConfirmResponse, NewsletterTokenInput>({
      query: (body) => ({ url: API_ROUTES.newsletterConfirm, method: 'POST', body }),
      invalidatesTags: ['Subscribers'],
    }),
    unsubscribeNewsletter: build.mutation<NewsletterUnsubscribeResponse, NewsletterTokenInput>({
      query: (body) => ({ url: API_ROUTES.newsletterUnsubscribe, method: 'POST', body }),
      invalidatesTags: ['Subscribers'],
    }),
  }),
});

export const {
  usePublicListsQuery,
  useReadPreferencesMutation,
  useSavePreferencesMutation,
  useUnsubscribeEverywhereMutation,
  useRequestPrivacyLinkMutation,
  useCheckPrivacyLinkMutation,
  useDownloadMyDataMutation,
  useEraseMyDataMutation,
  useSubscribeNewsletterMutation,
  useConfirmNewsletterMutation,
  useUnsubscribeNewsletterMutation,
} = newsletterApi;
