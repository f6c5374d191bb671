// Dredd hooks for tests/integration/contract.test.ts. Dredd sends each response of openapi.json the
// request its examples describe; these hooks shape that request so the server has a reason to give
// the status under test (a bad parameter for 400, a bad token for 401, DELETE for 405, …), with real
// credentials where one is needed. Dredd loads hook files with require(), hence CommonJS.
const hooks = require('hooks');

const server = process.env.CONTRACT_SERVER_URL;
const state = {
  basic: '',
  token: '',
  quotaOnly: '',
  contentOnly: '',
  revocable: '',
  connector: '',
};

/** Statuses that cannot be produced on purpose from one request, each with the test that covers them. */
const NOT_PRODUCIBLE = {
  429: 'exhausting a quota needs many requests: tests/integration/rate-limit.test.ts and oauth.test.ts',
  500: 'an internal error cannot be caused from outside: tests/integration/hostile-requests.test.ts asserts there is none',
};

async function post(path, body, headers) {
  const response = await fetch(`${server}${path}`, { method: 'POST', body, headers });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const client = await post(
      '/oauth/register',
      JSON.stringify({ client_name: 'contract tests' }),
      { 'Content-Type': 'application/json' },
    );
    state.basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
    const token = async (scope) =>
      (
        await post(
          '/oauth/token',
          new URLSearchParams({ grant_type: 'client_credentials', scope }),
          { Authorization: state.basic },
        )
      ).access_token;
    state.token = await token('content:read quota:read');
    state.quotaOnly = await token('quota:read');
    state.contentOnly = await token('content:read');
    state.revocable = await token('content:read');
    // A public client of the authorization code grant, for the authorization endpoint's redirect.
    const connector = await post(
      '/oauth/register',
      JSON.stringify({
        redirect_uris: ['http://127.0.0.1:8976/callback'],
        token_endpoint_auth_method: 'none',
      }),
      { 'Content-Type': 'application/json' },
    );
    state.connector = connector.client_id;
  })().then(
    () => done(),
    (error) => done(error),
  );
});

/** Sets or replaces one query parameter of the request (Dredd sends `fullPath`, and reports `request.uri`). */
function setQuery(transaction, name, value) {
  const url = new URL(transaction.fullPath, 'http://x');
  url.searchParams.set(name, value);
  transaction.fullPath = transaction.request.uri = `${url.pathname}${url.search}`;
}

const form = (fields) => new URLSearchParams(fields).toString();

hooks.beforeEach((transaction) => {
  const status = Number(transaction.expected.statusCode);
  const request = transaction.request;
  const path = request.uri.split('?', 1)[0];
  if (NOT_PRODUCIBLE[status]) {
    transaction.skip = true;
    return;
  }
  if (status === 405) {
    request.method = path.startsWith('/oauth/') && path !== '/oauth/authorize' ? 'GET' : 'DELETE';
    request.body = '';
    delete request.headers['Content-Type'];
    return;
  }
  if (path.startsWith('/api/v1/')) shapeOperation(transaction, status, path);
  else shapeAuthEndpoint(transaction, status, path);
});

function shapeOperation(transaction, status, path) {
  const request = transaction.request;
  const quota = path === '/api/v1/quota';
  if (status === 200 && quota) request.headers.Authorization = `Bearer ${state.token}`;
  else if (status === 400 && path === '/api/v1/search_pages') setQuery(transaction, 'query', 'x');
  else if (status === 400 && path === '/api/v1/read_page') setQuery(transaction, 'url', '');
  else if (status === 400 && path === '/api/v1/get_company_info')
    setQuery(transaction, 'section', 'everything');
  else if (status === 401)
    request.headers.Authorization = 'Bearer agt_at_not-a-token-of-this-server-000000000000000';
  else if (status === 403)
    request.headers.Authorization = `Bearer ${quota ? state.contentOnly : state.quotaOnly}`;
  else if (status === 404 && path === '/api/v1/read_page')
    setQuery(transaction, 'url', '/no-such-page/');
  // get_quota takes no parameter (no 400); only read_page can name a page that does not exist.
  else if (status !== 200) transaction.skip = true;
}

function shapeAuthEndpoint(transaction, status, path) {
  const request = transaction.request;
  const authenticated =
    path === '/oauth/token' || path === '/oauth/revoke' || path === '/oauth/introspect';
  if (path === '/agent/identity') {
    if (status === 200) request.headers.Authorization = `Bearer ${state.token}`;
    return;
  }
  if (path === '/oauth/authorize') {
    // 302: the registered connector, approved at once; 400: a client_id nobody registered (the example's).
    if (status === 302) setQuery(transaction, 'client_id', state.connector);
    return;
  }
  if (path === '/oauth/register') {
    if (status === 400) request.body = JSON.stringify({ contacts: 'nobody' });
    if (status === 413)
      request.body = JSON.stringify({ client_name: 'x', padding: 'x'.repeat(20_000) });
    return;
  }
  if (!authenticated || status === 401) return;
  // The example's client_id and client_secret are placeholders: authenticate with Basic instead.
  request.headers.Authorization = state.basic;
  if (path === '/oauth/token')
    request.body = form(
      status === 400 ? { grant_type: 'password' } : { grant_type: 'client_credentials' },
    );
  else
    request.body = form(
      status === 400 ? {} : { token: path === '/oauth/revoke' ? state.revocable : state.token },
    );
}

// RFC 9110 §8.3.1: `application/json; charset=utf-8` is the media type application/json, but Dredd's
// validator compares the header with the media type of openapi.json as strings.
hooks.beforeEachValidation((transaction) => {
  const headers = transaction.real.headers;
  if (headers['content-type'])
    headers['content-type'] = headers['content-type'].replace(/;\s*charset=utf-8$/i, '');
});
