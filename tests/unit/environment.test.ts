import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEnvironment } from '../../packages/astro-agent-api/src/environment.ts';
import { LIMITS } from '../../packages/astro-agent-api/src/contract/limits.ts';

describe('the environment variables, parsed by one schema', () => {
  test('unset or blank variables take their defaults; set ones are read trimmed', () => {
    const defaults = parseEnvironment({ AGENT_API_QUOTA_ANONYMOUS: ' ', REDIS_URL: '' });
    // Variables without a default (REDIS_URL, the quota overrides) are absent.
    assert.deepEqual(JSON.parse(JSON.stringify(defaults)), {
      AGENT_API_DATA_DIR: '.data',
      AGENT_API_REDIS_TIMEOUT_MS: 500,
      AGENT_API_REDIS_PREFIX: 'agent-api:',
      AGENT_API_CLIENT_IDLE_DAYS: LIMITS.clientIdleDays,
      AGENT_API_ANALYTICS: 'on',
      AGENT_API_ANALYTICS_RETENTION_DAYS: LIMITS.trafficRetentionDays,
    });
    const set = parseEnvironment({
      REDIS_URL: ' rediss://user:pw@cache:6380/1 ',
      AGENT_API_REDIS_TIMEOUT_MS: '200',
      AGENT_API_CLIENT_IDLE_DAYS: '0.5',
      AGENT_API_ANALYTICS: 'OFF',
      AGENT_API_ANALYTICS_RETENTION_DAYS: '7',
      AGENT_API_QUOTA_IDENTIFIED: ' 12 ',
    });
    assert.equal(set.REDIS_URL, 'rediss://user:pw@cache:6380/1');
    assert.deepEqual(
      [
        set.AGENT_API_REDIS_TIMEOUT_MS,
        set.AGENT_API_CLIENT_IDLE_DAYS,
        set.AGENT_API_ANALYTICS,
        set.AGENT_API_ANALYTICS_RETENTION_DAYS,
        set.AGENT_API_QUOTA_IDENTIFIED,
      ],
      [200, 0.5, 'off', 7, 12],
    );
  });

  const bad: [string, string, RegExp][] = [
    ['REDIS_URL', 'localhost:6379', /must be a redis:\/\/ or rediss:\/\/ URL/],
    ['REDIS_URL', 'http://cache:6379', /must be a redis:\/\/ or rediss:\/\/ URL/],
    [
      'AGENT_API_REDIS_TIMEOUT_MS',
      'fast',
      /must be a whole number of milliseconds between 10 and 60000/,
    ],
    ['AGENT_API_REDIS_TIMEOUT_MS', '5', /unset it to wait at most 500 ms for Redis/],
    ['AGENT_API_CLIENT_IDLE_DAYS', 'soon', /must be a positive number of days/],
    ['AGENT_API_CLIENT_IDLE_DAYS', '-1', /must be a positive number of days/],
    ['AGENT_API_CLIENT_IDLE_DAYS', '0', /unset it to recycle clients after 180 days/],
    ['AGENT_API_ANALYTICS', 'no', /must be "on" or "off"/],
    [
      'AGENT_API_ANALYTICS_RETENTION_DAYS',
      '0',
      /must be a whole number of days between 1 and 3650/,
    ],
    ['AGENT_API_ANALYTICS_RETENTION_DAYS', 'forever', /unset it to keep 90 days of traffic counts/],
    [
      'AGENT_API_QUOTA_ANONYMOUS',
      '1e3',
      /must be a whole number of requests per window between 1 and 1000000/,
    ],
    ['AGENT_API_QUOTA_IDENTIFIED', '2000000', /unset it to use the quota of the `policies` option/],
  ];
  for (const [name, value, fix] of bad) {
    test(`${name}=${value} stops the start with a message naming the variable, its value and the fix`, () => {
      assert.throws(
        () => parseEnvironment({ [name]: value }),
        (error: Error) => {
          assert.ok(error.message.startsWith(`${name} must be `), error.message);
          assert.ok(error.message.includes(`but it is "${value}"`), error.message);
          assert.match(error.message, fix);
          return true;
        },
      );
    });
  }

  test('several bad variables are named together, one line each', () => {
    assert.throws(
      () => parseEnvironment({ AGENT_API_ANALYTICS: 'maybe', AGENT_API_QUOTA_ANONYMOUS: 'x' }),
      (error: Error) => {
        assert.deepEqual(
          error.message.split('\n').map((line) => line.split(' ')[0]),
          ['AGENT_API_ANALYTICS', 'AGENT_API_QUOTA_ANONYMOUS'],
        );
        return true;
      },
    );
  });
});
