/**
 * The impact block ('NOTRE IMPACT MESURABLE' in French): its figures here,
 * its words in the `home-sections` catalogues under `impact`.
 */
export interface ImpactMetric {
  id: 'companies' | 'satisfaction' | 'campaigns' | 'growth';
  /** The counter's final value; a decimal target keeps one decimal while counting. */
  number: number;
  suffix: string;
}

/** Spec 9: 150+ digitalised companies, 4.8/5 satisfaction, 320+ campaigns, 2.5x growth. */
export const IMPACT_METRICS: readonly ImpactMetric[] = [
  { id: 'companies', number: 150, suffix: '+' },
  { id: 'satisfaction', number: 4.8, suffix: '/5' },
  { id: 'campaigns', number: 320, suffix: '+' },
  { id: 'growth', number: 2.5, suffix: 'x' },
];

export interface ImpactService {
  id: 'ads' | 'content' | 'web' | 'analytics';
  gradient: string;
}

/** Spec 9: four service cards. */
export const IMPACT_SERVICES: readonly ImpactService[] = [
  { id: 'ads', gradient: 'linear-gradient(135deg, #5b21b6, #be185d)' },
  { id: 'content', gradient: 'linear-gradient(135deg, #0369a1, #4338ca)' },
  { id: 'web', gradient: 'linear-gradient(135deg, #047857, #0369a1)' },
  { id: 'analytics', gradient: 'linear-gradient(135deg, #b45309, #b91c1c)' },
];
