// JSON Schemas of every answer (for /openapi.json, the formatters' and clients' types, and the tests
// that check each response against the document), by area.
export * from './error-responses.js';
export * from './public-responses.js';
export * from './control-responses.js';
export * from './webhook-responses.js';
