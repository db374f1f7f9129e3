import type { Locale } from '@agency/contracts';
import { escapeHtml } from './escape-html';
import { link } from './rendered-mail';

const COPY: Record<Locale, { question: string; action: string; manage: string }> = {
  en: {
    question: 'Do not want mail from us at this address?',
    action: 'Unsubscribe',
    manage: 'Manage your subscription',
  },
  fr: {
    question: 'Vous ne souhaitez plus recevoir nos messages à cette adresse ?',
    action: 'Se désabonner',
    manage: 'Gérer votre abonnement',
  },
  ar: {
    question: 'لا تريد تلقي رسائلنا على هذا العنوان؟',
    action: 'إلغاء الاشتراك',
    manage: 'إدارة اشتراكك',
  },
};

/**
 * The visible unsubscribe line that closes every newsletter and campaign mail,
 * next to the List-Unsubscribe headers for mailbox providers; with a manage
 * link, the "Manage your subscription" link beside it.
 */
export function renderUnsubscribeFooter(
  locale: Locale,
  unsubscribeUrl: string,
  manageUrl?: string,
): { text: string; html: string } {
  const { question, action, manage } = COPY[locale];
  const manageText = manageUrl ? `\n${manage}: ${manageUrl}` : '';
  const manageHtml = manageUrl ? ` · ${link(manageUrl, manage)}` : '';
  return {
    text: `--\n${question} ${action}: ${unsubscribeUrl}${manageText}`,
    html: [
      '<hr>',
      `<p style="font-size:12px;color:#6b7280">${escapeHtml(question)} ${link(unsubscribeUrl, action)}${manageHtml}</p>`,
    ].join('\n'),
  };
}
