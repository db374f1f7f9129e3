import { escapeRegExp } from '../list-pages';
import { normalizeEmail } from './email-address';

/*
 * An address as it appears inside other text (a CSV row, a job's data, a
 * server's reply, an activity entry), for erasure: `ann@example.tn` must
 * match "Ann@Example.tn;" but not "joann@example.tn" nor
 * "ann@example.tn.evil". The store's regular expressions (RE2 on FerretDB)
 * have no lookaround, so a query selects candidates with the loose pattern
 * and the code keeps those the exact one matches.
 */

// Characters that extend a local part to the left, or a domain to the right.
const LOCAL_PART_CHAR = "[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]";
const DOMAIN_GOES_ON = '[A-Za-z0-9-]|\\.[A-Za-z0-9]';

/** Any text containing the address (or a longer one that contains it): for store queries. */
export function addressCandidatePattern(address: string): RegExp {
  return new RegExp(escapeRegExp(normalizeEmail(address)), 'i');
}

/** The address itself, not a part of a longer one; `g` for replacing every occurrence. */
export function addressInTextPattern(address: string, flags = 'i'): RegExp {
  const escaped = escapeRegExp(normalizeEmail(address));
  return new RegExp(`(?<!${LOCAL_PART_CHAR})${escaped}(?!${DOMAIN_GOES_ON})`, flags);
}
