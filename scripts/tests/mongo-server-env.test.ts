import { mongoServerEnv, testServerEnv } from '../lib/mongo-server-env.mjs';

describe('the MongoDB-wire server the scripts start', () => {
  it("runs FerretDB's Go collector at GOGC 400, less often than Go's default", () => {
    expect(mongoServerEnv('ferretdb', {})).toEqual({ GOGC: '400' });
  });

  it("keeps an operator's own GOGC", () => {
    expect(mongoServerEnv('ferretdb', { GOGC: '150' })).toEqual({ GOGC: '150' });
  });

  it('gives mongod nothing of it', () => {
    expect(mongoServerEnv('mongod', { GOGC: '150' })).toEqual({});
  });

  it("starts the test runs' FerretDB at Go's default, for the timing tests, unless told otherwise", () => {
    expect(mongoServerEnv('ferretdb', testServerEnv({}))).toEqual({ GOGC: '100' });
    expect(testServerEnv({ GOGC: '400', REDIS_URL: 'redis://r' })).toEqual({
      GOGC: '400',
      REDIS_URL: 'redis://r',
    });
  });
});
