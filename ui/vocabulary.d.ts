// The types of /_sandbox/ui/vocabulary.js, the module the sandbox makes from src/domain/vocabulary.ts
// (src/control/ui.ts): its exports are that file's, so the dashboard's type-check reads them there.
export * from '../src/domain/vocabulary.js';
