/**
 * The agency's public contact points: the contact section, the contact page,
 * the thank-you page and the structured data search engines read
 * (app/seo/structured-data.ts) all take them from here. The phone number is
 * the spec's Polish-format placeholder. The office's and the hours' wording
 * on the page is translated (the contact catalogues); these are the facts.
 */
export const CONTACT_DETAILS = {
  email: 'contact@agency.example',
  phone: '+48 123 456 789',
  phoneHref: 'tel:+48123456789',
  chatUrl: 'https://wa.me/48123456789',
  office: { locality: 'Tunis', countryCode: 'TN' },
  /** Spec 3: weekdays 9:00 AM - 6:00 PM, Saturday 10:00 AM - 4:00 PM, Sunday closed. */
  openingHours: [
    {
      days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '09:00',
      closes: '18:00',
    },
    { days: ['Saturday'], opens: '10:00', closes: '16:00' },
  ],
} as const;
