/**
 * The three packs, in the fixed French copy the spec gives them. Prices are
 * always a custom quote, so there is no price field.
 */
export interface Package {
  id: 'croissance' | 'performance' | 'excellence';
  name: string;
  description: string;
  features: readonly string[];
  popular: boolean;
}

export const PACKAGE_PRICE_LABEL = 'Devis sur mesure';

export const PACKAGES: readonly Package[] = [
  {
    id: 'croissance',
    name: 'Pack Croissance',
    description: 'Pour les petites entreprises qui veulent une présence régulière en ligne.',
    features: [
      '2 réseaux sociaux (Facebook, Instagram)',
      '10 visuels et 2 vidéos par mois',
      '2 campagnes Meta Ads (budget publicitaire non inclus)',
      'SEO local via votre fiche d’établissement',
      'Rapport mensuel simple',
    ],
    popular: false,
  },
  {
    id: 'performance',
    name: 'Pack Performance',
    description: 'Pour accélérer l’acquisition avec des campagnes optimisées.',
    features: [
      '3 réseaux sociaux (Facebook, Instagram, TikTok ou LinkedIn)',
      '15 visuels et 5 vidéos par mois',
      '4 campagnes Meta/Google Ads avec retargeting et audiences similaires',
      'Landing pages optimisées pour la conversion',
      'SEO avancé',
      'Rapport détaillé avec recommandations mensuelles',
    ],
    popular: true,
  },
  {
    id: 'excellence',
    name: 'Pack Excellence',
    description: 'Pour les marques ambitieuses qui veulent un accompagnement complet.',
    features: [
      'Facebook, Instagram, TikTok et LinkedIn',
      '25 visuels et 10 vidéos professionnelles par mois',
      'Stratégie e-commerce et tunnels de vente',
      '6+ campagnes (Meta, Google, TikTok) avec tests A/B',
      'SEO, blogging et e-mail marketing automatisé',
      'Reporting hebdomadaire et conseil stratégique',
      'Support prioritaire',
    ],
    popular: false,
  },
];
