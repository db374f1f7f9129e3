/**
 * The impact block is fixed French copy in the spec (its heading reads
 * 'NOTRE IMPACT MESURABLE'); it is not part of the translations.
 */
export const IMPACT_TITLE = 'NOTRE IMPACT MESURABLE';
export const IMPACT_SUBTITLE = 'Performance Data-Driven';
export const IMPACT_INTRO =
  'Des résultats concrets, mesurés chaque mois et partagés en toute transparence avec nos clients.';

export interface ImpactMetric {
  id: 'companies' | 'satisfaction' | 'campaigns' | 'growth';
  /** The counter's final value; a decimal target keeps one decimal while counting. */
  number: number;
  suffix: string;
  label: string;
  description: string;
}

/** Spec 9: 150+ digitalised companies, 4.8/5 satisfaction, 320+ campaigns, 2.5x growth. */
export const IMPACT_METRICS: readonly ImpactMetric[] = [
  {
    id: 'companies',
    number: 150,
    suffix: '+',
    label: 'Entreprises digitalisées',
    description: 'Des PME aux marques établies, accompagnées dans leur transformation digitale.',
  },
  {
    id: 'satisfaction',
    number: 4.8,
    suffix: '/5',
    label: 'Satisfaction client',
    description: 'La note moyenne que nous donnent nos clients chaque année.',
  },
  {
    id: 'campaigns',
    number: 320,
    suffix: '+',
    label: 'Campagnes réalisées',
    description: 'Sur Meta, Google, TikTok et LinkedIn, optimisées semaine après semaine.',
  },
  {
    id: 'growth',
    number: 2.5,
    suffix: 'x',
    label: 'Croissance moyenne',
    description: 'Le chiffre d’affaires en ligne de nos clients après un an avec nous.',
  },
];

export interface ImpactService {
  id: string;
  title: string;
  description: string;
  gradient: string;
}

/** Spec 9: four service cards. */
export const IMPACT_SERVICES: readonly ImpactService[] = [
  {
    id: 'ads',
    title: 'Publicité ciblée',
    description: 'Des campagnes Meta et Google pilotées par la donnée pour chaque dinar investi.',
    gradient: 'linear-gradient(135deg, #5b21b6, #be185d)',
  },
  {
    id: 'content',
    title: 'Contenu qui engage',
    description: 'Visuels, vidéos et textes pensés pour votre audience et vos objectifs.',
    gradient: 'linear-gradient(135deg, #0369a1, #4338ca)',
  },
  {
    id: 'web',
    title: 'Sites qui convertissent',
    description: 'Des sites rapides et des pages d’atterrissage optimisées pour la conversion.',
    gradient: 'linear-gradient(135deg, #047857, #0369a1)',
  },
  {
    id: 'analytics',
    title: 'Analyse et optimisation',
    description: 'Des tableaux de bord clairs et des tests continus pour améliorer vos résultats.',
    gradient: 'linear-gradient(135deg, #b45309, #b91c1c)',
  },
];
