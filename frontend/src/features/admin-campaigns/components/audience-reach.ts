import {
  reachesEnquiries,
  type CampaignAudienceDto,
  type EnquiryLawfulBasis,
  type RecipientType,
} from '@agency/contracts';

/**
 * How many a send of this type would mail now: the count of those who
 * consented, plus, under a lawful basis, the enquiry contacts it lets in
 * (the API counts both as the send reads the store).
 */
export function audienceReach(
  audience: CampaignAudienceDto,
  type: RecipientType,
  basis: EnquiryLawfulBasis | null | '',
): number {
  if (!reachesEnquiries(type) || !basis) return audience[type];
  return audience[type] + audience.withoutConsent[type];
}
