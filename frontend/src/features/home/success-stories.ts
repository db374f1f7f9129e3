/**
 * 'Nos Succès' (its French title): six client testimonials with the years
 * each client has worked with us. Their words are in the `home-sections`
 * catalogues under `successStories.items.<id>` (message and role).
 */
export interface SuccessStory {
  id: 'restaurant' | 'fashion' | 'clinic' | 'realestate' | 'startup' | 'hotel';
  /** Year range of the collaboration (starting 2019 to 2022, ending 2024). */
  period: string;
}

export const SUCCESS_STORIES: readonly SuccessStory[] = [
  { id: 'restaurant', period: '2019 - 2024' },
  { id: 'fashion', period: '2020 - 2024' },
  { id: 'clinic', period: '2020 - 2024' },
  { id: 'realestate', period: '2021 - 2024' },
  { id: 'startup', period: '2021 - 2024' },
  { id: 'hotel', period: '2022 - 2024' },
];
