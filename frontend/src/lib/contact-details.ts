/**
 * The agency's public contact points, shown on the contact section, the contact
 * page and the thank-you page. The phone number is the spec's Polish-format placeholder.
 */
export const CONTACT_DETAILS = {
  email: 'contact@agency.example',
  phone: '+48 123 456 789',
  phoneHref: 'tel:+48123456789',
  chatUrl: 'https://wa.me/48123456789',
} as const;
