import type { Types } from 'mongoose';
import { ImportReportModel } from './list-import.model';

/** The lines of an import's error report, in file order (its chunks read one by one). */
export async function* importReportLines(
  importId: Types.ObjectId,
): AsyncGenerator<{ row: number; value: string; reason: string }> {
  const chunks = ImportReportModel.find({ importId }).sort({ chunk: 1 }).lean().cursor();
  for await (const chunk of chunks) {
    for (const { row, value, reason } of chunk.lines) yield { row, value, reason };
  }
}
