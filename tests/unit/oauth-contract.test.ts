import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  OAuthClientInformationFullSchema,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { buildAuthPaths } from '../../packages/astro-agent-api/src/documents/build-openapi-auth.ts';
import {
  clientInformationSchema,
  clientMetadataSchema,
  introspectionRequestSchema,
  revocationRequestSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../../packages/astro-agent-api/src/contract/oauth-contract.ts';
import { buildJsonSchema } from '../../packages/astro-agent-api/src/operations/json-schema.ts';

type PathItem = {
  post: {
    requestBody: { content: Record<string, { schema: unknown }> };
    responses: Record<number, { content?: Record<string, { schema: unknown }> }>;
  };
};

describe('the OAuth contract: one set of schemas for the server and openapi.json', () => {
  const paths = buildAuthPaths() as Record<string, PathItem>;
  const body = (path: string, type: string) => paths[path]!.post.requestBody.content[type]!.schema;
  const answer = (path: string, status: number) =>
    paths[path]!.post.responses[status]!.content!['application/json']!.schema;

  test('openapi.json describes each OAuth request and answer with the schema the server parses or writes it with', () => {
    assert.deepEqual(
      body('/oauth/register', 'application/json'),
      buildJsonSchema(clientMetadataSchema, 'input'),
    );
    assert.deepEqual(
      answer('/oauth/register', 201),
      buildJsonSchema(clientInformationSchema, 'output'),
    );
    assert.deepEqual(
      body('/oauth/token', 'application/x-www-form-urlencoded'),
      buildJsonSchema(tokenRequestSchema, 'input'),
    );
    assert.deepEqual(answer('/oauth/token', 200), buildJsonSchema(tokenResponseSchema, 'output'));
    assert.deepEqual(
      body('/oauth/revoke', 'application/x-www-form-urlencoded'),
      buildJsonSchema(revocationRequestSchema, 'input'),
    );
    assert.deepEqual(
      body('/oauth/introspect', 'application/x-www-form-urlencoded'),
      buildJsonSchema(introspectionRequestSchema, 'input'),
    );
  });

  test("the answers the schemas allow are ones the MCP SDK's OAuth client accepts", () => {
    const registered = clientInformationSchema.parse({
      client_id: 'agt_ci_x',
      client_secret: 'agt_cs_x',
      client_id_issued_at: 1767225600,
      client_secret_expires_at: 0,
      client_name: 'my-agent',
      contacts: [],
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'content:read quota:read',
    });
    assert.equal(OAuthClientInformationFullSchema.safeParse(registered).success, true);
    const token = tokenResponseSchema.parse({
      access_token: 'agt_at_x',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'content:read',
    });
    assert.equal(OAuthTokensSchema.safeParse(token).success, true);
  });
});
