import { ConfigError, loadApiConfig, loadWorkerConfig } from './config';

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/agency',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

function configErrorOf(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('reads defaults when only the stores are given', () => {
    const config = loadApiConfig(base);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 4000,
      queuePrefix: 'agency',
      jsonBodyLimit: '32kb',
      demo: { enabled: false },
    });
  });

  it.each([
    [{ MONGODB_URI: undefined }, 'MONGODB_URI', 'is required'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI', 'must start with mongodb:'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL', 'must be a URL'],
    [{ API_PORT: '70000' }, 'API_PORT', 'must be a whole number from 0 to 65535'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV', 'must be one of development, test, production'],
    [{ JSON_BODY_LIMIT: 'lots' }, 'JSON_BODY_LIMIT', 'must be a size'],
    [{ DEMO_MODE: 'true', NODE_ENV: 'production' }, 'DEMO_MODE', 'must be false'],
    [{ QUEUE_PREFIX: 'a:b' }, 'QUEUE_PREFIX', 'must not contain'],
  ])('stops on bad API setting #%#', (change, variable, reason) => {
    const error = configErrorOf(() => loadApiConfig({ ...base, ...change }));
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(`${variable} ${reason}`);
  });

  it('requires the SMTP server and the agency inbox for the worker', () => {
    expect(configErrorOf(() => loadWorkerConfig({ ...base, MAIL_TO: 'a@b.co' })).variable).toBe(
      'SMTP_URL',
    );
    expect(
      configErrorOf(() => loadWorkerConfig({ ...base, SMTP_URL: 'smtp://127.0.0.1:25' })).variable,
    ).toBe('MAIL_TO');
    expect(
      loadWorkerConfig({
        ...base,
        SMTP_URL: 'smtp://127.0.0.1:25',
        MAIL_TO: 'Agency <hi@agency.tn>',
      }),
    ).toMatchObject({ mailTo: 'Agency <hi@agency.tn>', concurrency: 5 });
  });
});
