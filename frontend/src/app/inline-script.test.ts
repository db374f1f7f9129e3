import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const frontendDir = join(__dirname, '..', '..');

/**
 * index.html's one inline script (which hides prerendered English from
 * visitors of another language) runs in compose only if nginx's
 * Content-Security-Policy allows its hash.
 */
describe('the inline script of index.html', () => {
  it('is allowed by the Content-Security-Policy of every nginx location that sends HTML', () => {
    const html = readFileSync(join(frontendDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1] ?? '',
    );
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');

    const nginx = readFileSync(join(frontendDir, 'nginx.conf'), 'utf8');
    const policies = [...nginx.matchAll(/Content-Security-Policy "([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(policies.length).toBeGreaterThanOrEqual(3);
    for (const policy of policies) expect(policy).toContain(`'sha256-${hash}'`);
  });
});
