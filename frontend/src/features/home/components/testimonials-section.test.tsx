import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { STOCK_PHOTO_HOST, TESTIMONIAL_PHOTO_FALLBACK } from '../home-content';
import { TestimonialsSection } from './testimonials-section';

describe('TestimonialsSection', () => {
  it('shows three testimonials, each with five stars, a quote, a name and a role', async () => {
    await renderWithProviders(<TestimonialsSection />);

    expect(screen.getAllByRole('img', { name: 'Rated 5 out of 5' })).toHaveLength(3);
    expect(screen.getByText('Sarah Johnson')).toBeInTheDocument();
    expect(screen.getByText('Marketing Director, TechFlow')).toBeInTheDocument();
    expect(screen.getAllByRole('blockquote')).toHaveLength(3);
  });

  it('loads portraits lazily from the stock-photo host', async () => {
    await renderWithProviders(<TestimonialsSection />);

    const photo = screen.getByRole('img', { name: 'Portrait of Sarah Johnson' });
    expect(photo.getAttribute('src')).toMatch(new RegExp(`^${STOCK_PHOTO_HOST}/`));
    expect(photo).toHaveAttribute('loading', 'lazy');
  });

  it('falls back to the local image when the host cannot be reached', async () => {
    await renderWithProviders(<TestimonialsSection />);
    const photo = screen.getByRole('img', { name: 'Portrait of Karim Ben Salah' });

    fireEvent.error(photo);

    expect(photo).toHaveAttribute('src', TESTIMONIAL_PHOTO_FALLBACK);
    expect(photo).toHaveAttribute('width', '56');
    // The other portraits are untouched.
    expect(
      screen.getByRole('img', { name: 'Portrait of Emma Laurent' }).getAttribute('src'),
    ).toMatch(new RegExp(`^${STOCK_PHOTO_HOST}/`));
  });

  it('falls back for a portrait that failed before the section came alive', async () => {
    // A prerendered image whose load already failed: complete, with no pixels.
    const complete = jest
      .spyOn(HTMLImageElement.prototype, 'complete', 'get')
      .mockReturnValue(true);
    try {
      await renderWithProviders(<TestimonialsSection />);
      for (const photo of screen.getAllByRole('img', { name: /^Portrait of/ })) {
        expect(photo).toHaveAttribute('src', TESTIMONIAL_PHOTO_FALLBACK);
      }
    } finally {
      complete.mockRestore();
    }
  });
});
