import Router from '@koa/router';
import { Queue } from 'bullmq';
import {
  API_ROUTES,
  IMPORT_MAX_BYTES,
  QUEUE_NAMES,
  importStartSchema,
  listQuerySchema,
  type ListImportJob,
} from '@agency/contracts';
import { MAIL_JOB_OPTIONS, type Redis } from '@agency/platform';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { IMPORT_TOO_LARGE, uploadImportFile } from './import-upload';
import {
  cancelImport,
  getImport,
  importReport,
  listImports,
  startImport,
  toImportDto,
} from './import.service';

/** Where a CSV file is uploaded: its body is the file itself, read by the route. */
export const IMPORT_UPLOAD_PATH = API_ROUTES.imports;

const importListQuerySchema = listQuerySchema({
  sortFields: ['createdAt'] as const,
  defaultSort: '-createdAt',
  filters: {},
});

/** What a browser labels a .csv file with, or a plain upload. */
const FILE_TYPES = [
  'text/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
];

function fileNameOf(raw: string | undefined): string {
  let name = 'import.csv';
  try {
    if (raw) name = decodeURIComponent(raw);
  } catch {
    // A malformed name: the default serves.
  }
  return (
    name
      // eslint-disable-next-line no-control-regex -- control characters are what it removes
      .replace(/[\u0000-\u001f\\/]/g, '')
      .trim()
      .slice(0, 200) || 'import.csv'
  );
}

export function importRoutes({
  redis,
  queuePrefix,
}: {
  redis: Redis;
  queuePrefix: string;
}): Router {
  const router = new Router();
  const queue = new Queue<ListImportJob>(QUEUE_NAMES.listImport, {
    connection: redis,
    prefix: queuePrefix,
    defaultJobOptions: { ...MAIL_JOB_OPTIONS, attempts: 3 },
  });
  queue.on('error', () => undefined);

  /**
   * The upload: the body is the CSV file (`Content-Type: text/csv`), its name
   * in `X-File-Name` (URI-encoded). A declared length over the limit is
   * refused before a byte is read.
   */
  router.post(API_ROUTES.imports, authorize('lists:write'), async (ctx) => {
    if (!ctx.is(FILE_TYPES)) {
      throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Upload the file as text/csv');
    }
    if ((ctx.request.length ?? 0) > IMPORT_MAX_BYTES) {
      throw new HttpError('PAYLOAD_TOO_LARGE', IMPORT_TOO_LARGE);
    }
    const user = sessionUser(ctx.state);
    const fileName = fileNameOf(ctx.get('x-file-name'));
    const stored = await uploadImportFile(ctx.req, fileName, {
      id: user.id,
      username: user.username,
    });
    const dto = toImportDto(stored);
    audit(ctx, 'list.import-upload', { type: 'import', id: dto.id, label: fileName });
    ctx.status = 201;
    ctx.body = dto;
  });

  router.get(API_ROUTES.imports, authorize('lists:read'), async (ctx) => {
    const query = await validateQuery(ctx, importListQuerySchema);
    ctx.body = await listImports(query.page, query.pageSize);
  });

  router.get(API_ROUTES.import, authorize('lists:read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getImport(recordIdParam(ctx));
  });

  router.post(API_ROUTES.importStart, authorize('lists:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const input = await validateBody(ctx, importStartSchema);
    const dto = await startImport(queue, id, input);
    audit(ctx, 'list.import-start', { type: 'list', id: dto.list?.id, label: dto.fileName });
    ctx.status = 202;
    ctx.body = dto;
  });

  router.post(API_ROUTES.importCancel, authorize('lists:write'), async (ctx) => {
    const dto = await cancelImport(redis, queuePrefix, recordIdParam(ctx));
    audit(ctx, 'list.import-cancel', { type: 'import', id: dto.id, label: dto.fileName });
    ctx.status = 202;
    ctx.body = dto;
  });

  router.get(API_ROUTES.importReport, authorize('lists:read'), async (ctx) => {
    const { fileName, stream } = await importReport(recordIdParam(ctx), (error) =>
      ctx.state.log.error({ err: error }, 'import report stopped'),
    );
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(fileName);
    ctx.body = stream;
  });

  return router;
}
