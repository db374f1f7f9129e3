import { withDatabaseName } from './database-uri';

describe('withDatabaseName', () => {
  it('replaces the database of a single-host URI', () => {
    expect(withDatabaseName('mongodb://127.0.0.1:27017/agency', 'agency_e2e')).toBe(
      'mongodb://127.0.0.1:27017/agency_e2e',
    );
  });

  it('adds a database where the URI names none', () => {
    expect(withDatabaseName('mongodb://127.0.0.1:27017', 'test_1')).toBe(
      'mongodb://127.0.0.1:27017/test_1',
    );
  });

  it('keeps credentials, every host of a replica set and the options', () => {
    expect(withDatabaseName('mongodb://u:p%40ss@a:1,b:2/agency?replicaSet=rs0&tls=true', 'x')).toBe(
      'mongodb://u:p%40ss@a:1,b:2/x?replicaSet=rs0&tls=true',
    );
    expect(withDatabaseName('mongodb+srv://u:p@cluster.example.net/?retryWrites=true', 'x')).toBe(
      'mongodb+srv://u:p@cluster.example.net/x?retryWrites=true',
    );
  });

  it('refuses what is not a MongoDB connection string', () => {
    expect(() => withDatabaseName('redis://127.0.0.1:6379', 'x')).toThrow(/Not a MongoDB/);
  });
});
