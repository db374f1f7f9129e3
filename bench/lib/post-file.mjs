// @ts-check
/**
 * A file POSTed with node:http rather than fetch: when the server answers
 * before it has read the whole body (a 413, a 503), fetch reports only the
 * broken pipe, and the bench needs the answer to say what went wrong.
 */
import { request } from 'node:http';

/**
 * @param {string} url @param {Record<string, string>} headers @param {Buffer} body
 * @returns {Promise<{ status: number, body: any }>}
 */
export function postFile(url, headers, body) {
  return new Promise((resolve, reject) => {
    const sending = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
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
    sending.end(body);
  });
}
