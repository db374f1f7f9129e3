// @ts-check
/**
 * A file POSTed with node:http rather than fetch: when the server answers
 * before it has read the whole body (a 413, a 503), fetch reports only the
 * broken pipe, and the bench needs the answer to say what went wrong.
 */
import { request } from 'node:http';

/**
 * The body may come as its parts, sent in one write without joining them.
 * @param {string} url @param {Record<string, string>} headers @param {Buffer | Buffer[]} body
 * @returns {Promise<{ status: number, body: any }>}
 */
export function postFile(url, headers, body) {
  const parts = Array.isArray(body) ? body : [body];
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return new Promise((resolve, reject) => {
    const sending = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(length) },
    });
    let answered = false;
    sending.on('response', (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
        } catch {
          resolve({ status: response.statusCode ?? 0, body: text });
        }
      });
    });
    // Once the server has answered it may close the connection mid-body.
    sending.on('error', (error) => (answered ? undefined : reject(error)));
    sending.cork();
    for (const part of parts) sending.write(part);
    sending.end();
  });
}
