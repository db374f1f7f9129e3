import type { Page, SegmentDto, SegmentInput, SegmentQuery, SegmentRule } from '@agency/contracts';
import {
  addSegment,
  deleteSegment,
  findSegment,
  findSegmentsPage,
  pageOf,
  replaceSegment,
  segmentNotFound,
  type StoredSegment,
} from '@agency/platform';

export function toSegmentDto(segment: StoredSegment): SegmentDto {
  const rule: SegmentRule = { match: segment.rule.match, conditions: segment.rule.conditions };
  return {
    id: String(segment._id),
    name: segment.name,
    description: segment.description ?? null,
    rule,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}

export async function listSegments(query: SegmentQuery): Promise<Page<SegmentDto>> {
  const { segments, total } = await findSegmentsPage(query);
  return pageOf(segments.map(toSegmentDto), total, query);
}

export async function getSegment(id: string): Promise<SegmentDto> {
  const segment = await findSegment(id);
  if (!segment) throw segmentNotFound();
  return toSegmentDto(segment);
}

export async function createSegment(input: SegmentInput, createdBy: string): Promise<SegmentDto> {
  return toSegmentDto(await addSegment(input, createdBy));
}

export async function updateSegment(id: string, input: SegmentInput): Promise<SegmentDto> {
  const segment = await replaceSegment(id, input);
  if (!segment) throw segmentNotFound();
  return toSegmentDto(segment);
}

export async function removeSegment(id: string): Promise<SegmentDto> {
  const segment = await deleteSegment(id);
  if (!segment) throw segmentNotFound();
  return toSegmentDto(segment);
}
