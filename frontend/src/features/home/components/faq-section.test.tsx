import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { FaqSection } from './faq-section';

const question = (name: string) => screen.getByRole('button', { name });
const FIRST = 'How soon will I see results?';
const SECOND = 'Do I need to sign a long-term contract?';

describe('FaqSection', () => {
  it('lists the five questions, all closed', async () => {
    await renderWithProviders(<FaqSection />);

    const questions = screen.getAllByRole('button');
    expect(questions).toHaveLength(5);
    for (const button of questions) expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens one answer at a time and closes the open one on a second click', async () => {
    const { user } = await renderWithProviders(<FaqSection />);

    await user.click(question(FIRST));
    expect(question(FIRST)).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: FIRST })).toHaveTextContent('2-4 weeks');

    await user.click(question(SECOND));
    expect(question(SECOND)).toHaveAttribute('aria-expanded', 'true');
    expect(question(FIRST)).toHaveAttribute('aria-expanded', 'false');

    await user.click(question(SECOND));
    for (const button of screen.getAllByRole('button')) {
      expect(button).toHaveAttribute('aria-expanded', 'false');
    }
  });
});
