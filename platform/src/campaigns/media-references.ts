import type { CampaignStatus, MediaUseDto } from '@agency/contracts';
import { trusted } from 'mongoose';
import { CampaignModel } from './campaign.model';
import { CampaignTemplateModel } from './campaign-template.model';

/**
 * The media library's images a campaign or a template shows, by id: each
 * `/api/media/<id>[-thumb].<ext>` in its HTML, wherever the URL starts
 * (SITE_URL, a CDN) and whichever variant it names.
 */
const MEDIA_FILE_URL = /\/api\/media\/([a-f0-9]{64})(?:-thumb)?\.(?:jpg|png|gif)/g;

export function mediaIdsIn(...htmls: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const html of htmls) {
    for (const match of html.matchAll(MEDIA_FILE_URL)) {
      if (match[1]) ids.add(match[1]);
    }
  }
  return [...ids];
}

/** Where each of these images is used: campaigns and templates, both read through one index each. */
export async function findMediaUses(
  mediaIds: readonly string[],
): Promise<Map<string, MediaUseDto[]>> {
  const uses = new Map<string, MediaUseDto[]>(mediaIds.map((id) => [id, []]));
  if (mediaIds.length === 0) return uses;
  const filter = { mediaIds: trusted({ $in: [...mediaIds] }) };
  const [campaigns, templates] = await Promise.all([
    CampaignModel.find(filter, { name: 1, status: 1, mediaIds: 1 }).lean<
      { _id: unknown; name: string; status: CampaignStatus; mediaIds: string[] }[]
    >(),
    CampaignTemplateModel.find(filter, { name: 1, mediaIds: 1 }).lean<
      { _id: unknown; name: string; mediaIds: string[] }[]
    >(),
  ]);
  const add = (ids: readonly string[], use: MediaUseDto) => {
    for (const id of ids) uses.get(id)?.push(use);
  };
  for (const campaign of campaigns) {
    add(campaign.mediaIds, {
      kind: 'campaign',
      id: String(campaign._id),
      name: campaign.name,
      status: campaign.status,
    });
  }
  for (const template of templates) {
    add(template.mediaIds, { kind: 'template', id: String(template._id), name: template.name });
  }
  return uses;
}
