import type { MediaDto } from '@agency/contracts';
import { File as NodeFile } from 'node:buffer';

let sequence = 0;

/** A library image as the API answers it; override only what a test is about. */
export function buildMedia(overrides: Partial<MediaDto> = {}): MediaDto {
  sequence += 1;
  const id = overrides.id ?? sequence.toString(16).padStart(64, 'a');
  return {
    id,
    name: `image-${sequence}.jpg`,
    contentType: 'image/jpeg',
    width: 1200,
    height: 800,
    size: 245_760,
    originalWidth: 2400,
    originalHeight: 1600,
    url: `https://agency.example/api/media/${id}.jpg`,
    thumbnailUrl: `https://agency.example/api/media/${id}-thumb.jpg`,
    createdAt: '2026-05-04T09:30:00.000Z',
    createdBy: { id: '0'.repeat(24), username: 'admin' },
    usedBy: [],
    ...overrides,
  };
}

/**
 * A small file as the browser hands it over from a drop, a paste or the file
 * chooser. Node's File, not jsdom's: the test environment's FormData is
 * Node's (jest-fixed-jsdom), and it takes only its own kind of Blob.
 */
export function imageFile(name = 'banner.png', type = 'image/png'): File {
  return new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])], name, {
    type,
  }) as unknown as File;
}
