import { Feed } from 'feed';
import type { ArchiveCampaignDto, Locale } from '@agency/contracts';
import { archiveFeedPath, archivePath, originOf } from './archive-addresses';
import { ARCHIVE_TEXTS } from './archive-texts';

const ATOM_ROOT = '<feed xmlns="http://www.w3.org/2005/Atom">';

/**
 * The archive's Atom feed in one language, newest first. Written with the
 * `feed` package, which escapes titles and wraps the HTML content as Atom wants.
 */
export function archiveAtomFeed(
  locale: Locale,
  campaigns: ArchiveCampaignDto[],
  siteUrl: string,
): string {
  const origin = originOf(siteUrl);
  const texts = ARCHIVE_TEXTS[locale];
  const feed = new Feed({
    id: `${origin}${archivePath(locale)}`,
    link: `${origin}${archivePath(locale)}`,
    title: texts.title,
    description: texts.description,
    copyright: '',
    updated: campaigns[0] ? new Date(campaigns[0].sentAt) : new Date(0),
    feedLinks: { atom: `${origin}${archiveFeedPath(locale)}` },
  });
  for (const campaign of campaigns) {
    const link = `${origin}${archivePath(locale, campaign.id)}`;
    feed.addItem({
      id: link,
      link,
      title: campaign.subject,
      date: new Date(campaign.sentAt),
      description: campaign.summary,
      content: campaign.html,
    });
  }
  // The package writes the language into RSS only; Atom says it with xml:lang on its root.
  return feed.atom1().replace(ATOM_ROOT, `${ATOM_ROOT.slice(0, -1)} xml:lang="${locale}">`);
}
