// ESLint with typescript-eslint's recommended rules, over the project's TypeScript. Layering and import
// cycles are checked by dependency-cruiser (.dependency-cruiser.cjs), both in `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'bench/results/**', 'bench/.corpus/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        ReadableStream: 'readonly',
      },
    },
    rules: {
      // noUncheckedIndexedAccess makes `!` the honest way to say "present by construction".
      '@typescript-eslint/no-non-null-assertion': 'off',
      // tsc's noUnusedLocals/noUnusedParameters check this (with `_`-prefixed names allowed).
      '@typescript-eslint/no-unused-vars': 'off',
      'no-unused-vars': 'off',
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
);
