// Validation functions compiled at build time, by name (see precompiledName in ./validator.ts).
// This file is the empty stand-in that runs from src/; `npm run build` replaces its compiled copy,
// dist/src/schemas/precompiled.js, with ajv's standalone code for every schema in ./validated.ts
// (scripts/precompile-schemas.mjs).
export const PRECOMPILED: Record<string, (data: unknown) => boolean> = {};
