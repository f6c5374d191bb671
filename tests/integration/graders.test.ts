/**
 * The demo as the public agent-readiness graders see it (the examples run the same from their own
 * tests): AFDocs several times, each on 50 other pages at random, every check passing and no request
 * failing; and every link llms.txt and llms-full.txt give answering 200.
 */
import { after, before, describe, it } from 'node:test';
import { assertAfdocsPasses, assertDocumentLinksAnswer, runAfdocs } from '../helpers/graders.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The address the test build publishes (astro.config.mjs without SITE_URL). */
const SITE = 'http://localhost:4321';
const RUNS = 3;

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

describe('the demo under the public graders', () => {
  for (let run = 1; run <= RUNS; run++) {
    it(`passes every AFDocs check, run ${run} of ${RUNS}`, async (t) => {
      assertAfdocsPasses(t, await runAfdocs({ site: SITE, served: server.url }));
    });
  }

  it('answers every link of llms.txt and llms-full.txt (and of the files they link) with 200, without a redirect', async (t) => {
    const count = await assertDocumentLinksAnswer({ site: SITE, served: server.url }, [
      'llms.txt',
      'llms-full.txt',
    ]);
    t.diagnostic(`${count} URLs fetched`);
  });
});
