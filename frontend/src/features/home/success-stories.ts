/**
 * 'Nos Succès': fixed French copy in the spec, not part of the translations.
 * Six client testimonials with the years each client has worked with us.
 */
export const SUCCESS_TITLE = 'Nos Succès';
export const SUCCESS_SUBTITLE =
  '5 années d’expérience, des témoignages authentiques de nos clients satisfaits';
export const SUCCESS_CTA = 'Discutons de votre projet';

export interface SuccessStory {
  id: string;
  message: string;
  /** The client's role title, shown instead of a name. */
  role: string;
  /** Year range of the collaboration (spec 9: starting 2019 to 2022, ending 2024). */
  period: string;
}

export const SUCCESS_STORIES: readonly SuccessStory[] = [
  {
    id: 'restaurant',
    message:
      'Nos réservations en ligne ont triplé en une saison. Chaque campagne est expliquée, chaque résultat mesuré.',
    role: 'Gérant de restaurant',
    period: '2019 - 2024',
  },
  {
    id: 'fashion',
    message:
      'Notre boutique en ligne vend maintenant dans tout le pays grâce aux publicités Instagram et au retargeting.',
    role: 'Fondatrice d’une marque de mode',
    period: '2020 - 2024',
  },
  {
    id: 'clinic',
    message:
      'Un site clair, un référencement local soigné : les nouveaux patients nous trouvent enfin sur Google.',
    role: 'Directeur de clinique',
    period: '2020 - 2024',
  },
  {
    id: 'realestate',
    message:
      'Des prospects qualifiés chaque semaine et un coût par contact divisé par deux en six mois.',
    role: 'Responsable commercial immobilier',
    period: '2021 - 2024',
  },
  {
    id: 'startup',
    message:
      'De l’identité de marque au lancement, une équipe réactive qui comprend les contraintes d’une start-up.',
    role: 'Cofondateur de start-up',
    period: '2021 - 2024',
  },
  {
    id: 'hotel',
    message:
      'Nos réseaux sociaux sont devenus notre premier canal de réservation directe, sans commission.',
    role: 'Directrice d’hôtel',
    period: '2022 - 2024',
  },
];
