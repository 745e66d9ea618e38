// ESLint: typescript-eslint's type-checked rules for the TypeScript, the recommended rules for the
// plain JavaScript of the dashboard, bench and scripts. Formatting is Prettier's (npm run format).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'vitest.config.ts',
      'vitest.install.config.ts',
      'test/install/consumer/',
      'test/generated-client/',
      'node_modules/',
      '.pix-sandbox/',
      'test-output/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // a caught error is passed on as it came (unknown): rejecting with it is the point
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // tests read answers as untyped JSON: the unsafe-any rules would only add casts there
    files: ['test/**/*.ts', 'bench/**/*.ts', 'vitest.config.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // no source file over 400 lines (docs/contributing.md#lint-and-format): split it by role instead
  { files: ['src/**/*.ts', 'ui/**/*.js'], rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] } },
  { files: ['ui/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.mjs', '**/*.cjs', 'eslint.config.js', 'scripts/**/*.js'], languageOptions: { globals: globals.node } },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }] } },
);
