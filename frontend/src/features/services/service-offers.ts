/** The services page copy: fixed French text in the spec, not part of the translations. */
export interface ServiceOffer {
  id: string;
  title: string;
  problem: string;
  approach: readonly [string, string, string];
  results: string;
}

export const START_NOW_LABEL = 'Commencer Maintenant';

export const SERVICE_OFFERS: readonly ServiceOffer[] = [
  {
    id: 'meta-ads',
    title: 'Publicité Meta (Facebook & Instagram)',
    problem:
      'Vos publicités touchent beaucoup de monde mais génèrent peu de clients, et votre budget s’épuise sans retour clair.',
    approach: [
      'Audit de vos comptes et définition de vos audiences cibles',
      'Création de campagnes et de visuels orientés conversion',
      'Optimisation continue avec retargeting et audiences similaires',
    ],
    results: 'Un coût par prospect réduit et un retour sur investissement mesurable chaque mois.',
  },
  {
    id: 'google-ads',
    title: 'Google Ads',
    problem:
      'Vos clients vous cherchent sur Google, mais ce sont vos concurrents qu’ils trouvent en premier.',
    approach: [
      'Recherche des mots-clés à forte intention d’achat',
      'Rédaction d’annonces et de pages d’atterrissage dédiées',
      'Suivi des conversions et ajustement des enchères',
    ],
    results: 'Des demandes qualifiées dès les premières semaines de diffusion.',
  },
  {
    id: 'seo',
    title: 'Référencement naturel (SEO)',
    problem:
      'Votre site est invisible dans les résultats de recherche et dépend entièrement de la publicité payante.',
    approach: [
      'Audit technique et analyse de la concurrence',
      'Optimisation du contenu et de la structure du site',
      'Création de contenu et acquisition de liens de qualité',
    ],
    results: 'Une progression durable du trafic organique sur 3 à 6 mois.',
  },
  {
    id: 'web-development',
    title: 'Développement web',
    problem:
      'Votre site est lent, difficile à utiliser sur mobile et ne transforme pas vos visiteurs en clients.',
    approach: [
      'Conception de l’expérience utilisateur et des maquettes',
      'Développement rapide, accessible et adapté au mobile',
      'Mise en ligne, suivi analytique et améliorations continues',
    ],
    results: 'Un site rapide qui convertit davantage et que vous gérez en toute autonomie.',
  },
  {
    id: 'branding',
    title: 'Image de marque',
    problem: 'Votre marque manque de cohérence et ne se distingue pas de la concurrence.',
    approach: [
      'Atelier de positionnement et analyse de votre marché',
      'Création du logo, de la palette et de la typographie',
      'Charte graphique et déclinaison sur tous vos supports',
    ],
    results: 'Une identité forte et reconnaissable, appliquée partout de façon cohérente.',
  },
];
