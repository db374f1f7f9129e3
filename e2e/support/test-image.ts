import sharp from 'sharp';

/**
 * A real PNG of one colour, different for every seed: the media library
 * names images by their content hash, so each run's image is new to it.
 */
export function solidPng(width: number, height: number, seed: string): Promise<Buffer> {
  const [r = 0, g = 0, b = 0] = [...Buffer.from(seed)].slice(-3);
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}
