import type { CampaignAudienceDto, EnquiryLawfulBasis, RecipientType } from '@agency/contracts';

/** The recipient types that hold enquiry contacts, whom consent or a lawful basis lets in. */
export const mailsEnquiries = (type: RecipientType): type is 'contacts' | 'all' =>
  type === 'contacts' || type === 'all';

/**
 * How many a send of this type would mail now: the count of those who
 * consented, plus, under a lawful basis, the enquiry contacts it lets in
 * (the API counts both by the walk the send makes).
 */
export function audienceReach(
  audience: CampaignAudienceDto,
  type: RecipientType,
  basis: EnquiryLawfulBasis | null | '',
): number {
  if (!mailsEnquiries(type) || !basis) return audience[type];
  return audience[type] + audience.withoutConsent[type];
}
