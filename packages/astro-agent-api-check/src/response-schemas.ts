import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ApiFacts, Json } from './discover-site.ts';

/**
 * Validates real answers against what openapi.json declares for them: the JSON schema of the
 * response of that operation and status (OpenAPI 3.1 schemas are JSON Schema 2020-12). Returns the
 * lines that say what does not match; empty when the answer matches.
 */
export async function createResponseValidator(
  api: ApiFacts,
): Promise<(operationId: string, status: number, body: unknown) => string[]> {
  const document = (await dereference(structuredClone(api.openapi) as never)) as Json;
  // Examples and OpenAPI's own keywords are not validation; formats are the document's to define.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<string, ReturnType<typeof ajv.compile> | undefined>();
  const operations = new Map<string, Json>();
  for (const item of Object.values((document.paths ?? {}) as Json))
    for (const operation of Object.values(item as Json))
      if (operation?.operationId) operations.set(operation.operationId, operation);
  return (operationId, status, body) => {
    const key = `${operationId} ${status}`;
    if (!compiled.has(key)) {
      const responses = operations.get(operationId)?.responses ?? {};
      const schema = (
        responses[String(status)] ??
        responses[`${String(status)[0]}XX`] ??
        responses.default
      )?.content?.['application/json']?.schema;
      compiled.set(key, schema ? ajv.compile(schema) : undefined);
    }
    const validate = compiled.get(key);
    if (!validate) return [`openapi.json declares no JSON answer ${status} for ${operationId}`];
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error) =>
          `${operationId} ${status}: ${error.instancePath || '(root)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
      );
  };
}
