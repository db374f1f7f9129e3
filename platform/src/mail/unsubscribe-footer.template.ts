import type { Locale } from '@agency/contracts';
import { escapeHtml } from './escape-html';
import { link } from './rendered-mail';

const COPY: Record<Locale, { question: string; action: string }> = {
  en: { question: 'Do not want mail from us at this address?', action: 'Unsubscribe' },
  fr: {
    question: 'Vous ne souhaitez plus recevoir nos messages à cette adresse ?',
    action: 'Se désabonner',
  },
  ar: { question: 'لا تريد تلقي رسائلنا على هذا العنوان؟', action: 'إلغاء الاشتراك' },
};

/**
 * The visible unsubscribe line that closes every newsletter and campaign mail,
 * next to the List-Unsubscribe headers for mailbox providers.
 */
export function renderUnsubscribeFooter(
  locale: Locale,
  unsubscribeUrl: string,
): { text: string; html: string } {
  const { question, action } = COPY[locale];
  return {
    text: `--\n${question} ${action}: ${unsubscribeUrl}`,
    html: [
      '<hr>',
      `<p style="font-size:12px;color:#6b7280">${escapeHtml(question)} ${link(unsubscribeUrl, action)}</p>`,
    ].join('\n'),
  };
}
