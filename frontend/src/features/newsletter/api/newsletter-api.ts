import { API_ROUTES } from '@agency/contracts';
import type {
  NewsletterConfirmResponse,
  NewsletterInput,
  NewsletterSubscribeResponse,
  NewsletterTokenInput,
  NewsletterUnsubscribeResponse,
  Locale,
  PublicListsResponse,
  PreferencesDto,
  PreferenceUpdateInput,
} from '@agency/contracts';
import { api } from '../../../lib/api';

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
  useSubscribeNewsletterMutation,
  useConfirmNewsletterMutation,
  useUnsubscribeNewsletterMutation,
} = newsletterApi;
