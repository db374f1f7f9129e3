import type { CampaignDto, CampaignReportDto } from '@agency/contracts';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo } from 'react';
import { useFormatters } from '../../../../lib/use-formatters';
import { useNamespace } from '../../../../lib/translations';
import { useCampaignQuery } from '../../api/campaign-report-api';
import { usePreviewCampaignMutation } from '../../api/campaigns-api';
import { REPORT_NAMESPACE } from '../../report-namespace';
import { ReportSection } from './report-section';
import { clickShare } from './report-tables';

/** An address as the browser writes it, so `https://a.test` and `https://a.test/` meet. */
function normalisedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Each link address's share of people's clicks (a link listed twice adds up). */
export function sharesByUrl(links: CampaignReportDto['links']): Map<string, number> {
  const all = links.reduce((sum, link) => sum + link.people.total, 0);
  const totals = new Map<string, number>();
  for (const link of links) {
    const url = normalisedUrl(link.url);
    totals.set(url, (totals.get(url) ?? 0) + link.people.total);
  }
  return new Map([...totals].map(([url, total]) => [url, clickShare(total, all) ?? 0] as const));
}

// High contrast (white on near black, 15:1) so a badge reads over any mail's colours.
const BADGE_STYLE =
  'display:inline-block;margin-inline-start:4px;padding:1px 6px;border-radius:10px;' +
  'background:#1a1a2e;color:#ffffff;font:700 12px/1.5 sans-serif;vertical-align:middle;';

/**
 * The mail's HTML with a badge after each tracked link: its share of
 * people's clicks. Parsed and written back by the browser, never by string
 * surgery, so a link's text or attributes cannot break out of the badge.
 */
export function withClickBadges(
  html: string,
  shares: Map<string, number>,
  label: (share: number) => string,
): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  for (const anchor of document.querySelectorAll('a[href]')) {
    const share = shares.get(normalisedUrl(anchor.getAttribute('href') ?? ''));
    if (share === undefined) continue;
    const badge = document.createElement('span');
    badge.setAttribute('style', BADGE_STYLE);
    badge.setAttribute('data-click-share', '');
    badge.textContent = label(share);
    anchor.after(badge);
  }
  return `<!doctype html>${document.documentElement.outerHTML}`;
}

/** The campaign's preview as the API renders it, in its default language. */
function usePreview(campaign: CampaignDto | undefined) {
  const [preview, { data, isError }] = usePreviewCampaignMutation();
  useEffect(() => {
    if (!campaign) return;
    void preview({
      subject: campaign.subject,
      content: campaign.content,
      locale: campaign.defaultLocale,
      templateId: campaign.templateId,
      placeholderFallbacks: campaign.placeholderFallbacks,
    });
  }, [campaign, preview]);
  return { data, isError };
}

/**
 * The click map: the campaign's mail with each tracked link's share of
 * people's clicks drawn beside it. The frame runs no script; it takes the
 * keyboard's focus and scrolls like the mail. Screen readers get the same
 * figures in the links table (its share column).
 */
export function ClickMap({ id, links }: { id: string; links: CampaignReportDto['links'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const { data: campaign } = useCampaignQuery(id);
  const { data: preview, isError } = usePreview(campaign);
  const html = useMemo(
    () =>
      preview
        ? withClickBadges(preview.html, sharesByUrl(links), (share) =>
            t('percent', { value: format.number(share) }),
          )
        : null,
    [preview, links, t, format],
  );
  return (
    <ReportSection title={t('clickMap.title')} hint={t('clickMap.hint')}>
      {html ? (
        <Box
          component="iframe"
          title={t('clickMap.frame')}
          srcDoc={html}
          sandbox=""
          sx={{
            display: 'block',
            width: '100%',
            height: 560,
            mt: 2,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: '#fff',
          }}
        />
      ) : null}
      {!html && isError ? (
        <Typography sx={{ mt: 2, color: 'text.secondary' }}>{t('clickMap.failed')}</Typography>
      ) : null}
      {!html && !isError ? (
        <Skeleton variant="rounded" height={320} sx={{ mt: 2 }} aria-busy />
      ) : null}
    </ReportSection>
  );
}
