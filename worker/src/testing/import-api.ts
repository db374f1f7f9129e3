import request from 'supertest';
import type { ImportDto } from '@agency/contracts';
import { createUser } from '@agency/backend';
import type { PipelineContext } from './pipeline-context';

export interface ImportApi {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
  /** A CSV upload as the dashboard sends it: the file as the body, its name in a header. */
  upload(csv: string | Buffer, name?: string): request.Test;
  /** Uploads, starts with the suggested mapping, and returns the import once it has ended. */
  runImport(csv: string, listId: string): Promise<ImportDto>;
  start(importId: string, listId: string, mapping: object): request.Test;
  waitForEnd(id: string, timeoutMs?: number): Promise<ImportDto>;
}

const ENDED = ['done', 'cancelled', 'failed'];

/** The admin API of imports and lists, as a signed-in manager drives it. */
export async function importApi(ctx: PipelineContext, username = 'importer'): Promise<ImportApi> {
  const password = 'correct horse battery staple';
  await createUser({ username, email: `${username}@agency.test`, role: 'manager', password });
  const login = await request(ctx.app.callback())
    .post('/api/admin/login')
    .send({ username, password });
  const token = login.body.token as string;
  const agent = () => request(ctx.app.callback());
  const api: ImportApi = {
    get: (path) => agent().get(path).set('Authorization', `Bearer ${token}`),
    post: (path, body) => agent().post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path) => agent().delete(path).set('Authorization', `Bearer ${token}`),
    upload: (csv, name = 'guests.csv') =>
      agent()
        .post('/api/admin/imports')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'text/csv')
        .set('X-File-Name', encodeURIComponent(name))
        .send(Buffer.isBuffer(csv) ? csv : Buffer.from(csv)),
    start: (importId, listId, mapping) =>
      api.post(`/api/admin/imports/${importId}/start`, { listId, mapping }),
    async waitForEnd(id, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const { body } = await api.get(`/api/admin/imports/${id}`);
        if (ENDED.includes(body.status as string)) return body as ImportDto;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`import ${id} did not end`);
    },
    async runImport(csv, listId) {
      const uploaded = await api.upload(csv);
      if (uploaded.status !== 201) {
        throw new Error(`upload refused: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
      }
      const started = await api.start(
        uploaded.body.id as string,
        listId,
        uploaded.body.suggestedMapping as object,
      );
      if (started.status !== 202) {
        throw new Error(`start refused: ${started.status} ${JSON.stringify(started.body)}`);
      }
      return api.waitForEnd(uploaded.body.id as string);
    },
  };
  return api;
}
